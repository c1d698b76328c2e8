"""The referee's eye: from one drop's readings and the model, where everything came to rest.

For a drop, :meth:`Eye.look` (1) checks for a jam and a second piece, (2) fits the release
from the entry gate (:mod:`firmware_host.eye.entry`), (3) simulates candidate drops from
the model's snapshot around each fitted release (x, angle, spin and physics drawn from
the configured spreads), (4) weighs each by the likelihood of the strip snapshot
(:mod:`firmware_host.eye.likelihood`), (5) draws more around the best, (6) referees
every weighty candidate with the judge and, once one verdict holds the configured weight
share, adds model-error draws (the leading landing's release under physics drawn around
the host's by the model's own error); it decides only when the verdict still leads and
is *sure* (the draws agree, and a landing that moved the pile explains the readings),
else asks the yes/no question that best separates the candidates, or the one a small
pose error would flip (:mod:`firmware_host.eye.questions`). ``Look.answer`` drops the
candidates the answer rules out and decides or asks again (bounded). The candidate
chosen is the one of highest weight with the decided verdict; its whole board is the
model's new state.

The eye keeps more than that one board (:attr:`Eye.belief`): a decision leaves the
decided board and the heaviest other candidates' boards (``track.boards``), each weighed
by how well it explained the readings. When the next look is given the decided board, its
landings start from every one of them (fewer, ``track.per_mode``, from the others), each
landing weighed by its board's weight too: a later drop's readings can prefer a board the
last decision did not choose. Any other board (a new game, one staff confirmed, one the
camera saw) starts afresh, seated in the model first (:meth:`World.seated`: poses someone
saw are not a state the physics made).

Steps (1)-(3), the jam check aside, need neither the strips nor the settle time, only
the entry gate's cuts, the identity and the snapshot: :meth:`Eye.begin` does them once the
piece has gone through the gate, while it still falls and settles, and
:meth:`Look.settle` does the rest once the readings are in (redoing everything when the
entry changed meanwhile). :meth:`Eye.look` is both at once; the look is the same, bit
for bit.

Everything random comes from ``random.Random`` seeded with the eye's seed and the dropped
piece's id, so a look is reproducible. Not with the release's hub time: the virtual hub's
clock catches up with real time, so a slow start or a restart of the simulator shifts
every hub time, and the same seed then played another game.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from firmware_host.config.board import EdgeFace
from firmware_host.config.table import Table
from firmware_host.errors import InputError
from firmware_host.eye.config import EyeConfig
from firmware_host.eye.entry import ReleaseFit, passes, second_piece
from firmware_host.eye.likelihood import StripLikelihood
from firmware_host.eye.outcomes import Asking, Decided, Disagree, Jam, Outcome, SecondPiece
from firmware_host.eye.questions import PieceQuestion, Question, best_question, features
from firmware_host.eye.questions import question_text as _text
from firmware_host.games.dropit.rules.landing import Verdict, judge
from firmware_host.games.dropit.rules.pieces import Color, Piece, Pose, Shape
from firmware_host.games.dropit.rules.position import Position
from firmware_host.i18n import lazy, lazy_n
from firmware_host.model.params import PairValues, PaneDrag, PhysicsParams
from firmware_host.model.world import Drop, Snapshot, World
from firmware_host.sensors.drop import DropEntry, DropReadings
from firmware_host.sensors.piece_reader import piece_of_tag
from firmware_host.sensors.strips import StripModel, StripSnapshot

NEGLIGIBLE = 1e-3
"""Candidates with less (tempered) weight than the best times this are not refereed: they
hardly change a share."""


def verdict_key(verdict: Verdict) -> tuple[object, ...]:
    """What makes two verdicts equal for scoring: valid, broken rules, level, bonus, points.

    The eye decides on this; ``tabletop sim eval`` compares the eye's verdict with the
    truth's on it (which pieces are touched may differ without changing the score).
    """
    return (verdict.valid, verdict.broken, verdict.level, verdict.bonus, verdict.points)


PILE_MOVED_MM = 1.0
"""A landing moved the pile when it moved another piece's centroid further than this."""

