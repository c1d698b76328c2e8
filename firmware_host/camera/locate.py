"""Locating every piece the referee knows of in the frames of one look.

Each piece is known by its colour and shape and, for every piece but the newly dropped
one, by its prior pose (where the model believed it was before the drop; a drop may have
knocked it). The locator

1. fits every piece with a prior from that prior (:mod:`~firmware_host.camera.outline`),
   and keeps the fits that find most of the outline in the piece's own colour, best
   first, never two on one place; then the others from their other likely places
   (:attr:`Known.starts`);
2. searches for the others (:mod:`~firmware_host.camera.search`): a piece that moved near
   its prior (within :data:`KNOCKED_MM`, then :data:`NEAR_PRIOR_MM`; a circle, which
   may roll, and a piece without a prior, anywhere), among the pixels of their colour
   that no located piece explains; each candidate is fitted and the best fit kept;
3. reports each piece's pose with its standard deviations, or as unseen: a piece the
   frames do not show is never invented.

Pieces of the same colour and shape are told apart by their priors: each fit starts from
its own piece's prior, and a place already taken is not taken twice.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from firmware_host.camera.artwork import Artwork
from firmware_host.camera.colours import PieceColours
from firmware_host.camera.outline import OutlineFit, fit_outlines, outline_points
from firmware_host.camera.scene import LookFrames
from firmware_host.camera.search import Candidate, ColourMap
from firmware_host.camera.setup import CameraSetup
from firmware_host.config.board import Board, CircleShape
from firmware_host.games.dropit.rules.geometry import (
    PieceSpace,
    bounds,
    corners,
    extent,
    outline_reach,
    piece_shape,
    rolls,
    turn_period,
)
from firmware_host.games.dropit.rules.landing import MAX_OVERLAP_MM
from firmware_host.games.dropit.rules.pieces import Color, Piece, Pose, Shape

MIN_FOUND = 0.45
"""A fit counts when at least this share of its outline was found."""
MAX_RMS_MM = 0.6
"""... and its outline's residuals are this tight (RMS, mm), and its face is of the
piece's colour (:class:`~firmware_host.camera.colours.PieceColours`)."""
GUESS_FOUND = 0.7
"""A piece with a guessed prior (:attr:`Known.guessed`: the referee's newly dropped piece)
counts only where its fit found this share of its outline: started at a wrong turn, a
diamond half fits 60 degrees off, and a verdict on it would be wrong. The search's fits
too: counting them from :data:`MIN_FOUND` found the pieces pressed against their own
colour (8 of 290 realistic drops' dropped pieces unseen, then none) but took a diamond
half fitted 67 degrees off near its guess before the whole board's search found it whole,
and the referee decided it wrong (realistic drop 804 of seed 1, over the wire); unseen,
the strips and gates referee it."""
AGAINST_MM = 1.0
"""A point of a fitted outline runs into a face of the piece's own colour when the point
this far out along its normal lies on a located piece of that colour: no edge shows
there (:meth:`Locator._against`). A guessed piece's fit counts that part of its outline
as shown (:meth:`Locator._shown`), and a tight half fit from a prior stays for it
(:meth:`Locator._tentative`)."""
PARTIAL_FOUND = 0.65
PARTIAL_RMS_MM = 0.2
"""A fit that found less than :data:`PARTIAL_FOUND` of its outline counts only with
residuals this tight (RMS, mm): a partial fit with loose residuals is another shape's
outline, or a compromise between edges (a circle fitted on a square of its colour finds
half its outline at 0.44 mm RMS; a knocked diamond's search fit 66 degrees off, half its
outline at 0.24 mm). Over 2583 located pieces of two renderers, 2 of the 2486 fits within
0.5 mm of the truth were this loose and partial, and 8 of the 25 more than 1 mm off.
A fit from a prior that found less than :data:`PARTIAL_FOUND` with residuals looser than
:data:`TIGHT_RMS_MM` is tentative: the searches near the prior look for a fuller one,
which replaces it (a knocked square's half fit held part of a dropped circle of its
colour). A tight one stays where the part of its outline it did not find runs into a
face of its own colour (:meth:`Locator._against`): a piece pressed against its own
colour; elsewhere it is tentative too: a square's fit slid along one pair of its sides
finds half its outline tightly (seed 2 realistic drop 872 of the eye: a yellow square
held 3.5 mm off from a prior as far off, 48 % found, made a false touch that broke the
shape rule)."""
MIN_FOUND_TIGHT = 0.25
TIGHT_RMS_MM = 0.15
"""A fit from a piece's prior whose found outline is this tight (RMS, mm) counts with
:data:`MIN_FOUND_TIGHT` of its outline found: a piece pressed against pieces of its own
colour shows only part of its edge, and its covariance says how little that pins it
down. (Not a search's fit: part of another piece of the colour would pass.) Such a fit is
tentative: a fuller fit found by the searches near the prior replaces it."""
EVICT_MARGIN = 0.2
"""A fit from a prior takes a place from a piece already placed there when its quality
(:func:`_quality`) is better by this: that piece is looked for again."""
SAME_PLACE_MM = 12.0
"""Two located pieces whose centres lie closer than this are one piece found twice."""
NEAR_PRIOR_MM = 90.0
"""A knocked piece is searched for within this of its prior (a knocked circle may roll
anywhere: it is searched for on the whole board too), and a place this far from its prior
costs as much merit as the whole outline."""
CANDIDATES = 6
RETRIED = 2
NUDGE_MM = 1.5
"""A new piece (no prior, or a guessed one) none of whose search candidates' fits shows it
with :data:`GUESS_FOUND` of its outline has its :data:`RETRIED` best candidates fitted
again from four starts this far off (along x and y), and the best fit kept: the colour
map is coarse, and from a start a few millimetres off along one side the fit can settle
on two sides and lose the other two, where a start a little elsewhere finds the whole
outline. (An old piece is searched for when knocked, or when its fit from the prior was
partial, where no start finds more: retrying those too made the eye's slowest looks
300-500 ms slower.)"""
SAME_START_MM = 1.0
MAX_STARTS = 8
"""A piece's :attr:`Known.starts` closer than this to its prior or to each other (mm, an
angle's degree counting as 0.2 mm) are fitted from once; at most this many."""
HELD_MM = 1.0
"""A fit from one of a piece's :attr:`Known.starts` that stayed this close to it (an
angle's degree counting as 0.2 mm) with residuals under :data:`TIGHT_RMS_MM` shows the
piece from :data:`MIN_FOUND` of its outline, a guessed one too, tentatively: a landing put
the piece at that very place and turn, and a new piece pressed against one of its own
colour shows only part of its outline (realistic drop 16 of the eye, seed 1: 64 % found,
0.08 mm off, unseen with :data:`GUESS_FOUND` asked of it)."""
STAYS_MM = 6.0
"""A fit shows its piece only where it ended this close to where it started (a prior, a
start): farther, it has wandered onto something else."""
SEARCH_STAYS_MM = 12.0
"""... and this close to a search's candidate: the colour map is coarse, and a diamond's
silhouette may match best 10 mm along its long axis from where it lies (seed 3
realistic drop 803 of the eye: fitted whole from there, 9.9 mm away, it was unseen)."""
KNOCKED_MM = 25.0
"""Pieces whose prior fit failed are first looked for within this of their priors."""
MIN_SHARE = 0.6
"""A piece found by searching must cover pixels of its colour over this share of its
face (another shape on the spot does not)."""
SUPPORT_MM = 4.0
"""A piece searched for and found farther than this from the floor and from every located
piece would float: it is not taken there."""
WALL_SLACK_MM = 2.0
"""A fit this far through a wall or the floor is a piece resting against it."""


