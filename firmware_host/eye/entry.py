"""What the entry gate tells the eye: which piece passes, where and how it was let go.

A falling piece crosses the gate's row in free fall (the panes' drag aside), so each cut
beam says when the piece's outline, along that beam's vertical line, reached the row
(cut) and left it (clear). For a guess of the piece's x and angle, the outline's chord at
each beam is known, and the fall distance since release, ``(g - drag) (t - dt/2)^2 / 2``,
turns every cut and clear time into one estimate of the release height: a good guess
makes them agree and cuts exactly the beams that were cut. :func:`fit_release` searches
x and angle on a grid, then refines; it keeps the best few distinct angles (modes), since
a mirror image or a turn can look alike through a 10 mm comb of beams.

Noise handled here: cuts shorter than ``min_cut_ms`` are flicker; a beam cut from
release that never clears is stuck; a beam cut twice keeps its longest cut.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from firmware_host.config.board import CircleShape
from firmware_host.config.table import Table
from firmware_host.eye.config import EntryFit
from firmware_host.games.dropit.rules.geometry import turn_period
from firmware_host.games.dropit.rules.pieces import Shape
from firmware_host.model.params import PhysicsParams
from firmware_host.sensors.entry_gate import BeamCut


@dataclass(frozen=True, slots=True)
class Pass:
    """A beam's cut as the eye uses it: seconds since release (``clear`` None: never)."""

    beam: int
    cut: float
    clear: float | None


@dataclass(frozen=True, slots=True)
class Release:
    """A fitted release: centroid ``x``, ``y`` (mm) and ``angle`` (degrees) at release,
    with the fit's ``cost`` (about a chi-square: lower is better)."""

    x: float
    y: float
    angle: float
    cost: float


def passes(cuts: tuple[BeamCut, ...], released_us: int, fit: EntryFit) -> tuple[Pass, ...]:
    """The cuts that are the piece: flicker and stuck beams dropped, one per beam."""
    best: dict[int, Pass] = {}
    for cut in cuts:
        if cut.clear_us is None and cut.cut_us <= released_us:
            continue
        start = (cut.cut_us - released_us) / 1e6
        end = None if cut.clear_us is None else (cut.clear_us - released_us) / 1e6
        length = math.inf if end is None else end - start
        if length * 1000 < fit.min_cut_ms:
            continue
        held = best.get(cut.beam)
        if held is None or length > _length(held):
            best[cut.beam] = Pass(cut.beam, start, end)
    return tuple(sorted(best.values(), key=lambda p: (p.cut, p.beam)))


def _length(p: Pass) -> float:
    return math.inf if p.clear is None else p.clear - p.cut


def second_piece(found: tuple[Pass, ...], fit: EntryFit) -> bool:
    """Whether the passes fall into two groups in time: a second piece dropped before the
    first one settled."""
    end = -math.inf
    for p in found:
        if end > -math.inf and p.cut - end > fit.second_drop_gap_ms / 1000:
            return True
        end = max(end, math.inf if p.clear is None else p.clear)
    return False