SAME_BOARD_MM = 0.01
"""Two boards are the same when every piece lies within this (mm, and degrees) of its
pose on the other."""
ALIKE_MM = 0.5
"""Boards carried to the next drop differ by more than this (mm) in some piece."""


def same_board(a: Snapshot, b: Snapshot, tolerance: float = SAME_BOARD_MM) -> bool:
    """Whether ``a`` and ``b`` hold the same pieces at the same poses (within
    ``tolerance`` mm and degrees)."""
    if len(a.bodies) != len(b.bodies):
        return False
    for p, q in zip(a.bodies, b.bodies, strict=True):
        turn = abs(math.degrees(p.angle - q.angle)) % 360.0
        if (
            p.id != q.id
            or abs(p.x - q.x) > tolerance
            or abs(p.y - q.y) > tolerance
            or min(turn, 360.0 - turn) > tolerance
        ):
            return False
    return True


@dataclass(frozen=True)
class Belief:
    """The boards a decision left, each with its log-weight against the heaviest (the
    readings' log-likelihood so far): ``boards[0]`` is the decided board, the model's new
    state."""

    boards: tuple[tuple[Snapshot, float], ...]


@dataclass(frozen=True)
class Candidate:
    """One simulated drop: the drop, the board after it, its log-weight (the strips'
    log-likelihood plus ``prior``: the entry fit's and its board's) and mismatches;
    ``draw`` marks a model-error draw (the leading landing's release under other
    physics); ``board`` is the index of the look's board it started from."""

    drop: Drop
    params: PhysicsParams
    snapshot: Snapshot
    pieces: tuple[Piece, ...]
    log_weight: float
    mismatches: int
    prior: float = 0.0
    draw: bool = False
    board: int = 0


class Eye:
    """The eye of ``table`` with the host's physics ``params`` and configuration ``config``.

    ``edges`` is the edge face in play; ``seed`` makes every look reproducible.
    """

    def __init__(
        self,
        table: Table,
        params: PhysicsParams,
        config: EyeConfig,
        edges: EdgeFace = EdgeFace.COLOR,
        seed: int = 0,
    ) -> None:
        self.table = table
        self.params = params
        self.config = config
        self.edges = edges
        self.seed = seed
        self.release_fit = ReleaseFit(table, params, config.entry)
        self.strips = StripModel(table)
        self.likelihood = StripLikelihood(config.likelihood)
        self.belief: Belief | None = None
        """The boards the last decision left (:class:`Belief`): the next look starts from
        them when it is given the decided board."""

    def boards(self, snapshot: Snapshot) -> tuple[tuple[Snapshot, float], ...]:
        """The boards a look into ``snapshot`` starts from, with their log-weights: those
        of :attr:`belief` when ``snapshot`` is its decided board, else ``snapshot`` alone
        (a new game, a board staff confirmed, one the camera saw), seated in the model
        (:meth:`World.seated`): poses someone saw leave pieces hovering over their
        supports, and the landings from such a board missed the true one's (realistic,
        1000 drops of seed 1: the nearest landing 0.69 mm from the true spot at the median,
        more than 40 mm on 23 drops; seated 0.36 mm and 9)."""
        belief = self.belief
        if belief is None or not same_board(belief.boards[0][0], snapshot):
            seated = World(self.table.board, self.params, snapshot).seated()
            return ((seated.snapshot(), 0.0),)
        return ((snapshot, belief.boards[0][1]), *belief.boards[1:])

    def begin(
        self,
        snapshot: Snapshot,
        identity: tuple[Color, Shape] | None,
        entry: DropEntry,
        piece_id: str,
        options: Sequence[tuple[Color, Shape]] = (),
    ) -> Look:
        """Start judging one drop into the model's ``snapshot`` once the piece has gone
        through the entry gate (``entry``): the work that needs neither the strips nor the
        settle time (the passes, a second piece, the identity, the release fit and the
        candidate drops around each fitted release). Finish with :meth:`Look.settle`.

        ``identity`` is the selected piece (else the tag read is used); with neither, the
        look asks which of ``options`` it was. ``piece_id`` names the new piece.
        """
        return Look(self, snapshot, identity, entry, piece_id, tuple(options))

    def look(
        self,
        snapshot: Snapshot,
        identity: tuple[Color, Shape] | None,
        readings: DropReadings,
        piece_id: str,
        options: Sequence[tuple[Color, Shape]] = (),
    ) -> Look:
        """Judge one drop into the model's ``snapshot`` from its settled ``readings``:
        :meth:`begin` and :meth:`Look.settle` at once (the same look, bit for bit).

        ``identity`` is the selected piece (else the tag read is used); with neither, the
        look asks which of ``options`` it was. ``piece_id`` names the new piece.
        """
        look = self.begin(snapshot, identity, readings.entered, piece_id, options)
        look.settle(readings)
        return look