@dataclass(frozen=True)
class Known:
    """A piece the referee knows is on the board, with its prior pose if it has one."""

    id: str
    color: Color
    shape: Shape
    prior: Pose | None = None
    guessed: bool = False
    """The prior is a guess (where a release says a new piece went), not where the piece
    was seen: a fit from it must find most of the outline (:data:`GUESS_FOUND`)."""
    starts: tuple[Pose, ...] = ()
    """Other places the piece may be (where the release's landings have it): fitted from,
    when the fit from its prior does not show it, before any search; a fit from one must
    find :data:`PARTIAL_FOUND` of the outline (a guessed piece's :data:`GUESS_FOUND`)."""


@dataclass(frozen=True)
class Located:
    """Where a piece was found: ``pose`` and standard deviations ``sigma`` (x, y in mm,
    angle in degrees), or ``seen`` False (``pose`` is then the prior, if any); how much of
    its outline the fit ``found`` and its residuals (``rms_mm``)."""

    known: Known
    pose: Pose | None
    seen: bool
    sigma: tuple[float, float, float] = (math.inf, math.inf, math.inf)
    found: float = 0.0
    rms_mm: float = math.inf
    spread: float = 0.0
    """The board's share of ``sigma`` (mm): how far off the markers may put the board where
    the piece lies, much the same for pieces near each other, so it does not part two
    pieces."""

    def piece(self, pose: Pose | None = None) -> Piece:
        """The piece at ``pose`` (its located or prior pose by default, which it must have)."""
        at = pose or self.pose
        if at is None:
            raise ValueError(f"{self.known.id} has no pose")
        return Piece(self.known.id, self.known.color, self.known.shape, at)


