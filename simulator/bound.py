"""An upper bound on any referee's eye with a given sensor set: the perfect eye.

The perfect eye knows everything the real eye has to estimate: the true board before the
drop, the true physics (``config/physics/true.yaml``) and the profile's per-drop spread
*distribution*, the exact release (x, height, angle). It lacks only what no sensor of the
table gives: this drop's own draw of the spread and (level B) the spin. For each drop of
the evaluation's sequence (:func:`simulator.evaluate.turns`, the same drops as
:func:`~simulator.evaluate.in_process_drops` for the same seed) it simulates ``samples``
drops of the same release, each with physics drawn as the true world draws them
(:meth:`~firmware_host.model.params.PhysicsParams.spread`) and, at level B, a spin drawn
from the hand's distribution (level A keeps the drop's actual spin), and weighs each by the exact
likelihood of the drop's noisy readings (:class:`ExactNoise`). The posterior over verdict
keys (:func:`~firmware_host.eye.verdict_key`) gives the MAP verdict and its probability
``p_max``; the trade-off (:func:`tradeoff`) says how few drops any eye must ask about to
keep its wrong decisions under a target. docs/eye-bound.md has the details and figures.

Sensor sets: ``reference`` (the strip snapshot: curtain, top gate, edge strip) and
``pane grid`` (the same plus a :class:`~simulator.pane_grid.PaneGrid`, a
what-if; its readings get the curtain's flicker from their own random stream).

>>> from firmware_host.config.noise import load_profile
>>> from firmware_host.config.table import load_table
>>> bound = measure(load_table(), load_profile("clean"), "clean", drops=2, seed=1, samples=2)
>>> column = bound.column(Level.SPIN_DRAWN, Sensors.REFERENCE)
>>> column.figures.certain, column.figures.right
(1.0, 1.0)
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from firmware_host.config.noise import NoiseProfile, SensorNoise
from firmware_host.config.table import Table
from firmware_host.eye import verdict_key
from firmware_host.games.dropit.rules.pieces import Piece
from firmware_host.model import Drop, PhysicsParams, Snapshot, World
from firmware_host.model.supply import GAME_DROPS
from firmware_host.sensors import Bits, StripModel, StripSnapshot
from simulator.evaluate import oracle_of, turns
from simulator.noise import Gate, StuckBeam
from simulator.pane_grid import PaneGrid
from simulator.true_world import TrueDrop, TrueWorld

SAMPLES = 48
"""How many possible drops the perfect eye simulates per drop, by default."""

ASKED_SHARES = (0.0, 0.01, 0.03, 0.05, 0.10, 0.20)
"""The asked shares the trade-off table prints."""

P_LEVELS = (0.995, 0.99, 0.95, 0.9)
"""The ``p_max`` thresholds whose shares are reported."""

WRONG_TARGET = 0.005
"""Issue 7's target share of wrong decisions."""

Key = tuple[object, ...]
"""A verdict key (:func:`~firmware_host.eye.verdict_key`)."""


class Level(StrEnum):
    """What the perfect eye knows of the spin: level A the drop's actual spin, level B
    only the hand's spin distribution."""

    SPIN_KNOWN = "A"
    SPIN_DRAWN = "B"


class Sensors(StrEnum):
    """The sensor sets weighed: the reference table's strips, or those plus a pane grid."""

    REFERENCE = "reference"
    PANE_GRID = "pane grid"


