"""The dropped piece's verdict from located poses, and whether the referee is sure of it.

The verdict is :func:`~firmware_host.games.dropit.rules.landing.judge` on the located
poses. The referee is *sure* when no decision of that verdict (a touch within the
tolerance, an edge segment, a bonus circle, the level line, the top line) changes
anywhere within the poses' uncertainty: the dropped piece is moved :data:`SIGMAS`
standard deviations in eight directions (with the board's share, the markers', for what
it lies on; without it for what it touches, since the markers place every piece of a
look alike) and turned as far both ways, and each piece within reach of a touch is moved
as far (its own share) towards it and away, and every such verdict must equal the
located one; those that differ are the *alternatives* a question can tell apart. A
dropped piece whose outline was found only in part is moved at least :data:`UNCLEAR_MM`,
but never away from a seen piece of its own colour it lies against
(:data:`MERGED_MM`). A piece the camera did not see whose prior lies within
:data:`UNSEEN_REACH_MM` and that shares the dropped piece's colour or shape (a drop may
have knocked it against the dropped one: touching it or not changes the verdict), or a
piece the physics cannot hold where the camera sees it, makes the verdict unsure. An
unseen neighbour of another colour and shape makes it unsure too (the touches listed may
be wrong), but not its score (``CameraVerdict.scores_sure``). A dropped piece located on
the floor rests on it: its height is the floor's, known to :data:`FLOOR_SINK_MM`, and
it is tried at both ends of that band (:func:`on_floor`, :func:`seated`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from firmware_host.camera.locate import Located, own_share
from firmware_host.camera.reconcile import settles_on_floor
from firmware_host.config.board import Board, EdgeFace
from firmware_host.games.dropit.rules.geometry import PieceSpace, bounds, corners, piece_shape
from firmware_host.games.dropit.rules.landing import EdgeContact, Rule, Verdict, judge
from firmware_host.games.dropit.rules.pieces import Piece, Pose, Shape
from firmware_host.games.dropit.rules.position import Position
from firmware_host.model import PhysicsParams

SIGMAS = 2.0
"""How many standard deviations a decision must stand clear of to be sure. The fits'
reported deviations are honest to a little wide (the located pieces' errors over them
spread 0.77 on the virtual camera's realistic frames, about 1.0 on the second renderer's),
so the verdicts two to three of them from a decision are right but for the tails, which
a rule at three deviations does not hold either (a piece 1.7 mm off at 14 of them).
Measured at 2 against 3 (docs/camera.md, "The rule's number of deviations"): the eye
over 1000 realistic drops asked on 49 instead of 64 (seed 1; seed 2: 48 instead of 75),
the same verdicts wrong at either rule; the camera alone on 1000 realistic scenes 901
sure and right, 1 sure with a touch listed that is not (the score right), 85 unsure,
against 877 / 0 / 110."""


@dataclass(frozen=True)
class CameraVerdict:
    """The verdict at the located poses and whether it holds within their uncertainty;
    ``doubts`` says, in words, what made it unsure; ``pieces`` are the located board (the
    dropped piece last); ``alternatives`` the other verdicts found within the poses'
    uncertainty, each with the board it was judged on (what a question can tell apart)."""

    verdict: Verdict
    sure: bool
    doubts: tuple[str, ...]
    pieces: tuple[Piece, ...] = ()
    alternatives: tuple[tuple[Verdict, tuple[Piece, ...]], ...] = ()
    scores_sure: bool = False
    """Whether every doubt leaves the score as it is (an unseen neighbour that breaks no
    rule whether it touches or not): the referee decides, though ``sure`` (every touch
    listed, as ``tabletop camera look`` reports it) is false."""

    def to_json(self) -> dict[str, object]:
        """The keys of ``tabletop judge --json`` plus ``sure``."""
        return {**self.verdict.to_json(), "sure": self.sure}


SURE_FOUND = 0.7
SURE_RMS_MM = 0.3
"""A verdict is sure only when the dropped piece's fit found at least :data:`SURE_FOUND`
of its outline with residuals of at most this (RMS, mm): a fit on part of an outline
can be off by more than its standard deviations say."""
UNCLEAR_MM = 2.1
UNCLEAR_DEGREES = 9.0
"""A dropped piece whose fit found less than :data:`SURE_FOUND` of its outline, or with
residuals over :data:`SURE_RMS_MM`, is moved at least this far either way (mm, degrees),
whatever the number of deviations the rule asks for: a fit on part of an outline can be
off by more than its own deviations say, by no law of theirs."""
MERGED_MM = 0.3
"""A dropped piece whose outline was found only in part (tightly) and that lies this close
to a seen piece of its own colour touches it: where the two faces run into one another no
outline shows (that is why part of it was not found), and a trial that parts them is
ruled out by what the camera saw."""
FLOOR_SINK_MM = 0.1
"""How deep into the floor a piece resting on it may lie: a physics model lets resting
shapes overlap by its collision slop (the reference physics' is 0.1 mm, and so is the
simulator's); a real board's pieces lie on it. A dropped piece located this close to
the floor, within its height's uncertainty, rests on it: its height is the floor's,
known to that band, where the fit knows it to about 0.2 mm (a square or a circle on the
floor with its top at the first level line is otherwise a question)."""
FLOOR_FALL_MM = 0.5
"""A dropped piece located up to this far above the floor, its height known to this at
least, rests on the floor when the model, every other piece held where the camera saw
it, brings it to rest there: a clean game's square was located 0.38 mm above the floor,
0.43 mm high (its height's deviation 0.09 mm), with nothing under it, and its top put
above the first level line where it lay below."""
UNSEEN_REACH_MM = 70.0
"""A piece the camera did not see, whose prior lies this close to the dropped piece's
centre, may have been knocked against it: when it shares the dropped piece's colour or
shape, whether the two touch is in doubt (both verdicts are alternatives)."""


def _decisions(verdict: Verdict) -> dict[str, object]:
    """What a verdict decided, comparable between poses."""
    return {
        "broken": verdict.broken,
        "level": verdict.level,
        "bonus": tuple(verdict.bonus_circles),
        "touching": sorted(p.id for p in verdict.touching),
        "edges": verdict.edges,
    }


def referee_located(
    board: Board,
    edges: EdgeFace,
    located: Sequence[Located],
    dropped_id: str,
    disagreements: Sequence[str] = (),
    sigmas: float = SIGMAS,
    physics: PhysicsParams | None = None,
) -> CameraVerdict | None:
    """The dropped piece's verdict (None when the camera did not see the dropped piece).

    ``disagreements``: pieces the physics could not hold where the camera saw them
    (:mod:`~firmware_host.camera.reconcile`); one of them at the dropped piece makes the
    verdict unsure. ``sigmas``: how many standard deviations a decision must stand clear
    of (:data:`SIGMAS`; the camera's bound measures others). With the host's ``physics``,
    whether the dropped piece rests on the floor is the model's to say (:func:`on_floor`)."""
    dropped = next(p for p in located if p.known.id == dropped_id)
    if not dropped.seen or dropped.pose is None:
        return None
    at = dropped.pose
    others = [p for p in located if p.known.id != dropped_id and p.pose is not None]

    def board_with(
        pose: Pose, moved: Located | None = None, moved_to: Pose | None = None
    ) -> tuple[Piece, ...]:
        """The board with the dropped piece at ``pose`` (and ``moved`` at ``moved_to``)."""
        pieces = tuple(p.piece(moved_to if p is moved else None) for p in others)
        return (*pieces, dropped.piece(pose))

    def verdict_of(pieces: tuple[Piece, ...]) -> Verdict:
        return judge(board, Position(edges, pieces[:-1], pieces[-1]))

    shape = dropped.known.shape
    sx, sy, sa = dropped.sigma
    merged: set[str] = set()
    floored = False
    if dropped.found < SURE_FOUND or dropped.rms_mm > SURE_RMS_MM:
        # a fit on part of an outline can be off by more than its deviations say
        sx, sy = max(sx, UNCLEAR_MM / sigmas), max(sy, UNCLEAR_MM / sigmas)
        sa = max(sa, UNCLEAR_DEGREES / sigmas) if math.isfinite(sa) else sa
        if dropped.rms_mm <= SURE_RMS_MM:
            merged = _merged(board, dropped, others)
    elif dropped_id not in disagreements and on_floor(
        board, shape, at, sigmas * sy,
        None if physics is None
        else lambda: settles_on_floor(board, physics, [*others, dropped], dropped_id),
    ):
        # resting on the floor: its height is the floor's, not the fit's
        at, floored = seated(board, shape, at), True
    located_board = board_with(at)
    located_verdict = verdict_of(located_board)
    reference = _decisions(located_verdict)
    doubts: list[str] = []
    near = _near(board, dropped, others, board.touch_tolerance + sigmas * max(sx, sy) + 1.0)
    alternatives: list[tuple[Verdict, tuple[Piece, ...]]] = []
    touch_only: list[str] = []
    for p in others:
        if p.seen or p.pose is None:
            continue
        if math.hypot(p.pose.x - at.x, p.pose.y - at.y) >= UNSEEN_REACH_MM:
            continue
        if p.known.color != dropped.known.color and p.known.shape != dropped.known.shape:
            # touching it or not breaks no rule: the score stands, the touches do not
            touch_only.append(
                f"the camera did not see {p.known.id} next to the dropped piece (whether "
                "it touches changes no rule)"
            )
            continue
        doubts.append(f"the camera did not see {p.known.id} next to the dropped piece")
        unseen = p.piece()
        touched = any(t.id == unseen.id for t in located_verdict.touching)
        flip = _untouched if touched else _touched
        alternatives.append((flip(located_verdict, unseen), located_board))
    held = [i for i in (dropped_id, *(p.known.id for p in near)) if i in disagreements]
    if held:
        doubts.append(f"the physics cannot hold {', '.join(held)} where the camera sees it")
    # the dropped piece moved by its whole uncertainty (the board's share included) can
    # change what it lies on; moved by its own share only, what it touches
    rx, ry = own_share(sx, dropped.spread), own_share(sy, dropped.spread)
    turns = [at.angle + sigmas * sa * s for s in (-1, 1)] if math.isfinite(sa) and sa > 0 else []
    trials: list[tuple[Pose, Located | None, Pose | None, bool]]
    if floored:
        trials = _floor_trials(board, shape, at, sigmas * sx, sigmas * rx, turns)
    else:
        trials = [
            (Pose(at.x + sigmas * ax * math.cos(k * math.pi / 4),
                  at.y + sigmas * ay * math.sin(k * math.pi / 4), at.angle), None, None,
             board_only)
            for ax, ay, board_only in ((sx, sy, True), (rx, ry, False))
            for k in range(8)
        ]
        trials += [(Pose(at.x, at.y, angle), None, None, False) for angle in turns]
    for other in near:
        if not other.seen or other.pose is None:
            continue
        ox, oy, _ = other.sigma
        ox, oy = own_share(ox, other.spread), own_share(oy, other.spread)
        away = math.atan2(other.pose.y - at.y, other.pose.x - at.x)
        for sign in (-1, 1):
            moved = Pose(
                other.pose.x + sign * sigmas * ox * math.cos(away),
                other.pose.y + sign * sigmas * oy * math.sin(away),
                other.pose.angle,
            )
            trials.append((at, other, moved, False))
    changed_keys: set[str] = set()
    for pose, other_piece, other_to, board_only in trials:
        trial_board = board_with(pose, other_piece, other_to)
        trial = verdict_of(trial_board)
        if not merged <= {p.id for p in trial.touching}:
            continue  # parts the dropped piece from a face its own runs into
        changed = _decisions(trial)
        if board_only:  # the whole board moved: what touches what stays as located
            trial = _with_touching(trial, located_verdict)
            changed = _decisions(trial)
        if changed != reference:
            changed_keys.update(k for k in reference if reference[k] != changed[k])
            alternatives.append((trial, trial_board))
    if changed_keys:
        keys = [k for k in reference if k in changed_keys]
        doubts.append(f"{', '.join(keys)} change within the located poses' uncertainty")
    return CameraVerdict(
        located_verdict,
        not doubts and not touch_only,
        (*doubts, *touch_only),
        located_board,
        tuple(alternatives),
        scores_sure=not doubts,
    )


def on_floor(
    board: Board, shape: Shape, pose: Pose, reach: float,
    settles: Callable[[], bool] | None = None,
) -> bool:
    """Whether a piece of ``shape`` located at ``pose``, its height known to ``reach`` mm,
    rests on the floor. Without ``settles``: its lowest point lies within ``reach`` of the
    band :data:`FLOOR_SINK_MM` deep where a piece resting on the floor lies. With it (the
    model's answer, whether it brings the piece to rest on the floor): its height known
    to :data:`FLOOR_FALL_MM`, it lies at most that far above the band, or within
    ``reach``, and the model brings it to rest on the floor (nothing else holds it up).

    >>> from firmware_host.config.board import load_board
    >>> on_floor(load_board(), Shape.SQUARE, Pose(60.0, 17.1, 0.0), 0.2)
    True
    >>> on_floor(load_board(), Shape.SQUARE, Pose(60.0, 17.4, 0.0), 0.2)
    False
    >>> on_floor(load_board(), Shape.SQUARE, Pose(60.0, 17.4, 0.0), 0.2, lambda: True)
    True
    """
    bottom = bounds(board, shape, pose).bottom
    if bottom < -FLOOR_SINK_MM - reach:
        return False
    if settles is None:
        return bottom <= reach
    return reach <= FLOOR_FALL_MM and bottom <= max(reach, FLOOR_FALL_MM) and settles()


def seated(board: Board, shape: Shape, pose: Pose, depth: float = FLOOR_SINK_MM / 2) -> Pose:
    """``pose`` moved up or down to rest on the floor, the piece's lowest point ``depth``
    mm into it (by default the middle of the band :data:`FLOOR_SINK_MM` deep).

    >>> from firmware_host.config.board import load_board
    >>> seated(load_board(), Shape.SQUARE, Pose(60.0, 17.2, 0.0))
    Pose(x=60.0, y=16.95, angle=0.0)
    """
    bottom = bounds(board, shape, pose).bottom
    return Pose(pose.x, pose.y - bottom - depth, pose.angle)


def levelled(board: Board, shape: Shape, pose: Pose) -> Pose:
    """``pose`` turned about its centre so that, of the two sides meeting at the piece's
    lowest corner, the one nearer to flat lies flat (a circle's as it is).

    >>> from firmware_host.config.board import load_board
    >>> levelled(load_board(), Shape.SQUARE, Pose(60.0, 17.0, 90.3)).angle
    90.0
    """
    placed = corners(board, shape, pose)
    if not placed:
        return pose
    low = min(range(len(placed)), key=lambda i: placed[i][1])
    sides = ((placed[low - 1], placed[low]), (placed[low], placed[(low + 1) % len(placed)]))
    tilts = [math.degrees(math.atan2(by - ay, bx - ax)) for (ax, ay), (bx, by) in sides]
    tilt = min(((t + 90.0) % 180.0 - 90.0 for t in tilts), key=abs)
    return Pose(pose.x, pose.y, round(pose.angle - tilt, 9))


def _floor_trials(
    board: Board, shape: Shape, at: Pose, reach: float, own_reach: float, turns: list[float]
) -> list[tuple[Pose, Located | None, Pose | None, bool]]:
    """The trials of a dropped piece resting on the floor at ``at``: in place and moved
    ``reach`` mm (its whole deviations, for what it lies on) and ``own_reach`` (its own
    share, for what it touches) either way along the floor; each as located and turned to
    each of ``turns`` and to lie flat when that is within them; each at both ends of the
    band it may lie in the floor."""
    angles = list(turns)
    if turns:
        flat = levelled(board, shape, at).angle
        if min(turns) <= flat <= max(turns):
            angles.append(flat)
    shifts = [(0.0, False), (-own_reach, False), (own_reach, False), (-reach, True),
              (reach, True)]
    return [
        (seated(board, shape, Pose(at.x + dx, at.y, angle), depth), None, None, board_only)
        for dx, board_only in shifts
        for angle in (at.angle, *angles)
        for depth in (0.0, FLOOR_SINK_MM)
    ]


def _near(board: Board, dropped: Located, others: Sequence[Located], reach: float) -> list[Located]:
    """The pieces whose outlines come within ``reach`` mm of the dropped piece's (an unseen
    piece at its prior)."""
    assert dropped.pose is not None
    grown = piece_shape(board, dropped.known.shape, dropped.pose, grow=reach)
    met = {p.id for p in PieceSpace(board, [p.piece() for p in others]).met_by(grown)}
    return [p for p in others if p.known.id in met]


def _merged(board: Board, dropped: Located, others: Sequence[Located]) -> set[str]:
    """The seen pieces of the dropped piece's colour within :data:`MERGED_MM` of it."""
    assert dropped.pose is not None
    grown = piece_shape(board, dropped.known.shape, dropped.pose, grow=MERGED_MM)
    same = [p.piece() for p in others if p.seen and p.known.color == dropped.known.color]
    return {p.id for p in PieceSpace(board, same).met_by(grown)}


def _touched(verdict: Verdict, piece: Piece) -> Verdict:
    """``verdict`` had the dropped piece also touched ``piece``."""
    offenders = dict(verdict.offenders)
    dropped = verdict.dropped
    for rule, same in ((Rule.SHAPE, piece.shape == dropped.shape),
                       (Rule.COLOR, piece.color == dropped.color)):
        if same:
            offenders[rule] = (*offenders.get(rule, ()), piece)
    return replace(verdict, touching=(*verdict.touching, piece), offenders=offenders)


def _untouched(verdict: Verdict, piece: Piece) -> Verdict:
    """``verdict`` had the dropped piece not touched ``piece``."""
    offenders = {
        rule: kept
        for rule, culprits in verdict.offenders.items()
        if (kept := tuple(c for c in culprits if c != piece)) or rule is Rule.HEIGHT
    }
    touching = tuple(t for t in verdict.touching if t.id != piece.id)
    return replace(verdict, touching=touching, offenders=offenders)


def _with_touching(verdict: Verdict, located: Verdict) -> Verdict:
    """``verdict`` with the touching (and the rules it breaks) of ``located``: for a
    trial that moves the whole board, which leaves every gap as it was."""
    kept: dict[Rule, tuple[Piece | EdgeContact, ...]] = {
        rule: culprits
        for rule, culprits in verdict.offenders.items()
        if rule not in (Rule.SHAPE, Rule.COLOR)
    }
    kept.update(
        {r: c for r, c in located.offenders.items() if r in (Rule.SHAPE, Rule.COLOR)}
    )
    ordered = {rule: kept[rule] for rule in Rule if rule in kept}
    return replace(verdict, touching=located.touching, offenders=ordered)