class Locator:
    """Locates known pieces in looks, for one board and camera set-up."""

    def __init__(
        self,
        board: Board,
        setup: CameraSetup,
        colors: Mapping[Color, tuple[float, float, float]] | None = None,
    ) -> None:
        self.board = board
        self.artwork = Artwork(board)
        rgb = colors or {c: setup.colors.of(c) for c in Color}
        self.colours = PieceColours({c: rgb[c] for c in Color})
        self._reach = {shape: outline_reach(board, shape) for shape in Shape}
        self._missed: dict[str, Pose] = {}
        """The pieces the last look searched for (or left alone, :meth:`_stays`) and placed
        no whole fit of, at the poses it gave them (their priors, or tentative fits)."""
        self._shrunk = PieceSpace(board, [], grow=-MAX_OVERLAP_MM / 2)
        """Every place (``_shrunk_places``) the look has located a piece at, as
        :meth:`_rivals` compares them: each added once, where a space built for every fit
        cost more than the fit's test."""
        self._shrunk_places: set[tuple[Shape, Pose]] = set()

    def locate(self, look: LookFrames, pieces: Sequence[Known]) -> list[Located]:
        """Every piece of ``pieces`` located (or unseen), in the same order."""
        self._shrunk = PieceSpace(self.board, [], grow=-MAX_OVERLAP_MM / 2)  # no place yet
        self._shrunk_places.clear()
        result: dict[str, Located] = {}
        priors = [(p, p.prior) for p in pieces if p.prior is not None]
        fits = list(
            zip(
                [p for p, _ in priors],
                fit_outlines(
                    look, self.board, [(p.shape, prior) for p, prior in priors], self.artwork
                ),
                strict=True,
            )
        )
        # the pieces that moved least first: of two pieces alike, a place goes to the one
        # whose prior lies nearest to it
        fits.sort(key=lambda pf: _moved(self.board, pf[0], pf[1].pose))
        taken: list[Located] = []
        faces: dict[Color, list[np.ndarray]] = {}
        for piece, fit in fits:
            if not self._shows(piece, fit, piece.prior, taken):
                continue
            rivals = self._rivals(piece.shape, fit.pose, taken)
            # a clearly better fit takes the place from a worse one, which is looked for again
            if all(_beats(fit, r) for r in rivals):
                taken = [t for t in taken if t not in rivals]
                taken.append(self._located(piece, fit))
                faces.setdefault(piece.color, []).append(fit.face)
        # a fit on part of an outline is kept only if the searches find no fuller one: a
        # knocked piece's prior fit may hold on to a piece of an edge where it was, or to
        # part of a neighbour of its colour
        tentative = {t.known.id: t for t in taken if self._tentative(t, taken)}
        taken = [t for t in taken if t.known.id not in tentative]
        for placed in taken:
            result[placed.known.id] = placed
        unplaced = [p for p in pieces if p.id not in result]
        placed_from_starts, held = self._from_starts(look, unplaced, taken)
        for placed, face in placed_from_starts:
            result[placed.known.id] = placed
            faces.setdefault(placed.known.color, []).append(face)
        tentative.update({h.known.id: h for h in held})
        pending = [p for p in pieces if p.id not in result]
        # a piece the last look missed where it is still believed, and that every landing
        # leaves there, is not searched for again: nothing moved it since
        stays = {p.id for p in pending if self._stays(p)}
        colour_map: ColourMap | None = None
        if len(stays) < len(pending):
            colour_map = ColourMap(look, self.board, self.colours, self._as_seen(faces))
            for placed in taken:
                assert placed.pose is not None
                colour_map.take(self.board, placed.known.shape, placed.pose)
            # first the pieces a knock moved a little, near their priors; then whatever is
            # left (the new piece, pieces knocked far, pieces with no prior), farther,
            # again for as long as a pass places a piece that may hold up one still
            # missing: a pile is found from the bottom up, one layer a pass
            radius = KNOCKED_MM
            for _ in range(len(pending) + 2):
                waiting = [
                    p
                    for p in pending
                    if p.id not in result
                    and p.id not in stays
                    and ((p.prior is not None and not p.guessed) or math.isinf(radius))
                ]
                placed_now, evicted = self._search_pass(look, colour_map, waiting, taken, radius)
                for placed in placed_now:
                    result[placed.known.id] = placed
                for out in evicted:  # looked for again
                    del result[out.known.id]
                    if out.known not in pending:
                        pending.append(out.known)
                if math.isinf(radius) and not placed_now:
                    break
                radius = math.inf
        missed = [p for p in pending if p.id not in result]
        self._keep_tentative(tentative, result, taken, colour_map)
        for piece in pending:
            result.setdefault(piece.id, Located(piece, piece.prior, False))
        self._missed = {
            p.id: pose for p in missed if (pose := result[p.id].pose) is not None
        }
        return _with_spread(look, [result[p.id] for p in pieces])

    def _from_starts(
        self, look: LookFrames, pieces: Sequence[Known], taken: list[Located]
    ) -> tuple[list[tuple[Located, np.ndarray]], list[Located]]:
        """The pieces of ``pieces`` placed from their :attr:`~Known.starts` (each where its
        best fit that shows it takes no place already taken and could rest), with their
        fits' face colours; ``taken`` follows. A search costs about ten times these fits,
        and a release's landings often hold a piece's place where their median does not
        (on 150 realistic drops of the eye, the dropped piece was searched for on 42,
        about half of them within 2 mm of another landing; with the starts, on 12).
        Second, the tentative fits (not in ``taken``): those that show their piece only
        because they stayed at their start (:meth:`_held`), which a fuller fit the
        searches find replaces."""
        starts = [(p, at) for p in pieces for at in self._distinct(p)]
        if not starts:
            return [], []
        fits = fit_outlines(look, self.board, [(p.shape, at) for p, at in starts], self.artwork)
        options: list[tuple[float, Known, Known, Pose, OutlineFit]] = []
        for (piece, at), fit in zip(starts, fits, strict=True):
            stayed = self._held(piece, fit, at)
            # a fit that stayed shows a guessed piece as it would one seen before
            judged = replace(piece, guessed=False) if stayed else piece
            if (
                fit.found >= PARTIAL_FOUND
                or stayed
                or self._shown(piece, fit, taken) >= GUESS_FOUND
            ):
                options.append((_quality(fit.found, fit.rms_mm), piece, judged, at, fit))
        options.sort(key=lambda option: -option[0])
        placed: list[tuple[Located, np.ndarray]] = []
        held: list[Located] = []
        done: set[str] = set()
        # a round places the pieces that could rest on what is placed so far; the next
        # round those resting on them (a knocked piece placed from its start may hold up
        # the new one, which its prior's place does not)
        while True:
            waiting = [p for p in pieces if p.id not in done]
            space = self._space(taken + [Located(p, p.prior, True) for p in waiting if p.prior])
            best: dict[str, tuple[Known, OutlineFit]] = {}
            for _, piece, judged, at, fit in options:
                if piece.id in done or piece.id in best:
                    continue
                if self._room(judged, fit, taken, at) == [] and self._supported(
                    piece, fit.pose, space
                ):
                    best[piece.id] = (piece, fit)
            count = len(done)
            for piece, fit in best.values():
                done.add(piece.id)
                if self._rivals(piece.shape, fit.pose, taken):
                    continue  # another piece's start took the place
                needed = GUESS_FOUND if piece.guessed else PARTIAL_FOUND
                if self._shown(piece, fit, taken) < needed:
                    held.append(self._located(piece, fit))
                    continue
                taken.append(self._located(piece, fit))
                placed.append((taken[-1], fit.face))
            if len(done) == count:
                return placed, held

    def _as_seen(self, faces: Mapping[Color, Sequence[np.ndarray]]) -> dict[Color, np.ndarray]:
        """Each colour as this look shows it (the median of its located ``faces``), from
        the faces that show it at full strength
        (:meth:`~firmware_host.camera.colours.PieceColours.at_full_strength`): a face
        paled by a glare, or a café's wall of a near hue taken for one, would narrow the
        colour to a shade its pieces are not (seed 3 realistic drop 474 of the eye: a blue
        circle's fit on a pale blue blob behind the pane left the dropped blue square
        unseen)."""
        full = {
            color: kept
            for color, shown in faces.items()
            if (kept := [f for f in shown if self.colours.at_full_strength(f, color)])
        }
        return {color: np.median(np.array(kept), axis=0) for color, kept in full.items()}

    def _stays(self, piece: Known) -> bool:
        """Whether the last look missed ``piece`` (no whole fit) at its prior (within
        :data:`SAME_START_MM`), and every place its :attr:`~Known.starts` give lies that
        close to the prior too: the release's landings all leave it where the last search
        did not find it. (With no starts nothing is known; a piece believed elsewhere,
        the strips having judged while the camera was out, is searched for.)"""
        missed = self._missed.get(piece.id)
        return (
            missed is not None
            and piece.prior is not None
            and not piece.guessed
            and bool(piece.starts)
            and _apart(self.board, piece.shape, piece.prior, missed) <= SAME_START_MM
            and not self._distinct(piece)
        )

    def _distinct(self, piece: Known) -> list[Pose]:
        """``piece``'s :attr:`~Known.starts` less those within :data:`SAME_START_MM` (an
        angle's degree counting as 0.2 mm, up to the shape's symmetry) of its prior or of
        an earlier one, at most :data:`MAX_STARTS`."""
        kept: list[Pose] = []
        for at in piece.starts:
            near = [p for p in (piece.prior, *kept) if p is not None]
            if all(_apart(self.board, piece.shape, at, p) > SAME_START_MM for p in near):
                kept.append(at)
        return kept[:MAX_STARTS]

    def _search_pass(
        self,
        look: LookFrames,
        colour_map: ColourMap,
        waiting: Sequence[Known],
        taken: list[Located],
        radius: float,
    ) -> tuple[list[Located], list[Located]]:
        """One search for ``waiting`` within ``radius`` of their priors (or anywhere): the
        pieces it placed, and the located pieces they displaced (:meth:`_room`).
        ``taken`` and ``colour_map`` follow."""
        if not waiting:
            return [], []
        # pieces that may hold one up: the located, and the others where they were
        holders = taken + [Located(p, p.prior, True) for p in waiting if p.prior]
        options = self._options(look, colour_map, waiting, taken, holders, radius)
        placed_now, evicted = self._place(options, taken)
        if evicted:
            colour_map.retake(self.board, [(t.known.shape, t.pose) for t in taken if t.pose])
        else:
            for placed in placed_now:
                assert placed.pose is not None
                colour_map.take(self.board, placed.known.shape, placed.pose)
        return placed_now, evicted

    def _keep_tentative(
        self,
        tentative: Mapping[str, Located],
        result: dict[str, Located],
        taken: list[Located],
        colour_map: ColourMap | None,
    ) -> None:
        """Place each tentative fit that the searches did not replace, unless its place has
        been taken meanwhile. ``result`` and ``taken`` grow (and ``colour_map``'s taken
        pixels, if a search made one)."""
        for piece_id, placed in tentative.items():
            if piece_id in result or placed.pose is None:
                continue
            if self._rivals(placed.known.shape, placed.pose, taken):
                continue
            result[piece_id] = placed
            taken.append(placed)
            if colour_map is not None:
                colour_map.take(self.board, placed.known.shape, placed.pose)

    def _place(
        self, options: list[tuple[float, Known, OutlineFit]], taken: list[Located]
    ) -> tuple[list[Located], list[Located]]:
        """The best places first, a spot to the piece whose shape and colour explain it
        best; a piece whose best place waits for what holds it to be placed takes none of
        its lesser places meanwhile, only once nothing more can be placed. ``taken``
        follows; the located pieces displaced (:meth:`_room`) come second."""
        options = sorted(options, key=lambda option: -option[0])
        placed: dict[str, Located] = {}
        evicted: list[Located] = []
        given_up: set[str] = set()  # pieces whose better places nothing placed holds
        placing = True
        while placing:
            placing = False
            holders = self._space(taken)
            waiting: set[str] = set()
            for _, piece, fit in options:
                if piece.id in placed or piece.id in waiting:
                    continue
                room = self._room(piece, fit, taken, None)
                if room is None:
                    continue
                if not self._supported(piece, fit.pose, holders):
                    if piece.id not in given_up:
                        waiting.add(piece.id)
                    continue
                for out in room:
                    taken.remove(out)
                    evicted.append(out)
                placed[piece.id] = self._located(piece, fit)
                taken.append(placed[piece.id])
                holders = self._space(taken)
                placing = True
            if not placing and waiting:
                given_up |= waiting
                placing = True
        return list(placed.values()), evicted

    def _options(
        self,
        look: LookFrames,
        colour_map: ColourMap,
        pieces: Sequence[Known],
        taken: list[Located],
        holders: list[Located],
        radius: float,
    ) -> list[tuple[float, Known, OutlineFit]]:
        """The pieces' acceptable places among their search candidates (within ``radius``
        mm of their priors, or anywhere), each with its merit (share of the outline
        found, plus share of the face in the piece's colour, less the distance from the
        prior over :data:`NEAR_PRIOR_MM`). All candidates are fitted in one pass."""
        space = self._space(holders)
        starts: list[tuple[Known, Candidate]] = []
        for piece in pieces:
            found = []
            # a piece with a prior is looked for near it; a circle may roll anywhere, and a
            # guessed prior may be wrong
            anywhere = piece.prior is None or piece.guessed or rolls(self.board, piece.shape)
            if math.isinf(radius) and anywhere:
                found = colour_map.search(
                    self.board, piece.color, piece.shape, None, math.inf, 3 * CANDIDATES
                )
                found = [c for c in found if self._supported(piece, c.pose, space)]
                found = found[:CANDIDATES]
            if piece.prior is not None:  # and the best near its prior: a knock moves it a little
                near = colour_map.search(
                    self.board, piece.color, piece.shape, piece.prior,
                    min(radius, NEAR_PRIOR_MM), CANDIDATES,
                )
                found += [c for c in near if c not in found]
            starts += [(piece, c) for c in found]
        fits = self._fitted(look, starts, taken)
        options = []
        for (piece, candidate), fit in zip(starts, fits, strict=True):
            if self._room(piece, fit, taken, candidate.pose, SEARCH_STAYS_MM) is None:
                continue
            if not self._supported(piece, fit.pose, space):
                continue
            share = colour_map.share_of(self.board, piece.color, piece.shape, fit.pose)
            if share < MIN_SHARE:
                continue
            merit = fit.found + share
            if piece.prior is not None:
                away = math.hypot(fit.pose.x - piece.prior.x, fit.pose.y - piece.prior.y)
                merit -= away / NEAR_PRIOR_MM
            options.append((merit, piece, fit))
        return options

    def _fitted(
        self, look: LookFrames, starts: list[tuple[Known, Candidate]], taken: list[Located]
    ) -> list[OutlineFit]:
        """The fits from the search candidates ``starts``; for a piece with no good fit
        among them, its :data:`RETRIED` best fitted again from nudged starts
        (:data:`NUDGE_MM`), each replaced by the best of those that shows the piece when
        that is better than the fit it had."""
        fits = fit_outlines(
            look, self.board, [(p.shape, c.pose) for p, c in starts], self.artwork, True
        )
        good = {
            piece.id
            for (piece, candidate), fit in zip(starts, fits, strict=True)
            if (piece.prior is not None and not piece.guessed)
            or (fit.found >= GUESS_FOUND
                and self._room(piece, fit, taken, candidate.pose, SEARCH_STAYS_MM)
                is not None)
        }
        rank: dict[str, int] = {}
        retry: list[int] = []
        for i, (piece, _) in enumerate(starts):
            rank[piece.id] = rank.get(piece.id, -1) + 1
            if rank[piece.id] < RETRIED and piece.id not in good:
                retry.append(i)
        nudged = [
            (i, Pose(c.pose.x + dx, c.pose.y + dy, c.pose.angle))
            for i in retry
            for c in (starts[i][1],)
            for dx, dy in ((NUDGE_MM, 0), (-NUDGE_MM, 0), (0, NUDGE_MM), (0, -NUDGE_MM))
        ]
        refits = fit_outlines(
            look, self.board, [(starts[i][0].shape, at) for i, at in nudged], self.artwork, True
        )
        for (i, _), refit in zip(nudged, refits, strict=True):
            piece, candidate = starts[i]
            if self._room(piece, refit, taken, candidate.pose, SEARCH_STAYS_MM) is None:
                continue
            # better than the fit it had, even one that failed: a fit that found the whole
            # outline but moved too far from a poor candidate is not replaced by a worse
            # one the move allows (a dropped square's nudged half fit 1.8 mm off)
            if _quality(fits[i].found, fits[i].rms_mm) >= _quality(refit.found, refit.rms_mm):
                continue
            fits[i] = refit
        return fits

    def _space(self, holders: Sequence[Located]) -> PieceSpace:
        """The pieces that may hold another up, for :meth:`_supported`."""
        return PieceSpace(self.board, [p.piece() for p in holders if p.pose is not None])

    def _supported(self, piece: Known, pose: Pose, holders: PieceSpace) -> bool:
        """Whether ``piece`` could rest at ``pose``: within :data:`SUPPORT_MM` of the floor
        or of another of ``holders`` (a settled piece never floats)."""
        grown = piece_shape(self.board, piece.shape, pose, grow=SUPPORT_MM)
        if extent(grown).bottom <= 0.0:
            return True
        return any(other.id != piece.id for other in holders.met_by(grown))

    def _room(
        self,
        piece: Known,
        fit: OutlineFit,
        taken: list[Located],
        start: Pose | None,
        stays: float = STAYS_MM,
    ) -> list[Located] | None:
        """The located pieces a search's fit of ``piece`` would displace ([] for none), or
        None when it may not be taken: it does not show the piece (:meth:`_shows`), or
        shares a place (:meth:`_rivals`) with a piece it does not clearly beat. It beats
        a piece found on less than :data:`PARTIAL_FOUND` of its outline when its quality
        (:func:`_quality`) is better by :data:`EVICT_MARGIN`: a prior's partial fit may hold
        on to part of an edge beside where its piece lies, and keep the piece that lies
        there from being found (a knocked triangle 97 % found, behind a square held 3.9 mm
        off on half its outline). The displaced piece is looked for again."""
        if not self._shows(piece, fit, start, taken, stays):
            return None
        rivals = self._rivals(piece.shape, fit.pose, taken)
        if all(r.found < PARTIAL_FOUND and _beats(fit, r) for r in rivals):
            return rivals
        return None

    def _shows(
        self,
        piece: Known,
        fit: OutlineFit,
        start: Pose | None,
        taken: Sequence[Located] = (),
        stays: float = STAYS_MM,
    ) -> bool:
        """Whether a fit shows ``piece`` at all: enough outline, tight, its colour, within
        ``stays`` mm of where it started; a guessed piece's outline shown
        (:meth:`_shown`) beside the ``taken`` pieces."""
        if fit.rms_mm > MAX_RMS_MM or fit.found < MIN_FOUND_TIGHT:
            return False
        partial_ok = start is not None and start == piece.prior and not piece.guessed
        if fit.found < MIN_FOUND and not (partial_ok and fit.rms_mm <= TIGHT_RMS_MM):
            return False
        if fit.found < PARTIAL_FOUND and fit.rms_mm > PARTIAL_RMS_MM:
            return False
        if piece.guessed and self._shown(piece, fit, taken) < GUESS_FOUND:
            return False
        if not self.colours.matches(fit.face, piece.color):
            return False
        pose = fit.pose
        return start is None or math.hypot(pose.x - start.x, pose.y - start.y) <= stays

    def _tentative(self, placed: Located, taken: Sequence[Located]) -> bool:
        """Whether a fit from a prior is kept only if the searches find no fuller one: it
        found less than :data:`MIN_FOUND` of its outline, or less than
        :data:`PARTIAL_FOUND` and is loose (:data:`TIGHT_RMS_MM`) or tight where what it
        did not find runs into no face of its colour among ``taken`` (:meth:`_against`;
        :data:`PARTIAL_RMS_MM` says why)."""
        if placed.found < MIN_FOUND:
            return True
        if placed.found >= PARTIAL_FOUND:
            return False
        if placed.rms_mm > TIGHT_RMS_MM or placed.pose is None:
            return True
        return placed.found + self._against(placed.known, placed.pose, taken) < PARTIAL_FOUND

    def _shown(self, piece: Known, fit: OutlineFit, taken: Sequence[Located]) -> float:
        """The share of ``fit``'s outline that shows where ``piece`` lies: the share found,
        and, for a guessed piece's tight fit (:data:`TIGHT_RMS_MM`) from :data:`MIN_FOUND`
        found, the share running into a face of its colour among ``taken``
        (:meth:`_against`). A new piece resting on one of its colour shows no edge
        there: 58-68 % found, 0.1 mm off, it was unseen with :data:`GUESS_FOUND` asked
        of it (seed 3 realistic drops 81, 442, 492, 527 of the eye)."""
        if not piece.guessed or fit.found < MIN_FOUND or fit.rms_mm > TIGHT_RMS_MM:
            return fit.found
        return min(1.0, fit.found + self._against(piece, fit.pose, taken))

    def _against(self, piece: Known, pose: Pose, taken: Sequence[Located]) -> float:
        """The share of ``piece``'s outline at ``pose`` that runs into a face of its colour
        among ``taken``: where the point :data:`AGAINST_MM` out along the outline's normal
        lies on such a piece, no edge shows."""
        reach = self._reach[piece.shape] + AGAINST_MM
        faces = [
            (p.known.shape, p.pose)
            for p in taken
            if p.known.color is piece.color
            and p.known.id != piece.id
            and p.pose is not None
            and math.hypot(p.pose.x - pose.x, p.pose.y - pose.y)
            <= reach + self._reach[p.known.shape]
        ]
        if not faces:
            return 0.0
        outline = outline_points(self.board, piece.shape, pose)
        beyond = outline.points + AGAINST_MM * outline.normals
        against = np.zeros(len(beyond), bool)
        for shape, at in faces:
            against |= _covered(self.board, shape, at, beyond)
        return int(against.sum()) / len(beyond)

    def _held(self, piece: Known, fit: OutlineFit, start: Pose) -> bool:
        """Whether ``fit``, from ``start`` (one of ``piece``'s starts), stayed there
        (within :data:`HELD_MM`, a degree counting 0.2 mm) with tight residuals."""
        return (
            fit.rms_mm <= TIGHT_RMS_MM
            and _apart(self.board, piece.shape, fit.pose, start) <= HELD_MM
        )

    def _rivals(self, shape: Shape, pose: Pose, taken: list[Located]) -> list[Located]:
        """The located pieces a piece at ``pose`` would share a place with: centres
        closer than :data:`SAME_PLACE_MM`, or overlapping by more than
        :data:`MAX_OVERLAP_MM`."""
        # only pieces whose outlines may meet this one's can share its place
        placed = [
            (p, p.pose)
            for p in taken
            if p.pose is not None
            and math.hypot(pose.x - p.pose.x, pose.y - p.pose.y)
            <= self._reach[shape] + self._reach[p.known.shape] + 1.0
        ]
        if not placed:
            return []
        rivals = [
            p for p, at in placed if math.hypot(pose.x - at.x, pose.y - at.y) < SAME_PLACE_MM
        ]
        for p, at in placed:
            if (p.known.shape, at) not in self._shrunk_places:
                self._shrunk_places.add((p.known.shape, at))
                self._shrunk.add(p.piece(at))
        shrunk = piece_shape(self.board, shape, pose, grow=-MAX_OVERLAP_MM / 2)
        # the space holds places since left too: only those of ``placed`` count
        met = {(o.shape, o.pose) for o in self._shrunk.met_by(shrunk)}
        met_ids = {p.known.id for p, at in placed if (p.known.shape, at) in met}
        return rivals + [p for p, _ in placed if p.known.id in met_ids and p not in rivals]

    def _located(self, piece: Known, fit: OutlineFit) -> Located:
        """The piece where ``fit`` put it, with the fit's own deviations (the board's share
        is added once every piece is placed: :func:`_with_spread`)."""
        pose = _canonical(self.board, piece, _inside_walls(self.board, piece.shape, fit.pose))
        return Located(piece, pose, True, fit.sigma, fit.found, fit.rms_mm)