class ExactNoise:
    """The exact likelihood of noisy readings given the exact ones, under the noise model of
    :mod:`simulator.noise` with ``noise`` and the layer's ``stuck`` beams.

    Per bit, independently: a curtain or top-gate beam that is not stuck reads the exact
    value with probability ``1 - beam_flicker`` and the other with ``beam_flicker``; a stuck
    beam reads its stuck value whatever is there (factor 1 if it does, 0 if not: such
    readings cannot happen); an edge element pressed exactly reads pressed with ``1 -
    missed_contacts`` and unpressed with ``missed_contacts``; one not pressed always reads
    unpressed (factor 0 otherwise). A pane-grid beam flickers like the curtain's (none are
    stuck). Log-likelihoods; ``-inf`` for readings the exact ones cannot produce (with the
    clean profile: anything but equality). With a ``floor`` above 0, every reading has at
    least that probability per bit instead (an eye whose board may be wrong must not rule
    out a landing for one bit: :mod:`simulator.track_bound`).
    """

    def __init__(
        self, noise: SensorNoise, stuck: Sequence[StuckBeam] = (), floor: float = 0.0
    ) -> None:
        self.floor = floor
        self.flicker = max(noise.beam_flicker, floor)
        self.missed = max(noise.missed_contacts, floor)
        self._stuck = {
            gate: {s.beam: s.cut for s in stuck if s.gate is gate}
            for gate in (Gate.CURTAIN, Gate.TOP)
        }

    def strips(self, exact: StripSnapshot, read: StripSnapshot) -> float:
        """The log-likelihood of reading ``read`` when the strips are exactly ``exact``."""
        return (
            self.beams(exact.curtain, read.curtain, self._stuck[Gate.CURTAIN])
            + self.beams(exact.top_gate, read.top_gate, self._stuck[Gate.TOP])
            + self.contacts(exact.left, read.left)
            + self.contacts(exact.bottom, read.bottom)
            + self.contacts(exact.right, read.right)
        )

    def beams(self, exact: Bits, read: Bits, stuck: dict[int, bool] | None = None) -> float:
        """The log-likelihood of beams reading ``read`` when ``exact``; ``stuck`` maps a
        stuck beam to the value it always reads."""
        free = (1 << exact.length) - 1
        astray = 0
        for beam, cut in (stuck or {}).items():
            astray += read[beam] != cut
            free &= ~(1 << beam)
        flipped = ((exact.value ^ read.value) & free).bit_count()
        return _log_terms(
            (astray, self.floor),
            (flipped, self.flicker),
            (free.bit_count() - flipped, 1.0 - self.flicker),
        )

    def contacts(self, exact: Bits, read: Bits) -> float:
        """The log-likelihood of edge elements reading ``read`` when ``exact``."""
        extra = (read.value & ~exact.value).bit_count()
        missed = (exact.value & ~read.value).bit_count()
        return _log_terms(
            (extra, self.floor),
            (missed, self.missed),
            (exact.count() - missed, 1.0 - self.missed),
        )


def _log_terms(*terms: tuple[int, float]) -> float:
    """``sum(n * log(p))`` over ``terms``, with ``0 * log(0) = 0``."""
    total = 0.0
    for n, p in terms:
        if n:
            if p <= 0.0:
                return -math.inf
            total += n * math.log(p)
    return total


def flickered(exact: Bits, flicker: float, rng: random.Random) -> Bits:
    """``exact`` with each bit flipped with probability ``flicker`` (one draw per bit, in
    order, as the noise layer does the curtain)."""
    value = exact.value
    for i in range(exact.length):
        if rng.random() < flicker:
            value ^= 1 << i
    return Bits(exact.length, value)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one simulated drop came to: its verdict key and its exact readings."""

    key: Key
    strips: StripSnapshot
    grid: Bits


class Forward:
    """From a board and a release to the outcome: the model with ``params`` (the true
    physics), the judge and the forward models of ``table`` plus ``grid``."""

    def __init__(self, table: Table, params: PhysicsParams, grid: PaneGrid) -> None:
        self.table = table
        self.params = params
        self.strips = StripModel(table)
        self.grid = grid

    def pieces(
        self, before: Snapshot, drop: Drop, piece_id: str, params: PhysicsParams
    ) -> tuple[Piece, ...]:
        """Every piece's final pose after ``drop`` onto ``before`` with ``params``."""
        world = World(self.table.board, self.params, before)
        world.drop(drop, piece_id, params=params)
        return world.pieces

    def outcome(self, pieces: tuple[Piece, ...]) -> Outcome:
        """The verdict key and exact readings of ``pieces`` (the dropped one last)."""
        key = verdict_key(oracle_of(self.table, pieces).verdict)
        return Outcome(key, self.strips.snapshot(pieces), self.grid.snapshot(pieces))


@dataclass(frozen=True, slots=True)
class Posterior:
    """The perfect eye's belief about one drop's verdict: the MAP key, its probability,
    whether every sample of nonzero weight agrees (``certain``), whether any has nonzero
    weight (``consistent``), and the weights' effective sample size."""

    key: Key | None
    p_max: float
    certain: bool
    consistent: bool
    effective: float


