"""The eye's judgement of one drop with the camera: the camera says where the pieces are,
the strips and gates say when the drop happened and check what the camera saw.

A :class:`CameraLook` wraps the sensor :class:`~firmware_host.eye.eye.Look` of the drop:

1. the sensor look's checks come first (a jam, a second piece, which piece?, no pass);
2. the camera locates every piece (the model's poses before the drop are the priors; the
   dropped piece is told from its twins by where its release says it went,
   :func:`~firmware_host.camera.twins.tell_twins`);
   the dropped piece's verdict at the located poses is
   :func:`~firmware_host.camera.verdict.referee_located`; a camera that gives no frames,
   does not find the board or does not see the dropped piece leaves the drop to the
   sensor look alone (:attr:`CameraLook.fault` says why);
3. the located board must explain the strips and gates (at most the likelihood's
   ``max_mismatch`` bits unexplained, not counting the bits that the pieces moved by
   :data:`EXPLAIN_MARGIN_MM` would read otherwise): a board the camera sees where the
   sensors do not allow it is a doubt, never a silent choice; its dropped piece must lie
   within :data:`RELEASE_REACH_MM` of a landing simulated from the release, or else the
   sensor look must not decide on another verdict;
4. *sure* (no decision within the poses' uncertainty, sensors agreeing): decided;
5. a decision within the poses' uncertainty (the sensors agreeing, the physics holding
   the dropped piece where the camera sees it): the question that
   best splits the verdicts found there
   (:func:`~firmware_host.eye.questions.best_question`) is asked, and the answers keep
   the verdicts that agree with them;
6. unsure for another reason (a part of the outline unclear, an unseen neighbour, a
   board the physics cannot hold, the sensors disagreeing): the sensor look judges too;
   the same verdict is decided, another one makes a question that tells the two apart
   (or, with none, a staff call), and a question of the sensor look is asked as it is;
   where no landing of the sensor look explains the readings either, the readings are at
   fault: a verdict the camera is sure of (but for the strips) is decided, and a decision
   within its poses' uncertainty (the physics holding the dropped piece) is its question.

A decision's board is the camera's (an unseen piece at the model's pose, a dropped piece
the camera missed at the sensor look's pose): the model is re-anchored to what the camera
saw after every drop, so drift cannot build up.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from firmware_host.camera.locate import Known
from firmware_host.camera.markers import BoardNotFound
from firmware_host.camera.sight import Seen
from firmware_host.camera.sources import BadFrame, CameraUnavailable
from firmware_host.camera.twins import tell_twins
from firmware_host.camera.verdict import CameraVerdict, referee_located
from firmware_host.eye.eye import Look, verdict_key
from firmware_host.eye.outcomes import Asking, Decided, Disagree, Outcome
from firmware_host.eye.questions import Question, best_question, question_text
from firmware_host.games.dropit.rules.geometry import rolls
from firmware_host.games.dropit.rules.landing import Verdict
from firmware_host.games.dropit.rules.pieces import Color, Piece, Pose, Shape
from firmware_host.i18n import Text, lazy, said
from firmware_host.model.world import Snapshot, World
from firmware_host.sensors.drop import DropReadings

CAMERA_FAULTS: tuple[type[Exception], ...] = (CameraUnavailable, BoardNotFound, BadFrame)
"""What a look at the camera may raise: the drop is then judged without it."""

ALTERNATIVE_WEIGHT = 0.5
"""The weight of every verdict found within the poses' uncertainty, against 1 for the
verdict at the located poses, when choosing the question to ask."""

Camera = Callable[[tuple[Color, Shape], Mapping[str, Pose], Mapping[str, Sequence[Pose]]], Seen]
"""Takes the camera's look at the settled board, the dropped piece being of the given
identity; the priors (by piece id) the release's landings give
(:func:`expected_priors`) stand in for the model's poses, and each piece's places in
every landing (:func:`expected_starts`) are where it is looked for next (:attr:`Known.starts
<firmware_host.camera.locate.Known.starts>`). Raises one of :data:`CAMERA_FAULTS` when
the camera cannot."""

ANCHOR_MM = 10.0
"""A decision of the strips takes the camera's pose of the dropped piece only within this
of its own (a camera that saw the piece elsewhere saw something else)."""
RELEASE_REACH_MM = 40.0
"""The camera's dropped piece must lie this close to a landing simulated from its release
for the camera to decide alone (else the strips judge first, and the camera's board
stands unless they decide on another verdict: realistic drops 716 and 906 of seed 1, a
triangle and a square located within 0.12 mm of where they lay, their boards explaining
the strips, 57-58 mm from every landing, were staff calls, the strips finding no landing
that explains the readings; in every such drop measured, 8 over realistic and harsh
runs, the camera had the verdict right, and the strips, asking, once decided wrong and
once called staff); a circle
anywhere: it may roll farther than the model's landings have it (realistic drop 40 of
seed 1: a green circle located 0.1 mm from where it lay, sure, its board explaining the
strips, 58 mm from every landing; the strips judged too, and asked four questions)."""

EXPLAIN_MARGIN_MM = 0.3
"""A strip's bit that a located piece would read otherwise were it this much farther or
less far (three of the located poses' usual deviations) is not held against the located
board: a square located 0.46 mm from a wall whose strip presses at 0.5 mm, lying 0.62 mm
from it, left the eye a bit short of explaining a drop the camera saw rightly, and staff
were called."""

SPOTS_SPREAD_MM = 15.0
"""The landings simulated from the release give the priors when their dropped pieces lie
within this of their median (RMS): the landing nearest the median."""
LOOSE_SPREAD_MM = 60.0
"""... and the dropped piece's prior alone when they lie within this: the locator fits it
there and searches near it before it searches the whole board."""


class CameraLook:
    """The judgement of the drop of ``look`` (a sensor look begun for it) with ``camera``.

    ``outcome`` is where it stands; ``judged_by`` says what decided or asked (``"camera"``
    or ``"strips"``), ``fault`` why the camera could not help (None when it did),
    ``seen`` what it saw and ``camera_verdict`` its verdict.
    """

    def __init__(self, look: Look, camera: Camera) -> None:
        self.look = look
        self.camera = camera
        self.outcome: Outcome | None = None
        self.judged_by = "strips"
        self.fault: Text | None = None
        self.seen: Seen | None = None
        self.camera_verdict: CameraVerdict | None = None
        self._boards: list[tuple[Verdict, tuple[Piece, ...]]] = []
        self._weights: list[float] = []
        self._asked: dict[str, bool] = {}
        self._open: str | None = None
        self._spots: tuple[Pose, ...] = ()

    @property
    def piece_id(self) -> str:
        """The dropped piece's id."""
        return self.look.piece_id

    @property
    def redone(self) -> bool:
        """Whether the sensor look was redone on settling (its entry had changed)."""
        return self.look.redone

    def settle(self, readings: DropReadings) -> Outcome:
        """Judge the drop once it has settled with ``readings``: the sensor look's checks,
        then the camera (see the module's docstring)."""
        early = self.look.check(readings)
        if early is not None:
            return self._set(early, "strips")
        identity = self.look.identity
        assert identity is not None  # else the check asked which piece it was
        try:
            landings = self.look.landings
            self._spots = tuple(board[-1].pose for board in landings)
            self.seen = self.camera(
                identity, expected_priors(landings, self.piece_id), expected_starts(landings)
            )
        except CAMERA_FAULTS as exc:
            self.fault = lazy("the camera is out: {why}", why=said(exc))
            return self._set(self._anchor(self.look.finish()), "strips")
        located = tell_twins(self.seen.located, self.piece_id, self._spots)
        self.seen = replace(self.seen, located=tuple(located))
        board = self.look.eye.table.board
        found = referee_located(
            board, self.look.eye.edges, located, self.piece_id, self.seen.held_wrong,
            physics=self.look.eye.params,
        )
        if found is None:
            self.fault = lazy("the camera did not see the dropped piece")
            return self._set(self._anchor(self.look.finish()), "strips")
        self.camera_verdict = found
        strips: Outcome | None = None
        explained = self._explains(found.pieces, readings)
        if explained and not self._released_there(found):
            # far from every landing: the camera's board stands unless the strips decide
            # on another verdict
            strips = self.look.finish()
            explained = not isinstance(strips, Decided) or verdict_key(
                strips.verdict
            ) == verdict_key(found.verdict)
        self._boards = [(found.verdict, found.pieces), *found.alternatives]
        self._weights = [1.0] + [ALTERNATIVE_WEIGHT] * len(found.alternatives)
        if (found.sure or found.scores_sure) and explained:
            return self._set(self._decide(found.verdict, found.pieces, 1.0), "camera")
        # the dropped piece where the physics cannot hold it: the camera may have it
        # wrong, and its alternatives with it; the strips judge too
        held = self.piece_id in self.seen.held_wrong
        if found.alternatives and explained and not held:
            return self._ask_or(None)
        if strips is None:
            strips = self.look.finish()
        if isinstance(strips, Disagree) and (found.sure or found.scores_sure):
            # no landing of the strips explains their readings either: the readings are at
            # fault, not the board the camera saw whole and sure
            return self._set(self._decide(found.verdict, found.pieces, 1.0), "camera")
        if isinstance(strips, Disagree) and found.alternatives and not held:
            # the readings are at fault here too, and the camera's doubt is a decision
            # within its poses' uncertainty: its question, not a staff call
            return self._ask_or(strips)
        if not isinstance(strips, Decided):
            return self._set(self._anchor(strips), "strips")
        if verdict_key(strips.verdict) == verdict_key(found.verdict):
            return self._set(self._decide(found.verdict, found.pieces, strips.confidence), "camera")
        self._boards.append((strips.verdict, self._anchored(strips.pieces)))
        self._weights.append(1.0)
        return self._ask_or(
            Disagree(
                lazy(
                    "the camera and the strips see different landings and no question tells "
                    "them apart: staff confirm the board"
                )
            )
        )

    def answer(self, yes: bool) -> Outcome:
        """The players' answer to the open yes/no question."""
        if self._open is None:
            return self._set(self._anchor(self.look.answer(yes)), "strips")
        feature, self._open = self._open, None
        self._asked[feature] = yes
        kept = [
            i
            for i, (verdict, _) in enumerate(self._boards)
            if self.look.features(verdict)[feature] is yes
        ]
        if not kept:
            return self._set(
                Disagree(
                    lazy(
                        "the players' answer agrees with nothing the camera saw: staff "
                        "confirm the board"
                    )
                ),
                "camera",
            )
        self._boards = [self._boards[i] for i in kept]
        self._weights = [self._weights[i] for i in kept]
        return self._ask_or(None)

    def choose(self, color: Color, shape: Shape) -> Outcome:
        """The players' answer to "which piece was dropped?" (asked by the sensor look)."""
        return self._set(self.look.choose(color, shape), "strips")

    def _ask_or(self, otherwise: Outcome | None) -> Outcome:
        """Ask the question that best splits the verdicts still standing; with none to
        ask, the verdict when they all agree, else ``otherwise`` (None: the leading one)."""
        keys = [verdict_key(v) for v, _ in self._boards]
        max_questions = self.look.eye.config.decide.max_questions
        if len(set(keys)) > 1 and len(self._asked) < max_questions:
            found = [self.look.features(v) for v, _ in self._boards]
            feature = best_question(self._weights, keys, found, set(self._asked))
            if feature is not None:
                self._open = feature
                dropped = self._boards[0][1][-1]
                text = question_text(
                    feature, dropped, self.look.others(), self.look.eye.table.board.bonus_circles
                )
                return self._set(Asking(Question(feature, text, dropped)), "camera")
        if otherwise is not None and len(set(keys)) > 1:
            return self._set(otherwise, "camera")
        shares: dict[tuple[object, ...], float] = {}
        for w, key in zip(self._weights, keys, strict=True):
            shares[key] = shares.get(key, 0.0) + w
        leading = max(shares, key=lambda k: shares[k])
        verdict, pieces = self._boards[keys.index(leading)]
        share = shares[leading] / sum(shares.values())
        return self._set(self._decide(verdict, pieces, share), "camera")

    def _anchor(self, outcome: Outcome) -> Outcome:
        """The strips' decision on a board the camera saw: its pieces re-anchored to the
        camera's poses (:meth:`_anchored`); any other outcome as it is."""
        if not isinstance(outcome, Decided) or self.seen is None:
            return outcome
        pieces = self._anchored(outcome.pieces)
        return replace(outcome, pieces=pieces, snapshot=self._snapshot(pieces))

    def _anchored(self, pieces: Sequence[Piece]) -> tuple[Piece, ...]:
        """``pieces`` (a board the strips chose) with every piece the camera saw at its
        located pose; the dropped piece only where the strips' board has it within
        :data:`ANCHOR_MM` (else the camera saw something else there)."""
        if self.seen is None:
            return tuple(pieces)
        located = {p.known.id: p for p in self.seen.located if p.seen and p.pose is not None}
        dropped = located.get(self.piece_id)
        if dropped is not None and dropped.pose is not None:
            chosen = next((p.pose for p in pieces if p.id == self.piece_id), None)
            if chosen is None or math.hypot(
                chosen.x - dropped.pose.x, chosen.y - dropped.pose.y
            ) > ANCHOR_MM:
                del located[self.piece_id]
        return tuple(located[p.id].piece() if p.id in located else p for p in pieces)

    def _released_there(self, found: CameraVerdict) -> bool:
        """Whether the dropped piece lies within :data:`RELEASE_REACH_MM` of a landing
        simulated from its release (or the look has none to compare with, or the piece is
        a circle)."""
        spots = self._spots
        dropped = found.pieces[-1]
        if not spots or rolls(self.look.eye.table.board, dropped.shape):
            return True
        at = dropped.pose
        return min(math.hypot(s.x - at.x, s.y - at.y) for s in spots) <= RELEASE_REACH_MM

    def _explains(self, pieces: Sequence[Piece], readings: DropReadings) -> bool:
        """Whether the strips and gates read as the located board predicts (all but the
        likelihood's ``max_mismatch`` bits), leaving out the bits that pieces moved by
        :data:`EXPLAIN_MARGIN_MM` would change."""
        eye = self.look.eye
        strips = eye.strips
        unsure = strips.snapshot(pieces, EXPLAIN_MARGIN_MM).changed(
            strips.snapshot(pieces, -EXPLAIN_MARGIN_MM)
        )
        mismatches = strips.snapshot(pieces).mismatches(readings.strips, unsure)
        return mismatches <= eye.config.likelihood.max_mismatch

    def _decide(self, verdict: Verdict, pieces: tuple[Piece, ...], confidence: float) -> Decided:
        return Decided(verdict, pieces, self._snapshot(pieces), confidence, len(self._asked))

    def _snapshot(self, pieces: Sequence[Piece]) -> Snapshot:
        """The model at rest holding ``pieces``: its state after the drop."""
        eye = self.look.eye
        return World.at_rest(eye.table.board, eye.params, pieces).snapshot()

    def _set(self, outcome: Outcome, judged_by: str) -> Outcome:
        self.outcome, self.judged_by = outcome, judged_by
        return outcome


def spots_prior(spots: Sequence[Pose], spread_mm: float = SPOTS_SPREAD_MM) -> int | None:
    """The index of the landing spot nearest the spots' median when they agree within
    ``spread_mm`` (RMS), else None.

    >>> spots_prior([Pose(10.0, 5.0, 0.0), Pose(12.0, 5.0, 30.0), Pose(11.0, 5.5, 60.0)])
    2
    >>> spots_prior([Pose(10.0, 5.0, 0.0), Pose(110.0, 5.0, 0.0)]) is None
    True
    """
    if not spots:
        return None
    xs = sorted(s.x for s in spots)
    ys = sorted(s.y for s in spots)
    mx, my = xs[len(xs) // 2], ys[len(ys) // 2]
    spread = math.sqrt(sum((s.x - mx) ** 2 + (s.y - my) ** 2 for s in spots) / len(spots))
    if spread > spread_mm:
        return None
    return min(range(len(spots)), key=lambda i: math.hypot(spots[i].x - mx, spots[i].y - my))


def known_pieces(
    believed: Sequence[Piece],
    piece_id: str,
    identity: tuple[Color, Shape],
    priors: Mapping[str, Pose],
    starts: Mapping[str, Sequence[Pose]] | None = None,
) -> list[Known]:
    """What the camera looks for after the drop of ``piece_id`` (``identity``) onto the
    ``believed`` board: every believed piece with its prior (from ``priors``, else its
    believed pose), and the dropped piece (its prior from ``priors``, else none; a guess,
    :attr:`~firmware_host.camera.locate.Known.guessed`); each with its other places from
    ``starts`` (:attr:`~firmware_host.camera.locate.Known.starts`)."""
    others = starts or {}
    known = [
        Known(p.id, p.color, p.shape, priors.get(p.id, p.pose), starts=tuple(others.get(p.id, ())))
        for p in believed
    ]
    guess = priors.get(piece_id)
    dropped = Known(
        piece_id, identity[0], identity[1], guess, guessed=True,
        starts=tuple(others.get(piece_id, ())),
    )
    return [*known, dropped]


def expected_starts(landings: Sequence[tuple[Piece, ...]]) -> dict[str, tuple[Pose, ...]]:
    """Each piece's pose in every one of the release's ``landings``, by piece id: where a
    piece knocked or dropped otherwise than their median has it may well lie.

    >>> a, b = Piece("p1", Color.RED, Shape.SQUARE, Pose(20.0, 17.0, 0.0)), Piece(
    ...     "p2", Color.BLUE, Shape.CIRCLE, Pose(60.0, 18.0, 0.0))
    >>> expected_starts([(a, b), (a, replace(b, pose=Pose(90.0, 18.0, 0.0)))])["p2"]
    (Pose(x=60.0, y=18.0, angle=0.0), Pose(x=90.0, y=18.0, angle=0.0))
    """
    starts: dict[str, list[Pose]] = {}
    for board in landings:
        for piece in board:
            starts.setdefault(piece.id, []).append(piece.pose)
    return {piece_id: tuple(poses) for piece_id, poses in starts.items()}


def expected_priors(landings: Sequence[tuple[Piece, ...]], piece_id: str) -> dict[str, Pose]:
    """The priors the release's ``landings`` (boards, the dropped piece ``piece_id`` last)
    give: when their dropped pieces agree within :data:`SPOTS_SPREAD_MM`, every pose of
    the landing nearest their median (the pile shifts it predicts included); when they
    agree within :data:`LOOSE_SPREAD_MM`, only the dropped piece's; else none."""
    spots = [board[-1].pose for board in landings]
    chosen = spots_prior(spots)
    if chosen is not None:
        return {p.id: p.pose for p in landings[chosen]}
    chosen = spots_prior(spots, LOOSE_SPREAD_MM)
    return {} if chosen is None else {piece_id: spots[chosen]}