@dataclass(frozen=True)
class _Landing:
    """A simulated drop not weighed yet: the strips it predicts (``predicted``) and the
    entry fit's ``prior``."""

    drop: Drop
    params: PhysicsParams
    snapshot: Snapshot
    pieces: tuple[Piece, ...]
    predicted: StripSnapshot
    prior: float
    board: int


class Look:
    """The eye's judgement of one drop, in progress: ``outcome`` is where it stands (None
    until :meth:`settle`)."""

    readings: DropReadings
    """The settled readings (set by :meth:`settle`)."""

    def __init__(
        self,
        eye: Eye,
        snapshot: Snapshot,
        identity: tuple[Color, Shape] | None,
        entry: DropEntry,
        piece_id: str,
        options: tuple[tuple[Color, Shape], ...],
    ) -> None:
        self.eye = eye
        self.before = snapshot
        self.boards = eye.boards(snapshot)
        """The boards the landings start from (:meth:`Eye.boards`), each with its
        log-weight: ``before`` first."""
        self.piece_id = piece_id
        self.selected = identity
        self.options = options
        self.outcome: Outcome | None = None
        self.redone = False
        """Whether :meth:`settle` redid the look (its entry had changed)."""
        self._early = self._begin(entry)

    def _begin(self, entry: DropEntry) -> Outcome | None:
        """The look's work from the entry alone: an outcome already known (a second
        piece, which piece?, no pass), else None with the unweighed landings in
        ``_landings``. Everything the look draws starts here."""
        self.entry = entry
        self.asked: set[str] = set()
        self.answers: dict[str, bool] = {}
        self.rng = random.Random(f"{self.eye.seed}:{self.piece_id}")
        self.candidates: list[Candidate] = []
        self.verdicts: list[Verdict] = []
        self.share = 0.0
        """The leading verdict's weight share when the eye last decided or asked."""
        self.sure = False
        """Whether the leading landing then stood the model's own error (``_sure``)."""
        self._drawn = False
        self._question: str | None = None
        self._landings: list[_Landing] = []
        config = self.eye.config.entry
        identity = self.selected
        if identity is None and entry.tag is not None:
            identity = piece_of_tag(entry.tag)
        self.identity = identity
        self.passes = passes(entry.entry, entry.released_us, config)
        if second_piece(self.passes, config):
            return SecondPiece(
                lazy(
                    "a second piece went through the entry gate before the first settled: "
                    "take it out (or confirm the board)"
                )
            )
        if identity is None:
            return Asking(PieceQuestion("Which piece was dropped?", self.options))
        return self._prepare(identity)

    def settle(self, readings: DropReadings) -> Outcome:
        """Finish the look with the drop's settled ``readings``: a jam, else the weights,
        the refinement, and the decision or the first question.

        When their entry differs from the one the look began with in what the eye uses
        (the tag, the release, the passes: a late entry event, a second piece), the look
        is redone from them, exactly as :meth:`Eye.look` would.
        """
        early = self.check(readings)
        return early if early is not None else self.finish()

    def check(self, readings: DropReadings) -> Outcome | None:
        """The part of :meth:`settle` that needs no candidates: the jam, or an outcome the
        entry alone gave (a second piece, which piece?, no pass), which is then the look's
        outcome; None when the landing must be judged (by :meth:`finish`, or from what the
        camera saw)."""
        if self.outcome is not None:
            raise InputError("eye", "settle", "this look has settled already")
        entered = readings.entered
        if entered != self.entry and (
            entered.tag != self.entry.tag
            or entered.released_us != self.entry.released_us
            or passes(entered.entry, entered.released_us, self.eye.config.entry) != self.passes
        ):
            self._early = self._begin(entered)
            self.redone = True
        self.readings = readings
        config = self.eye.config.entry
        if (readings.settled_us - readings.released_us) / 1e6 >= config.jam_after_s:
            self.outcome = Jam(
                lazy(
                    "the piece has not come to rest {seconds} s after release: free it, then "
                    "confirm the board",
                    seconds=config.jam_after_s,
                )
            )
        else:
            self.outcome = self._early
        return self.outcome

    @property
    def landings(self) -> tuple[tuple[Piece, ...], ...]:
        """The boards after the landings simulated from the release (the dropped piece
        last), not weighed yet (none once :meth:`finish` has weighed them)."""
        return tuple(landing.pieces for landing in self._landings)

    def finish(self) -> Outcome:
        """Judge the landing from the strips once :meth:`check` found nothing else to say:
        the weights, the refinement, and the decision or the first question."""
        self.outcome = self._finish()
        return self.outcome

    def choose(self, color: Color, shape: Shape) -> Outcome:
        """The players' answer to a :class:`PieceQuestion`: the piece dropped."""
        if not (
            isinstance(self.outcome, Asking) and isinstance(self.outcome.question, PieceQuestion)
        ):
            raise InputError("eye", "choose", "no piece question is open")
        self.outcome = self._judge((color, shape))
        return self.outcome

    def answer(self, yes: bool) -> Outcome:
        """The players' answer to the open yes/no :class:`Question`."""
        if self._question is None:
            raise InputError("eye", "answer", "no yes/no question is open")
        feature, self._question = self._question, None
        self.answers[feature] = yes
        keep = [i for i, v in enumerate(self.verdicts) if self._agrees(v)]
        if keep:
            best = max(keep, key=lambda i: self.candidates[i].log_weight)
            around = self.candidates[best]
            carried = self.boards[around.board][1]
            for k in range(self.eye.config.candidates.after_answer):
                drop = self._jitter(around.drop, self.rng, k + 1, 1.0)
                physics = self._physics(self.rng, k + 1, 1.0)
                for more in self._simulate(drop, physics, carried, board=around.board):
                    verdict = self._verdict(more)
                    if self._agrees(verdict):
                        self.candidates.append(more)
                        self.verdicts.append(verdict)
                        keep.append(len(self.candidates) - 1)
        if not keep:
            self.outcome = Disagree(
                lazy(
                    "no candidate landing agrees with the answer: the board and the model "
                    "disagree; confirm the board or re-sync"
                )
            )
            return self.outcome
        self.candidates = [self.candidates[i] for i in keep]
        self.verdicts = [self.verdicts[i] for i in keep]
        self.outcome = self._decide_or_ask()
        return self.outcome

    def _agrees(self, verdict: Verdict) -> bool:
        """Whether a landing with ``verdict`` agrees with every answer given."""
        found = self.features(verdict)
        return all(found[feature] is yes for feature, yes in self.answers.items())

    def others(self) -> tuple[Piece, ...]:
        """The pieces on the board before the drop (what a question may name)."""
        return tuple(b.piece() for b in self.before.bodies)

    def features(self, verdict: Verdict) -> dict[str, bool]:
        """Every question's answer for a landing with ``verdict``
        (:func:`~firmware_host.eye.questions.features`)."""
        return features(verdict, self.others(), self.eye.table.board.bonus_circles)

    def _judge(self, identity: tuple[Color, Shape]) -> Outcome:
        early = self._prepare(identity)
        return early if early is not None else self._finish()

    def _prepare(self, identity: tuple[Color, Shape]) -> Outcome | None:
        """Fit the release and simulate ``per_mode`` landings around each mode (not
        weighed: that needs the strips); a :class:`Disagree` when no pass was seen."""
        eye = self.eye
        modes = eye.release_fit.modes(identity[1], self.passes)
        if not modes:
            return Disagree(
                lazy(
                    "the entry gate saw no piece go through: the board and the model "
                    "disagree; confirm the board or re-sync"
                )
            )
        rng = self.rng
        spread = eye.config.candidates
        seeds = [Drop(identity[0], identity[1], m.x, m.y, m.angle) for m in modes]
        entry_log = [-m.cost / 2 for m in modes]
        for board, (_, carried) in enumerate(self.boards):
            count = spread.per_mode if board == 0 else eye.config.track.per_mode
            for seed, prior in zip(seeds, entry_log, strict=True):
                for k in range(count):
                    drop = self._jitter(seed, rng, k, 1.0)
                    physics = self._physics(rng, k, 1.0)
                    self._landings += self._land(drop, physics, prior + carried, board)
        return None

    def _finish(self) -> Outcome:
        """Weigh the landings against the settled strips, refine around the best, and
        decide or ask."""
        eye, rng = self.eye, self.rng
        spread = eye.config.candidates
        found = [self._weigh(landing) for landing in self._landings]
        self._landings = []
        if found:
            best = max(found, key=lambda c: c.log_weight)
            carried = self.boards[best.board][1]
            for k in range(spread.refine):
                drop = self._jitter(best.drop, rng, k + 1, 0.5)
                physics = self._physics(rng, k + 1, 0.5)
                found += self._simulate(drop, physics, carried, board=best.board)
        if not found:
            return Disagree(
                lazy(
                    "no candidate drop fits the board: the board and the model disagree; "
                    "confirm the board or re-sync"
                )
            )
        best = max(found, key=lambda c: c.log_weight)
        if best.mismatches > eye.config.likelihood.max_mismatch:
            return Disagree(
                lazy_n(
                    "the best candidate leaves {count} sensor reading unexplained: the board "
                    "and the model disagree; confirm the board or re-sync",
                    "the best candidate leaves {count} sensor readings unexplained: the board "
                    "and the model disagree; confirm the board or re-sync",
                    best.mismatches,
                )
            )
        top = best.log_weight
        temperature = eye.config.likelihood.temperature
        kept = [c for c in found if math.exp((c.log_weight - top) / temperature) >= NEGLIGIBLE]
        self.candidates = kept
        self.verdicts = [self._verdict(c) for c in kept]
        return self._decide_or_ask()

    def _jitter(self, seed: Drop, rng: random.Random, k: int, scale: float) -> Drop:
        if k == 0:
            return seed
        spread = self.eye.config.candidates
        return Drop(
            seed.color,
            seed.shape,
            seed.x + rng.gauss(0.0, spread.x * scale),
            seed.y,
            seed.angle + rng.gauss(0.0, spread.angle * scale),
            spin=rng.gauss(0.0, spread.spin),
        )

    def _physics(self, rng: random.Random, k: int, scale: float) -> PhysicsParams:
        params = self.eye.params
        if k == 0:
            return params
        spread = self.eye.config.candidates
        return params.spread(rng, spread.friction * scale, spread.elasticity * scale)

    def _model_error(self, rng: random.Random) -> list[PhysicsParams]:
        """``decide.draws`` physics drawn around the host's by the model's own error."""
        params, config = self.eye.params, self.eye.config.decide
        spread = config.model_error

        def vary(value: float, sigma: float, cap: float = math.inf) -> float:
            return min(cap, value * math.exp(rng.gauss(0.0, sigma)))

        f, e, drag = params.friction, params.elasticity, params.pane_drag
        return [
            params.model_copy(
                update={
                    "friction": PairValues(
                        piece_piece=vary(f.piece_piece, spread.friction),
                        piece_wall=vary(f.piece_wall, spread.friction),
                    ),
                    "elasticity": PairValues(
                        piece_piece=vary(e.piece_piece, spread.elasticity, 1.0),
                        piece_wall=vary(e.piece_wall, spread.elasticity, 1.0),
                    ),
                    "pane_drag": PaneDrag(
                        linear=vary(drag.linear, spread.pane_drag),
                        angular=vary(drag.angular, spread.pane_drag),
                    ),
                    "rolling_resistance": vary(params.rolling_resistance, spread.rolling),
                }
            )
            for _ in range(config.draws)
        ]

    def _simulate(
        self,
        drop: Drop,
        params: PhysicsParams,
        prior: float,
        draw: bool = False,
        board: int = 0,
    ) -> list[Candidate]:
        landings = self._land(drop, params, prior, board)
        return [self._weigh(landing, draw) for landing in landings]

    def _land(self, drop: Drop, params: PhysicsParams, prior: float, board: int) -> list[_Landing]:
        """Simulate ``drop`` from board ``board`` of :attr:`boards` with ``params`` (none
        when it cannot be)."""
        eye = self.eye
        world = World(eye.table.board, eye.params, self.boards[board][0])
        try:
            world.drop(drop, self.piece_id, params=params)
        except InputError:
            return []
        pieces = world.pieces
        predicted = eye.strips.snapshot(pieces)
        return [_Landing(drop, params, world.snapshot(), pieces, predicted, prior, board)]

    def _weigh(self, landing: _Landing, draw: bool = False) -> Candidate:
        """``landing`` weighed by how well it explains the settled strips."""
        fit = self.eye.likelihood.fit(landing.predicted, self.readings.strips)
        return Candidate(
            landing.drop,
            landing.params,
            landing.snapshot,
            landing.pieces,
            fit.log_likelihood + landing.prior,
            fit.mismatches,
            landing.prior,
            draw,
            landing.board,
        )

    def _verdict(self, candidate: Candidate) -> Verdict:
        *others, dropped = candidate.pieces
        return judge(self.eye.table.board, Position(self.eye.edges, tuple(others), dropped))

    def _decide_or_ask(self) -> Outcome:
        top = max(c.log_weight for c in self.candidates)
        temperature = self.eye.config.likelihood.temperature
        weights = [math.exp((c.log_weight - top) / temperature) for c in self.candidates]
        total = sum(weights)
        weights = [w / total for w in weights]
        keys = [verdict_key(v) for v in self.verdicts]
        shares: dict[tuple[object, ...], float] = {}
        for w, key in zip(weights, keys, strict=True):
            shares[key] = shares.get(key, 0.0) + w
        leading = max(shares, key=lambda key: shares[key])
        chosen = max((i for i, key in enumerate(keys) if key == leading), key=lambda i: weights[i])
        config = self.eye.config.decide
        confident = shares[leading] >= config.confidence
        if confident and not self._drawn:
            self._draw(chosen)
            return self._decide_or_ask()
        self.share, self.sure = shares[leading], self._sure(chosen)
        if len(self.asked) < config.max_questions and not (confident and self.sure):
            found = [self.features(v) for v in self.verdicts]
            feature = best_question(weights, keys, found, self.asked)
            if feature is None and confident:
                feature = self._fragile(chosen)
            if feature is not None:
                return self._ask(feature)
        if shares[leading] < config.staff_below:
            return Disagree(
                lazy(
                    "the eye cannot tell the landing apart (best verdict {percent}% sure "
                    "after the questions): staff confirm the board",
                    percent=round(shares[leading] * 100),
                )
            )
        candidate = self.candidates[chosen]
        self.eye.belief = self._belief(chosen)
        return Decided(
            self.verdicts[chosen],
            candidate.pieces,
            candidate.snapshot,
            shares[leading],
            len(self.asked),
        )

    def _belief(self, chosen: int) -> Belief:
        """The decided board (candidate ``chosen``'s) and the heaviest other candidates'
        boards that differ from those kept, up to ``track.boards``, each with its
        log-weight against the heaviest kept (so one board alone weighs 0, as a new one)."""
        order = sorted(range(len(self.candidates)), key=lambda i: -self.candidates[i].log_weight)
        kept: list[Candidate] = [self.candidates[chosen]]
        for i in order:
            if len(kept) >= self.eye.config.track.boards:
                break
            candidate = self.candidates[i]
            if not any(same_board(candidate.snapshot, k.snapshot, ALIKE_MM) for k in kept):
                kept.append(candidate)
        top = max(c.log_weight for c in kept)
        return Belief(tuple((c.snapshot, c.log_weight - top) for c in kept))

    def _draw(self, chosen: int) -> None:
        """Add the model-error draws around candidate ``chosen`` (those that agree with
        every answer given): once a look, when it is first confident enough to decide."""
        self._drawn = True
        around = self.candidates[chosen]
        for params in self._model_error(self.rng):
            landed = self._simulate(around.drop, params, around.prior, True, around.board)
            for candidate in landed:
                verdict = self._verdict(candidate)
                if self._agrees(verdict):
                    self.candidates.append(candidate)
                    self.verdicts.append(verdict)

    def _ask(self, feature: str) -> Asking:
        self.asked.add(feature)
        self._question = feature
        dropped = self.candidates[0].pieces[-1]
        circles = self.eye.table.board.bonus_circles
        text = _text(feature, dropped, self.others(), circles)
        return Asking(Question(feature, text, dropped))

    def _sure(self, chosen: int) -> bool:
        """Whether the leading landing's verdict stands the model's own error: every
        model-error draw still a candidate gives it, and the landing either left the
        pile where it was or explains the readings (all but ``decide.unexplained`` bits)."""
        key = verdict_key(self.verdicts[chosen])
        if any(
            c.draw and verdict_key(v) != key
            for c, v in zip(self.candidates, self.verdicts, strict=True)
        ):
            return False
        candidate = self.candidates[chosen]
        if candidate.mismatches <= self.eye.config.decide.unexplained:
            return True
        before = {body.id: body for body in self.boards[candidate.board][0].bodies}
        return all(
            math.hypot(p.pose.x - before[p.id].x, p.pose.y - before[p.id].y) <= PILE_MOVED_MM
            for p in candidate.pieces[:-1]
        )

    def _fragile(self, chosen: int) -> str | None:
        """The feature (not asked yet) of the leading landing's verdict that moving the
        dropped piece by ``decide.fragile`` (each way along x, y and the angle) flips most
        often; None when none flips."""
        fragile = self.eye.config.decide.fragile
        *others, dropped = self.candidates[chosen].pieces
        found = self.features(self.verdicts[chosen])
        flips: dict[str, int] = {}
        mm, turn_by = fragile.mm, fragile.degrees
        nudges = (
            (mm, 0, 0),
            (-mm, 0, 0),
            (0, mm, 0),
            (0, -mm, 0),
            (0, 0, turn_by),
            (0, 0, -turn_by),
        )
        for dx, dy, turn in nudges:
            pose = dropped.pose
            moved = replace(
                dropped, pose=Pose(pose.x + dx, pose.y + dy, (pose.angle + turn) % 360.0)
            )
            verdict = judge(self.eye.table.board, Position(self.eye.edges, tuple(others), moved))
            for feature, yes in self.features(verdict).items():
                if yes != found[feature] and feature not in self.asked:
                    flips[feature] = flips.get(feature, 0) + 1
        return max(sorted(flips), key=lambda f: flips[f], default=None)