def posterior(keys: Sequence[Key], log_weights: Sequence[float]) -> Posterior:
    """The posterior over verdict keys of samples ``keys`` weighed by ``log_weights``.

    >>> belief = posterior([(1,), (2,), (1,)], [0.0, math.log(0.5), -math.inf])
    >>> belief.key, round(belief.p_max, 3), belief.certain, round(belief.effective, 2)
    ((1,), 0.667, False, 1.8)
    """
    top = max(log_weights, default=-math.inf)
    if top == -math.inf:
        return Posterior(None, 0.0, False, False, 0.0)
    totals: dict[Key, float] = {}
    weights = [math.exp(w - top) for w in log_weights]
    for key, weight, log_weight in zip(keys, weights, log_weights, strict=True):
        if log_weight > -math.inf:
            totals[key] = totals.get(key, 0.0) + weight
    best = max(totals, key=lambda k: totals[k])
    total = sum(weights)
    effective = total * total / sum(w * w for w in weights)
    return Posterior(best, totals[best] / total, len(totals) == 1, True, effective)


@dataclass(frozen=True, slots=True)
class Decision:
    """One drop as the trade-off sees it: the MAP's probability and whether it is right."""

    p_max: float
    right: bool


@dataclass(frozen=True, slots=True)
class Tradeoff:
    """Asking on the ``asked`` share of drops with the lowest ``p_max`` and deciding the MAP
    on the rest: the expected share of wrong decisions (``sum(1 - p_max)`` over decided
    drops, over all drops) and the realised share (MAP different from the truth)."""

    asked: float
    expected_wrong: float
    realised_wrong: float


def tradeoff(decisions: Sequence[Decision], asked: float) -> Tradeoff:
    """The trade-off at ``asked`` (a share; ``round(asked * n)`` drops are asked about, the
    lowest ``p_max`` first, ties in the given order).

    >>> drops = [Decision(1.0, True), Decision(0.5, False), Decision(0.75, True)]
    >>> tradeoff(drops + [Decision(1.0, True)], 0.25)
    Tradeoff(asked=0.25, expected_wrong=0.0625, realised_wrong=0.0)
    """
    n = len(decisions)
    decided = _by_p(decisions)[round(asked * n) :]
    if not n:
        return Tradeoff(asked, 0.0, 0.0)
    return Tradeoff(
        asked,
        sum(1.0 - d.p_max for d in decided) / n,
        sum(not d.right for d in decided) / n,
    )


def least_asked(decisions: Sequence[Decision], target: float = WRONG_TARGET) -> tuple[float, float]:
    """The smallest asked shares (lowest ``p_max`` asked first) at which the expected and the
    realised wrong share are at most ``target``.

    >>> drops = [Decision(1.0, True), Decision(0.5, False), Decision(0.75, True)]
    >>> least_asked(drops + [Decision(1.0, True)], 0.05)
    (0.5, 0.25)
    """
    n = len(decisions)
    ordered = _by_p(decisions)
    expected = [0.0] * (n + 1)
    realised = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        expected[i] = expected[i + 1] + 1.0 - ordered[i].p_max
        realised[i] = realised[i + 1] + (not ordered[i].right)
    limit = target * n + 1e-9
    first_expected = next(k for k in range(n + 1) if expected[k] <= limit)
    first_realised = next(k for k in range(n + 1) if realised[k] <= limit)
    return (first_expected / n, first_realised / n) if n else (0.0, 0.0)


def _by_p(decisions: Sequence[Decision]) -> list[Decision]:
    return sorted(decisions, key=lambda d: d.p_max)


@dataclass(frozen=True)
class Figures:
    """The bound's figures for one column over a profile's drops (shares of all drops)."""

    drops: int
    certain: float
    at_least: dict[float, float]
    """For each of :data:`P_LEVELS`, the share of drops with ``p_max`` at least that."""
    right: float
    """The share of drops whose MAP verdict is the true one."""
    inconsistent: int
    """Drops no sample explains (weight 0 for all): asked first, counted wrong if decided."""
    effective: float
    """The mean effective sample size of the weights."""
    rows: tuple[Tradeoff, ...]
    least_expected: float
    least_realised: float

    @classmethod
    def of(cls, posteriors: Sequence[Posterior], truths: Sequence[Key]) -> Figures:
        """The figures of ``posteriors`` against the true keys ``truths``."""
        n = len(posteriors)
        decisions = [
            Decision(p.p_max, p.key == truth) for p, truth in zip(posteriors, truths, strict=True)
        ]
        least = least_asked(decisions)
        share = 1.0 / n if n else 0.0
        return cls(
            n,
            share * sum(p.certain for p in posteriors),
            {level: share * sum(p.p_max >= level for p in posteriors) for level in P_LEVELS},
            share * sum(d.right for d in decisions),
            sum(not p.consistent for p in posteriors),
            share * sum(p.effective for p in posteriors),
            tuple(tradeoff(decisions, q) for q in ASKED_SHARES),
            *least,
        )


