"""The referee's eye against the true world, per noise profile: accuracy and verdict latency.

Plays DROPS drops per profile (three games) through ``simulator.evaluate`` and prints the
DESIGN §5 figures; the issue's full measurement is ``tabletop sim eval --drops 1000``
(docs/eye.md). For latency on one core, run it pinned: ``taskset -c 0 .venv/bin/python
-m benchmarks eye``. The model ceiling column: the host's physics, given the exact
release and the true board before the drop, gets the verdict right this often (how far
the model alone carries). The bound columns: the perfect eye of docs/eye-bound.md
(level B, the reference sensors, BOUND_SAMPLES samples) on the same drops, its wrong
share (expected / realised) when it asks on as many drops as the eye did, and the
least it must ask for wrong at most 1 % (expected / realised). The calibration table: of
the drops decided after 0, 1, ... questions, how many and the share right (a decision is
only as good as this share).
The drift table: right / wrong / staff by how far the host's model had drifted from the true
board before the drop (the evaluator's side only). The split table: where the CPU time of a
look goes (docs/eye.md, "Where a look's time goes"), from timers put around each part for
one in-process run of SPLIT_DROPS drops (a garbage collection that falls inside a timed part
counts in both).
"""

from __future__ import annotations

import gc
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

from firmware_host.config.board import EdgeFace
from firmware_host.config.noise import load_profile
from firmware_host.config.table import load_table
from firmware_host.eye import Eye, Look, load_eye_config, verdict_key
from firmware_host.eye import eye as eye_module
from firmware_host.eye.entry import ReleaseFit
from firmware_host.eye.likelihood import StripLikelihood
from firmware_host.games.dropit.rules.landing import judge
from firmware_host.games.dropit.rules.position import Position
from firmware_host.model import World, load_params
from firmware_host.model import world as world_module
from firmware_host.model.supply import GAME_DROPS, supply_piece
from firmware_host.sensors.strips import StripModel
from simulator.bound import Decision, Level, Sensors, bound_drops, least_asked, tradeoff
from simulator.evaluate import Tally, evaluate, in_process_drops
from simulator.true_world import TrueWorld

DROPS = 3 * GAME_DROPS
SEED = 2026
PROFILES = ("clean", "realistic", "harsh")
SPLIT_DROPS = GAME_DROPS
PARTS: tuple[tuple[object, str, str], ...] = (
    (world_module, "run_until_settled", "stepping the candidates (Chipmunk)"),
    (world_module, "space_of", "building their pymunk spaces"),
    (ReleaseFit, "modes", "the entry-gate release fit"),
    (eye_module, "judge", "judge"),
    (StripModel, "snapshot", "the strips' forward model"),
    (StripLikelihood, "fit", "the likelihood"),
)
"""What the split table times: (owner, attribute, label)."""
BOUND_SAMPLES = 24
"""Samples per drop of the perfect eye printed beside the eye's figures."""
BOUND_WRONG = 0.01
"""The wrong share whose least asked share the bound columns give."""


def bound_beside(profile: str, drops: int, asked: float) -> tuple[float, float, float, float]:
    """The perfect eye on the same drops (level B, reference sensors): its wrong share,
    expected and realised, when asking on the ``asked`` share of drops, and the least
    asked shares for :data:`BOUND_WRONG`, expected and realised."""
    found = bound_drops(load_table(), load_profile(profile), drops, SEED, BOUND_SAMPLES)
    decisions = []
    for drop in found:
        belief = drop.posterior(Level.SPIN_DRAWN, Sensors.REFERENCE, BOUND_SAMPLES)
        decisions.append(Decision(belief.p_max, belief.key == drop.truth))
    row = tradeoff(decisions, asked)
    return (row.expected_wrong, row.realised_wrong, *least_asked(decisions, BOUND_WRONG))


def ceiling(profile: str, drops: int) -> float:
    """The share of drops where the host's physics, from the true board before the drop
    and the true release, gives the true verdict."""
    table, params = load_table(), load_params()
    world = TrueWorld(table, load_profile(profile), SEED)
    rng = random.Random(SEED)
    same = 0
    for k in range(drops):
        if k % GAME_DROPS == 0 and k:
            world.clear()
        before = world.world.snapshot()
        color, shape = supply_piece(k % GAME_DROPS)
        drop = world.drop(color, shape, rng.uniform(40, 260), rng.uniform(0, 360), f"p{k + 1}")
        model = World(table.board, params, before)
        model.drop(drop.actual, f"p{k + 1}")
        verdicts = [
            verdict_key(judge(table.board, Position(EdgeFace.COLOR, tuple(rest), last)))
            for *rest, last in (model.pieces, drop.pieces)
        ]
        same += verdicts[0] == verdicts[1]
    return same / drops