def own_share(sigma: float, spread: float) -> float:
    """A piece's own share of its deviation ``sigma`` (mm), the board's ``spread``
    (:attr:`Located.spread`) taken out: what parts it from another piece of the same look.

    >>> round(own_share(0.1, 0.06), 3)
    0.08
    """
    return math.sqrt(max(sigma * sigma - spread * spread, 0.0))


def _covered(board: Board, shape: Shape, pose: Pose, points: np.ndarray) -> np.ndarray:
    """Whether each point (N x 2, mm) lies on ``shape`` at ``pose`` (inside or on its
    outline): pymunk's point query of :func:`piece_shape` (a distance of at most 0), for
    all the points at once."""
    dims = board.shapes.of(shape)
    x, y = points[:, 0], points[:, 1]
    if isinstance(dims, CircleShape):
        dx, dy = x - pose.x, y - pose.y
        on: np.ndarray = np.sqrt(dx * dx + dy * dy) <= dims.radius
        return on
    placed = corners(board, shape, pose)
    on = np.ones(len(points), bool)
    ax, ay = placed[-1]
    for bx, by in placed:  # counter-clockwise: off where beyond a side, along its normal
        on &= (by - ay) * (x - bx) - (bx - ax) * (y - by) <= 0.0
        ax, ay = bx, by
    return on