@dataclass(frozen=True)
class Column:
    """One column of the bound: a level, a sensor set, a number of samples, its figures."""

    level: Level
    sensors: Sensors
    samples: int
    figures: Figures


@dataclass(frozen=True)
class ProfileBound:
    """The bound over one profile's drops: every column (both levels, both sensor sets, at
    ``samples`` and ``samples // 2``)."""

    profile: str
    drops: int
    seed: int
    samples: int
    columns: tuple[Column, ...]

    def column(self, level: Level, sensors: Sensors, samples: int | None = None) -> Column:
        """The column of ``level`` and ``sensors`` at ``samples`` (default: all of them)."""
        wanted = samples or self.samples
        return next(
            c
            for c in self.columns
            if c.level is level and c.sensors is sensors and c.samples == wanted
        )


@dataclass
class DropBound:
    """One drop: its true key and each sample's key and log-weights per level and sensors."""

    number: int
    truth: Key
    keys: dict[Level, list[Key]] = field(default_factory=dict)
    weights: dict[tuple[Level, Sensors], list[float]] = field(default_factory=dict)

    def posterior(self, level: Level, sensors: Sensors, samples: int) -> Posterior:
        """The posterior from the first ``samples`` samples."""
        return posterior(self.keys[level][:samples], self.weights[level, sensors][:samples])


def true_drops(world: TrueWorld, drops: int, seed: int) -> Iterator[tuple[int, Snapshot, TrueDrop]]:
    """The evaluation's drops in a fresh true ``world`` (as
    :func:`~simulator.evaluate.in_process_drops` plays them from the same seed), each with
    the true board before it: number, board before, the drop."""
    for number, color, shape, x, angle in turns(world.table, drops, seed):
        if (number - 1) % GAME_DROPS == 0 and number > 1:
            world.clear()
        before = world.world.snapshot()
        yield number, before, world.drop(color, shape, x, angle, f"p{number}")


def bound_drops(
    table: Table, profile: NoiseProfile, drops: int, seed: int, samples: int = SAMPLES
) -> Iterator[DropBound]:
    """Each drop's samples, weighed: see the module's docstring."""
    world = TrueWorld(table, profile, seed)
    grid = PaneGrid(table.board)
    forward = Forward(table, world.params, grid)
    noise = ExactNoise(profile.sensors, world.noise.stuck)
    grid_rng = random.Random(f"{seed}:bound:grid")
    for number, before, drop in true_drops(world, drops, seed):
        piece_id = f"p{number}"
        truth = verdict_key(oracle_of(table, drop.pieces).verdict)
        grid_read = flickered(grid.snapshot(drop.pieces), noise.flicker, grid_rng)
        found = DropBound(number, truth)
        rng = random.Random(f"{seed}:bound:{number}")
        draws = []
        for _ in range(samples):
            spread = profile.physics_spread
            params = world.params.spread(rng, spread.friction, spread.elasticity)
            draws.append((params, rng.gauss(0.0, profile.drop.spin)))
        for level in Level:
            found.keys[level] = []
            for sensors in Sensors:
                found.weights[level, sensors] = []
            for params, spin in draws:
                release = (
                    drop.actual if level is Level.SPIN_KNOWN else replace(drop.actual, spin=spin)
                )
                outcome = forward.outcome(forward.pieces(before, release, piece_id, params))
                strips = noise.strips(outcome.strips, drop.readings.strips)
                found.keys[level].append(outcome.key)
                found.weights[level, Sensors.REFERENCE].append(strips)
                found.weights[level, Sensors.PANE_GRID].append(
                    strips + noise.beams(outcome.grid, grid_read)
                )
        yield found


def measure(
    table: Table,
    profile: NoiseProfile,
    name: str,
    drops: int,
    seed: int,
    samples: int = SAMPLES,
) -> ProfileBound:
    """The bound for profile ``profile`` (called ``name``) over ``drops`` drops from ``seed``."""
    found = list(bound_drops(table, profile, drops, seed, samples))
    truths = [d.truth for d in found]
    columns = tuple(
        Column(
            level,
            sensors,
            k,
            Figures.of([d.posterior(level, sensors, k) for d in found], truths),
        )
        for level in Level
        for sensors in Sensors
        for k in (samples, samples // 2)
    )
    return ProfileBound(name, drops, seed, samples, columns)