class ReleaseFit:
    """Fits the release of a piece of ``table``'s board from its entry-gate passes."""

    def __init__(self, table: Table, params: PhysicsParams, fit: EntryFit) -> None:
        self.table = table
        self.fit = fit
        self.beams = table.entry_beams
        self.row = table.entry_row
        self.fall = params.gravity - params.pane_drag.linear
        self.lag = params.time_step / 2
        self._outline: dict[Shape, tuple[float, tuple[tuple[float, float], ...]]] = {}
        for shape in Shape:
            dims = table.board.shapes.of(shape)
            if isinstance(dims, CircleShape):
                self._outline[shape] = (dims.radius, ())
            else:
                self._outline[shape] = (0.0, tuple((x, y) for x, y in dims.vertices))

    def period(self, shape: Shape) -> float:
        """The shape's turn symmetry (degrees): 90 for a square, 360 for none."""
        return turn_period(self.table.board, shape)

    def distance(self, t: float) -> float:
        """How far (mm) a piece let go at rest has fallen ``t`` seconds after release."""
        s = max(0.0, t - self.lag)
        return 0.5 * self.fall * s * s

    def modes(self, shape: Shape, found: tuple[Pass, ...]) -> list[Release]:
        """The best distinct releases explaining ``found`` (best first; empty with no pass)."""
        if not found:
            return []
        radius, vertices = self._outline[shape]
        reach = radius or max(math.hypot(x, y) for x, y in vertices)
        cut = [self.beams[p.beam] for p in found]
        low, high = max(cut) - reach, min(cut) + reach
        if low > high:
            low, high = high, low
        timed = self._timed(found)
        period = self.period(shape)
        step = self.fit.angle_step if not radius else period
        coarse: list[Release] = []
        for k in range(max(1, round(period / step))):
            angle = k * step
            outline = _turn(vertices, angle)
            x = low
            best: Release | None = None
            while x <= high + 1e-9:
                trial = self._cost(radius, outline, x, angle, timed)
                if best is None or trial.cost < best.cost:
                    best = trial
                x += self.fit.x_step
            if best is not None:
                coarse.append(best)
        coarse.sort(key=lambda r: r.cost)
        chosen: list[Release] = []
        for guess in coarse:
            if all(_apart(guess.angle, c.angle, period) > 2 * step for c in chosen):
                chosen.append(self._refine(radius, vertices, guess, timed))
            if len(chosen) == self.fit.modes:
                break
        return sorted(chosen, key=lambda r: r.cost)

    def _timed(self, found: tuple[Pass, ...]) -> _Timed:
        """``found`` as the cost needs it: each pass's beam x and fall distances at its
        cut and clear, the beams seen, and the furthest fall at a cut."""
        passes = tuple(
            (
                self.beams[p.beam],
                self.distance(p.cut),
                None if p.clear is None else self.distance(p.clear),
            )
            for p in found
        )
        seen = {p.beam for p in found}
        unseen = tuple(bx for beam, bx in enumerate(self.beams) if beam not in seen)
        return _Timed(passes, unseen, max(self.distance(p.cut) for p in found))

    def _refine(
        self,
        radius: float,
        vertices: tuple[tuple[float, float], ...],
        guess: Release,
        timed: _Timed,
    ) -> Release:
        best = guess
        dx, da = self.fit.x_step / 2, (self.fit.angle_step / 2 if not radius else 0.0)
        for _ in range(3):
            for i in (-1, 0, 1):
                for j in (-1, 0, 1) if da else (0,):
                    angle = best.angle + j * da
                    trial = self._cost(
                        radius, _turn(vertices, angle), best.x + i * dx, angle, timed
                    )
                    if trial.cost < best.cost:
                        best = trial
            dx, da = dx / 2, da / 2
        return best

    def _cost(
        self,
        radius: float,
        outline: tuple[tuple[float, float], ...],
        x: float,
        angle: float,
        timed: _Timed,
    ) -> Release:
        """How badly a release at ``x``, ``angle`` explains the passes ``timed``."""
        fit = self.fit
        heights: list[float] = []
        misses = 0
        for beam_x, cut, clear in timed.passes:
            chord = _chord(radius, outline, beam_x - x)
            if chord is None or chord[1] - chord[0] < fit.ignore_chord:
                misses += chord is None
                continue
            heights.append(cut - chord[0])
            if clear is not None:
                heights.append(clear - chord[1])
        left, right = _span(radius, outline)
        for bx in timed.unseen:
            if not x + left < bx < x + right:
                continue
            chord = _chord(radius, outline, bx - x)
            if chord is not None and chord[1] - chord[0] >= fit.ignore_chord:
                misses += 1
        if heights:
            height = sum(heights) / len(heights)
            spread = sum((h - height) ** 2 for h in heights) / fit.timing_sigma**2
        else:
            height = timed.deepest + (radius or _bottom(outline))
            spread = 0.0
        return Release(x, self.row + height, angle % 360.0, spread + misses * fit.beam_miss_cost)


@dataclass(frozen=True, slots=True)
class _Timed:
    """The passes as :meth:`ReleaseFit._cost` uses them (see :meth:`ReleaseFit._timed`)."""

    passes: tuple[tuple[float, float, float | None], ...]
    unseen: tuple[float, ...]
    """The x of every beam no pass cut."""
    deepest: float


def _turn(
    vertices: tuple[tuple[float, float], ...], angle: float
) -> tuple[tuple[float, float], ...]:
    turn = math.radians(angle)
    cos, sin = math.cos(turn), math.sin(turn)
    return tuple((x * cos - y * sin, x * sin + y * cos) for x, y in vertices)


def _span(radius: float, outline: tuple[tuple[float, float], ...]) -> tuple[float, float]:
    if radius:
        return -radius, radius
    xs = [x for x, _ in outline]
    return min(xs), max(xs)


def _bottom(outline: tuple[tuple[float, float], ...]) -> float:
    return -min(y for _, y in outline)


def _chord(
    radius: float, outline: tuple[tuple[float, float], ...], d: float
) -> tuple[float, float] | None:
    """The outline's extent along the vertical line at ``d`` from the centroid: (low, high)
    relative to the centroid, or None when the line misses it."""
    if radius:
        if abs(d) >= radius:
            return None
        h = math.sqrt(radius * radius - d * d)
        return -h, h
    ys: list[float] = []
    x0, y0 = outline[-1]
    for x1, y1 in outline:
        if (x0 - d) * (x1 - d) <= 0 and x0 != x1:
            ys.append(y0 + (y1 - y0) * (d - x0) / (x1 - x0))
        x0, y0 = x1, y1
    if len(ys) < 2:
        return None
    return min(ys), max(ys)


def _apart(a: float, b: float, period: float) -> float:
    """How far apart two angles are, modulo ``period``."""
    d = (a - b) % period
    return min(d, period - d)