def _quality(found: float, rms_mm: float) -> float:
    """How well a fit shows its piece: the share of its outline found, less its residuals
    (mm) over :data:`MAX_RMS_MM`."""
    return found - rms_mm / MAX_RMS_MM


def _beats(fit: OutlineFit, rival: Located) -> bool:
    """Whether ``fit`` shows its piece clearly better than ``rival`` shows its own: its
    quality (:func:`_quality`) is higher by :data:`EVICT_MARGIN`."""
    return _quality(fit.found, fit.rms_mm) > _quality(rival.found, rival.rms_mm) + EVICT_MARGIN


def _moved(board: Board, piece: Known, pose: Pose) -> float:
    """How far a fit lies from the piece's prior (:func:`_apart`; inf without one)."""
    return math.inf if piece.prior is None else _apart(board, piece.shape, pose, piece.prior)


def _apart(board: Board, shape: Shape, pose: Pose, other: Pose) -> float:
    """How far apart two poses of a ``shape`` lie (mm; an angle's degree counts as 0.2 mm,
    up to the shape's symmetry)."""
    period = turn_period(board, shape)
    turn = 0.0 if period >= 360 else (pose.angle - other.angle) % period
    turn = min(turn, period - turn)
    return math.hypot(pose.x - other.x, pose.y - other.y) + 0.2 * turn


