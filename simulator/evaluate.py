"""Measure the referee's eye against the simulator's true world (``tabletop sim eval``).

A readings source plays games (36 shapes each, in the supply's four-player order, a new
board every 36; each intended x and angle drawn from the seed, :func:`turns`) and yields
what the host gets for each drop: the identity from the piece tag and the readings, plus
an :class:`Oracle` that answers questions truthfully from the true final poses, as an
honest player would. ``tabletop sim eval`` uses :func:`simulator.wire_drops.wire_drops`
(sensor frames over the virtual hub's wire); :func:`in_process_drops` takes the readings
straight from the true world (the eye's benchmark and tests). :func:`evaluate` hands
these to the eye one by one, the host's model adopting the eye's chosen state after
each drop (so errors compound over a game exactly as at the table), and compares each
decided verdict with ``judge`` on the true final poses, by
:func:`~firmware_host.eye.verdict_key` (valid, broken rules, level, bonus, points).

Counts: ``agree`` (decided, equal to truth, with or without questions), ``wrong``
(decided, different), ``asked`` (at least one question put to the players), ``staff``
(the eye called staff: disagreement, a second piece or a jam; staff then re-sync the
model to the board). Verdict latency is the eye's work from the settle signal to its first
outcome (a decision or a question), in ms of the calling thread's CPU time
(``time.thread_time``): the time the eye takes on one core, unaffected by whatever else
shares the machine or the process (the virtual hub's and the link's threads).

The eye begins a look when the piece has gone through the entry gate (:meth:`Eye.begin`,
the release fit and the first candidate drops) and finishes it on the settle signal
(:meth:`Look.settle`). The verdict latency is the settle part's CPU time plus whatever
of the early part's did not fit in the simulated time between the entry call and the
settle signal (``EvalDrop.lead_s``; none is given in-process, where the two run back to
back, so there the latency is the whole look's). The early part's own CPU time is
reported too (``early_ms``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from firmware_host.config.board import BonusCircle, EdgeFace
from firmware_host.config.noise import NoiseProfile
from firmware_host.config.table import Table
from firmware_host.eye import Asking, Decided, Eye, EyeConfig, Look, Question, verdict_key
from firmware_host.eye.camera_look import CameraLook
from firmware_host.eye.questions import features
from firmware_host.games.dropit.rules.landing import Verdict, judge
from firmware_host.games.dropit.rules.pieces import Color, Piece, Shape
from firmware_host.games.dropit.rules.position import Position
from firmware_host.model import PhysicsParams, World
from firmware_host.model.space import reach
from firmware_host.model.supply import GAME_DROPS, supply_piece
from firmware_host.sensors.drop import DropEntry, DropReadings
from firmware_host.sensors.piece_reader import piece_of_tag
from simulator.true_world import TrueWorld

if TYPE_CHECKING:
    from simulator.eval_camera import EvalCamera


@dataclass(frozen=True)
class Oracle:
    """The truth about one drop, for answering questions and scoring: never seen by the eye."""

    pieces: tuple[Piece, ...]
    verdict: Verdict
    circles: tuple[BonusCircle, ...] = ()

    def answer(self, question: Question) -> bool:
        """The honest answer to ``question`` (``circles``: the board's bonus circles)."""
        return features(self.verdict, self.pieces[:-1], self.circles)[question.id]


@dataclass(frozen=True)
class EvalDrop:
    """One drop as the host gets it (identity, readings) and its truth (``oracle``).

    ``entered`` is the entry as the host had it when the piece had gone through the gate
    (None: not before the settle signal), ``lead_s`` the simulated seconds from then to
    the settle signal: the time the eye's early work has.
    """

    number: int
    new_game: bool
    identity: tuple[Color, Shape] | None
    readings: DropReadings
    oracle: Oracle
    entered: DropEntry | None = None
    lead_s: float = 0.0


def turns(table: Table, drops: int, seed: int) -> Iterator[tuple[int, Color, Shape, float, float]]:
    """Each drop's number, piece and intended x (mm) and angle (degrees), from ``seed``."""
    rng = random.Random(f"{seed}:players")
    for number in range(1, drops + 1):
        color, shape = supply_piece((number - 1) % GAME_DROPS)
        angle = rng.uniform(0.0, 360.0)
        left, _, right, _ = reach(table.board, shape, math.radians(angle))
        yield number, color, shape, rng.uniform(-left, table.board.width - right), angle


def oracle_of(table: Table, pieces: tuple[Piece, ...]) -> Oracle:
    """The truth about a drop whose true final poses are ``pieces`` (the dropped one last)."""
    *others, dropped = pieces
    verdict = judge(table.board, Position(EdgeFace.COLOR, tuple(others), dropped))
    return Oracle(pieces, verdict, tuple(table.board.bonus_circles))


def identity_of(readings: DropReadings) -> tuple[Color, Shape] | None:
    """The piece the tag names (None without a tag)."""
    return None if readings.tag is None else piece_of_tag(readings.tag)


def in_process_drops(
    table: Table, profile: NoiseProfile, drops: int, seed: int
) -> Iterator[EvalDrop]:
    """Play ``drops`` drops in the true world and take their readings in-process (no
    wire, no collector), reproducibly from ``seed``: for the eye's benchmark and tests."""
    world = TrueWorld(table, profile, seed)
    for number, color, shape, x, angle in turns(table, drops, seed):
        new_game = (number - 1) % GAME_DROPS == 0
        if new_game and number > 1:
            world.clear()
        drop = world.drop(color, shape, x, angle, f"p{number}")
        oracle = oracle_of(table, drop.pieces)
        yield EvalDrop(number, new_game, identity_of(drop.readings), drop.readings, oracle)


DRIFT_BANDS: tuple[tuple[float, float], ...] = (
    (0.0, 1.0),
    (1.0, 3.0),
    (3.0, 10.0),
    (10.0, 30.0),
    (30.0, math.inf),
)
"""The bands (mm) of model drift the figures are split by (:meth:`Tally.drift_line`)."""


@dataclass
class Tally:
    """The counts and latencies of an evaluation."""

    drops: int = 0
    agree: int = 0
    asked: int = 0
    wrong: int = 0
    staff: int = 0
    latencies_ms: list[float] = field(default_factory=list)
    """Each drop's verdict latency: the settle part, plus the early part's overrun."""
    early_ms: list[float] = field(default_factory=list)
    """Each drop's early part (:meth:`Eye.begin`), CPU ms."""
    lead_ms: list[float] = field(default_factory=list)
    """Each drop's simulated ms between the entry call and the settle signal."""
    drift_mm: list[float] = field(default_factory=list)
    """Each drop's model drift (mm) before it (see :attr:`drifts`)."""
    camera_looks: int = 0
    """Drops the camera was asked about (not settled by a jam, a second piece, ...)."""
    camera_out: int = 0
    """... on which it gave no frames or did not find the board."""
    camera_unseen: int = 0
    """... on which it did not see the dropped piece."""
    camera_judged: int = 0
    """... on which the camera's verdict decided or asked (the rest: the strips')."""
    pose_errors_mm: list[float] = field(default_factory=list)
    """The dropped piece's located outline's distance from its true one (mm), per look
    that saw it."""
    overrun: int = 0
    """Drops whose early part took longer than their lead (the rest counted as latency)."""
    redone: int = 0
    """Drops whose entry changed after the early part (the look redone on settle)."""
    decisions: list[tuple[float, int, bool]] = field(default_factory=list)
    """Each decided drop's (confidence, questions asked, right): how well the eye's
    confidence is calibrated."""
    drifts: list[tuple[float, str]] = field(default_factory=list)
    """Each drop's model drift and outcome: how far (mm) the farthest piece of the host's
    model lay from its true pose before the drop (the evaluator's side: the eye never sees
    it), and ``"right"``, ``"wrong"`` or ``"staff"``."""

    def by_drift(self, low: float, high: float) -> dict[str, int]:
        """The outcomes of the drops whose model drift was in [``low``, ``high``) mm."""
        found = {"right": 0, "wrong": 0, "staff": 0}
        for drift, kind in self.drifts:
            if low <= drift < high:
                found[kind] += 1
        return found

    def right_share(self, questions: int) -> tuple[int, float]:
        """How many drops were decided after ``questions`` questions, and the share right."""
        found = [right for _, asked, right in self.decisions if asked == questions]
        return len(found), (sum(found) / len(found) if found else 0.0)

    def drift_line(self) -> str:
        """Right / wrong / staff per band of :data:`DRIFT_BANDS`, in words."""
        cells = []
        for low, high in DRIFT_BANDS:
            found = self.by_drift(low, high)
            band = f"{low:g}+ mm" if math.isinf(high) else f"{low:g}-{high:g} mm"
            cells.append(f"{band} {found['right']}/{found['wrong']}/{found['staff']}")
        return "right/wrong/staff by the model's drift before the drop: " + ", ".join(cells)

    def percentile(self, q: float, values: list[float] | None = None) -> float:
        """The ``q`` quantile (0..1) of ``values`` (the latencies), nearest rank (0 with
        none)."""
        values = self.latencies_ms if values is None else values
        if not values:
            return 0.0
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]

    def to_json(self) -> dict[str, Any]:
        """The DESIGN §5 figures, plus ``staff`` and the early part's: its CPU time
        (``early_ms_p50``, ``early_ms_p95``), the simulated lead it had
        (``lead_ms_p5``: 95 % of drops had more), and the drops it overran or that
        were redone (``early_overrun``, ``early_redone``); the model's drift before the
        drops (``drift_mm_p95``, ``drift_mm_max``); and the camera's (``camera_looks``,
        ``camera_out``, ``camera_unseen``, ``camera_judged``, and the dropped piece's
        located pose error, ``pose_error_mm_p50`` and ``_p95``; all 0 without a camera)."""
        return {
            "drops": self.drops,
            "agree": self.agree,
            "asked": self.asked,
            "wrong": self.wrong,
            "staff": self.staff,
            "verdict_ms_p50": round(self.percentile(0.5), 1),
            "verdict_ms_p95": round(self.percentile(0.95), 1),
            "early_ms_p50": round(self.percentile(0.5, self.early_ms), 1),
            "early_ms_p95": round(self.percentile(0.95, self.early_ms), 1),
            "lead_ms_p5": round(self.percentile(0.05, self.lead_ms), 1),
            "early_overrun": self.overrun,
            "early_redone": self.redone,
            "drift_mm_p95": round(self.percentile(0.95, self.drift_mm), 2),
            "drift_mm_max": round(max(self.drift_mm, default=0.0), 2),
            "camera_looks": self.camera_looks,
            "camera_out": self.camera_out,
            "camera_unseen": self.camera_unseen,
            "camera_judged": self.camera_judged,
            "pose_error_mm_p50": round(self.percentile(0.5, self.pose_errors_mm), 3),
            "pose_error_mm_p95": round(self.percentile(0.95, self.pose_errors_mm), 3),
        }


