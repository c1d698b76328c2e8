"""Forward model of the edge strip: which contact elements a piece presses.

Element ``i`` of a side is a stretch of that wall (the table file's ``spans``); a piece
presses it when some point of the piece lies within the strip's ``threshold`` of the
stretch. Worked out exactly, in the wall's own frame (``u`` mm from the wall into the drop
zone, ``v`` mm along it): every point within ``threshold`` of the wall's stretch has
``|u| <= threshold``, so the piece is cut down to that band first. Where the band's part
of the piece overlaps an element's span along ``v``, the element is pressed; an element
just beyond it is pressed only if its nearer end lies within ``threshold`` of the piece.

Chipmunk's queries are not used here: a polygon corner meeting the rounded end of a
segment shape is sometimes reported as not meeting (``tests/sensors/test_strips.py`` pins
the case down), and a piece resting flat against a wall makes that case common.

>>> from firmware_host.config.table import load_table
>>> from firmware_host.games.dropit.rules.pieces import Color, Piece, Pose, Shape
>>> strip = EdgeStrip(load_table())
>>> strip.pressed(Side.LEFT, Piece("p1", Color.RED, Shape.SQUARE, Pose(17.0, 83.5, 0.0)))
(6, 7, 8, 9, 10)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from firmware_host.config.board import Side
from firmware_host.config.table import Table
from firmware_host.games.dropit.rules.pieces import Piece
from firmware_host.sensors.outlines import Outlines

Point = tuple[float, float]


class EdgeStrip:
    """The contact elements of ``table``'s left, bottom and right edges."""

    def __init__(self, table: Table) -> None:
        strip = table.config.edge_strip
        self.threshold = strip.threshold
        self.counts = {side: len(strip.spans(side)) for side in Side}
        self._first, self._pitch, self._length = strip.first, strip.pitch, strip.length
        self._width = table.board.width
        self.outlines = Outlines(table.board)

    def near(
        self, side: Side, bounds: tuple[float, float, float, float], margin: float = 0.0
    ) -> bool:
        """Whether a piece with ``bounds`` (left, bottom, right, top) may press ``side``
        (``margin``: mm added to the threshold, as in :meth:`pressed`)."""
        left, bottom, right, _ = bounds
        threshold = self.threshold + margin
        if side is Side.LEFT:
            return left <= threshold
        if side is Side.RIGHT:
            return right >= self._width - threshold
        return bottom <= threshold

    def _local(self, side: Side, x: float, y: float) -> Point:
        """(x, y) as (distance from the wall ``u``, position along it ``v``)."""
        if side is Side.LEFT:
            return x, y
        if side is Side.RIGHT:
            return self._width - x, y
        return y, x

    def pressed(self, side: Side, piece: Piece, margin: float = 0.0) -> tuple[int, ...]:
        """The elements of ``side`` that ``piece`` presses, lowest index first; with a
        ``margin`` (mm), those it would press were the threshold that much larger (or,
        negative, smaller)."""
        pose = piece.pose
        d = self.threshold + margin
        radius = self.outlines.radius(piece.shape)
        if radius is not None:
            u, v = self._local(side, pose.x, pose.y)
            reach = radius + d
            if abs(u) > reach:
                return ()
            return tuple(
                i
                for i in self._elements_between(side, v - reach, v + reach)
                if _point_to_span(u, v, *self._span(i)) <= reach
            )
        outline = [
            self._local(side, x, y)
            for x, y in self.outlines.corners(piece.shape, pose.x, pose.y, pose.angle)
        ]
        band = _band_range(outline, d)
        if band is None:
            return ()
        low, high = band
        return tuple(
            i
            for i in self._elements_between(side, low - d, high + d)
            if self._presses(outline, i, low, high, d)
        )

    def _presses(
        self, outline: Sequence[Point], i: int, low: float, high: float, threshold: float
    ) -> bool:
        """Whether the polygon whose band part (within ``threshold`` of the wall) spans
        ``low``..``high`` presses element ``i``."""
        start, end = self._span(i)
        if start <= high and end >= low:
            return True
        return _distance(outline, (0.0, end if end < low else start)) <= threshold

    def _span(self, i: int) -> tuple[float, float]:
        start = self._first + i * self._pitch
        return start, start + self._length

    def _elements_between(self, side: Side, low: float, high: float) -> range:
        """The elements whose span meets low..high along the edge."""
        return range(
            max(0, math.ceil((low - self._first - self._length) / self._pitch)),
            min(self.counts[side], math.floor((high - self._first) / self._pitch) + 1),
        )


def _point_to_span(u: float, v: float, start: float, end: float) -> float:
    """Distance from (u, v) to the wall's stretch start..end (at u = 0)."""
    nearest = min(max(v, start), end)
    return math.hypot(u, v - nearest)


def _band_range(outline: Sequence[Point], d: float) -> tuple[float, float] | None:
    """The range along the wall of the polygon's part with -d <= u <= d (None if empty)."""
    vs = []
    u0, v0 = outline[-1]
    for u1, v1 in outline:
        if -d <= u1 <= d:
            vs.append(v1)
        for edge in (-d, d):
            if (u0 - edge) * (u1 - edge) < 0:
                vs.append(v0 + (v1 - v0) * (edge - u0) / (u1 - u0))
        u0, v0 = u1, v1
    return (min(vs), max(vs)) if vs else None


def _distance(outline: Sequence[Point], point: Point) -> float:
    """Distance from ``point`` to the convex polygon ``outline`` (0 inside), whichever way
    round its vertices run (the wall frames of the right and bottom edges mirror it)."""
    pu, pv = point
    sides = set()
    nearest = math.inf
    u0, v0 = outline[-1]
    for u1, v1 in outline:
        du, dv = u1 - u0, v1 - v0
        sides.add(du * (pv - v0) - dv * (pu - u0) >= 0)
        t = max(0.0, min(1.0, ((pu - u0) * du + (pv - v0) * dv) / (du * du + dv * dv)))
        nearest = min(nearest, math.hypot(pu - u0 - t * du, pv - v0 - t * dv))
        u0, v0 = u1, v1
    return 0.0 if len(sides) == 1 else nearest