class _Split:
    """CPU time (s) of each of PARTS, and of the garbage collector, inside a look
    (``Eye.begin`` and ``Look.settle``)."""

    def __init__(self) -> None:
        self.totals: Counter[str] = Counter()
        self.inside = False

    @contextmanager
    def timing(self, owner: Any, name: str, label: str) -> Iterator[None]:
        """``owner.name`` timed into ``totals[label]`` (inside a look) until the exit."""
        original: Callable[..., Any] = getattr(owner, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            if not self.inside:
                return original(*args, **kwargs)
            started = time.thread_time()
            try:
                return original(*args, **kwargs)
            finally:
                self.totals[label] += time.thread_time() - started

        setattr(owner, name, timed)
        try:
            yield
        finally:
            setattr(owner, name, original)

    @contextmanager
    def looking(self) -> Iterator[None]:
        """A look's two halves, ``Eye.begin`` and ``Look.settle``, marked as the time that
        counts, their total in ``totals["look"]``."""
        halves = ((Eye, "begin"), (Look, "settle"))
        originals = [getattr(owner, name) for owner, name in halves]

        def counted(original: Callable[..., Any]) -> Callable[..., Any]:
            def half(*args: Any, **kwargs: Any) -> Any:
                self.inside = True
                started = time.thread_time()
                try:
                    return original(*args, **kwargs)
                finally:
                    self.totals["look"] += time.thread_time() - started
                    self.inside = False

            return half

        for (owner, name), original in zip(halves, originals, strict=True):
            setattr(owner, name, counted(original))
        try:
            yield
        finally:
            for (owner, name), original in zip(halves, originals, strict=True):
                setattr(owner, name, original)

    def collecting(self, phase: str, info: dict[str, int]) -> None:
        """A ``gc.callbacks`` entry: the collector's time inside a look."""
        if self.inside:
            self.totals["garbage collection"] += (1 if phase == "stop" else -1) * (
                time.thread_time()
            )


def split(profile: str, drops: int) -> Counter[str]:
    """The CPU time (s) of the looks of ``drops`` in-process drops (``"look"``) and of
    each part inside them."""
    table, params, config = load_table(), load_params(), load_eye_config()
    source = list(in_process_drops(table, load_profile(profile), drops, SEED))
    timer = _Split()
    with ExitStack() as stack:
        stack.enter_context(timer.looking())
        for owner, name, label in PARTS:
            stack.enter_context(timer.timing(owner, name, label))
        gc.callbacks.append(timer.collecting)
        try:
            evaluate(table, params, config, source, SEED)
        finally:
            gc.callbacks.remove(timer.collecting)
    return timer.totals


def main() -> None:
    """Print each profile's figures."""
    table, params, config = load_table(), load_params(), load_eye_config()
    print(f"{DROPS} drops per profile, seed {SEED}")
    print(
        "profile    agree  asked  wrong  staff  p50 ms  p95 ms  wall s  model ceiling"
        "  bound: wrong at the same asked  asked for wrong <= 1 %"
    )
    tallies: dict[str, Tally] = {}
    for name in PROFILES:
        start = time.perf_counter()
        tally = evaluate(
            table, params, config, in_process_drops(table, load_profile(name), DROPS, SEED)
        )
        wall = time.perf_counter() - start
        f = tally.to_json()
        n = tally.drops
        bound = bound_beside(name, DROPS, f["asked"] / n)
        print(
            f"{name:<9} {100 * f['agree'] / n:5.1f}% {100 * f['asked'] / n:5.1f}% "
            f"{100 * f['wrong'] / n:5.1f}% {100 * f['staff'] / n:5.1f}% "
            f"{f['verdict_ms_p50']:7.1f} {f['verdict_ms_p95']:7.1f} {wall:7.1f}"
            f"  {100 * ceiling(name, DROPS):5.1f}%"
            f"         {100 * bound[0]:4.1f}% / {100 * bound[1]:4.1f}%"
            f"          {100 * bound[2]:4.1f}% / {100 * bound[3]:4.1f}%"
        )
        tallies[name] = tally
    asked = range(config.decide.max_questions + 1)
    print("decided after questions: " + "".join(f"{q:>13}" for q in asked) + "  (n, share right)")
    for name, tally in tallies.items():
        cells = []
        for questions in asked:
            n, right = tally.right_share(questions)
            cells.append(f"{n:5d} {100 * right:5.1f}%")
        print(f"{name:<24} " + " ".join(cells))
    for name, tally in tallies.items():
        print(f"{name:<10} {tally.drift_line()}")
    parts = split("clean", SPLIT_DROPS)
    looks = parts.pop("look")
    print(f"where a look's CPU time goes (clean, {SPLIT_DROPS} drops, {looks:.1f} s of looks):")
    for label, seconds in parts.most_common():
        print(f"  {label:<38} {100 * seconds / looks:5.1f} %")
    print(f"  {'the rest':<38} {100 * (1 - sum(parts.values()) / looks):5.1f} %")


if __name__ == "__main__":
    main()