def evaluate(
    table: Table,
    params: PhysicsParams,
    config: EyeConfig,
    source: Iterable[EvalDrop],
    seed: int = 0,
    camera: EvalCamera | None = None,
) -> Tally:
    """Referee every drop of ``source`` with the eye (and ``camera``, when given) and
    compare with the truth."""
    eye = Eye(table, params, config, EdgeFace.COLOR, seed)
    model = World(table.board, params)
    tally = Tally()
    truth: tuple[Piece, ...] = ()
    for drop in source:
        if drop.new_game:
            model = World(table.board, params)
            truth = ()
        drift = model_drift(model, truth)
        tally.drift_mm.append(drift)
        entered = drop.entered or drop.readings.entered
        piece_id = f"p{drop.number}"
        started = time.thread_time()
        look: Look | CameraLook = eye.begin(model.snapshot(), drop.identity, entered, piece_id)
        early = time.thread_time() - started
        if camera is not None:
            assert isinstance(look, Look)
            look = CameraLook(look, camera.looker(model.pieces, piece_id, drop.oracle.pieces))
        started = time.thread_time()
        outcome = look.settle(drop.readings)
        late = time.thread_time() - started
        if camera is not None and isinstance(look, CameraLook):
            camera.count(tally, look, drop.oracle.pieces)
        overrun = max(0.0, early - drop.lead_s)
        tally.latencies_ms.append((late + overrun) * 1000)
        tally.early_ms.append(early * 1000)
        tally.lead_ms.append(drop.lead_s * 1000)
        if drop.lead_s > 0 and overrun > 0:
            tally.overrun += 1
        tally.redone += look.redone
        tally.drops += 1
        if isinstance(outcome, Asking):
            tally.asked += 1
        while isinstance(outcome, Asking) and isinstance(outcome.question, Question):
            outcome = look.answer(drop.oracle.answer(outcome.question))
        if isinstance(outcome, Decided):
            same = verdict_key(outcome.verdict) == verdict_key(drop.oracle.verdict)
            tally.agree += same
            tally.wrong += not same
            tally.decisions.append((outcome.confidence, outcome.questions, same))
            tally.drifts.append((drift, "right" if same else "wrong"))
            model.restore(outcome.snapshot)
        else:
            tally.staff += 1
            tally.drifts.append((drift, "staff"))
            model = World.at_rest(table.board, params, drop.oracle.pieces)
        truth = drop.oracle.pieces
    return tally


def model_drift(model: World, truth: tuple[Piece, ...]) -> float:
    """How far (mm) the farthest piece of ``model`` lies from its pose in ``truth`` (the
    true board, the same piece ids); 0 for an empty board."""
    true_poses = {piece.id: piece.pose for piece in truth}
    return max(
        (
            math.hypot(piece.pose.x - true_poses[piece.id].x, piece.pose.y - true_poses[piece.id].y)
            for piece in model.pieces
            if piece.id in true_poses
        ),
        default=0.0,
    )