def _inside_walls(board: Board, shape: Shape, pose: Pose) -> Pose:
    """``pose`` moved back inside the walls and above the floor when the fit put it
    through them by less than :data:`WALL_SLACK_MM` (a piece rests against them)."""
    box = bounds(board, shape, pose)
    dx = dy = 0.0
    if 0 < -box.left <= WALL_SLACK_MM:
        dx = -box.left
    elif 0 < box.right - board.width <= WALL_SLACK_MM:
        dx = board.width - box.right
    if 0 < -box.bottom <= WALL_SLACK_MM:
        dy = -box.bottom
    return Pose(pose.x + dx, pose.y + dy, pose.angle) if dx or dy else pose


def _canonical(board: Board, piece: Known, pose: Pose) -> Pose:
    """``pose`` with its angle the symmetric equivalent nearest the prior's (into [0, 360)
    without a prior); a circle keeps its prior's angle (or 0)."""
    period = turn_period(board, piece.shape)
    if period >= 360:
        angle = piece.prior.angle if piece.prior is not None else 0.0
        return Pose(pose.x, pose.y, angle)
    if piece.prior is None:
        return Pose(pose.x, pose.y, pose.angle % 360.0)
    turns = round((piece.prior.angle - pose.angle) / period)
    return Pose(pose.x, pose.y, pose.angle + turns * period)


def _with_spread(look: LookFrames, located: list[Located]) -> list[Located]:
    """The located pieces with the board's share of their uncertainty where each lies
    (:meth:`LookFrames.spread_at <firmware_host.camera.scene.LookFrames.spread_at>`) added
    to their deviations and kept as :attr:`Located.spread`."""
    seen = [p for p in located if p.seen and p.pose is not None]
    if not seen:
        return located
    spreads = look.spread_at(np.array([(p.pose.x, p.pose.y) for p in seen if p.pose]))
    widened = {
        p.known.id: replace(
            p,
            sigma=(math.hypot(p.sigma[0], spread), math.hypot(p.sigma[1], spread), p.sigma[2]),
            spread=float(spread),
        )
        for p, spread in zip(seen, spreads, strict=True)
    }
    return [widened.get(p.known.id, p) for p in located]
