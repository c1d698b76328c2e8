"""Forward models of the strips and gates that watch pieces at rest: what the hub would report.

* **curtain** - beam ``i`` is a horizontal line across the drop zone at the table's
  ``curtain_heights[i]``; it is blocked while any piece crosses it: the piece's lowest point
  is at or below the line and its highest at or above it.
* **top gate** - the same, for the beams just above the top edge: blocked by a piece that
  sticks out above the top.
* **edge strip** - element ``i`` of a side is a stretch of that wall; it is pressed when
  any piece comes within the table's ``threshold`` of it. Asked as a pymunk query (the
  landing geometry's way: does the piece meet the element grown by the threshold, a
  stadium), only for pieces whose bounds come that close to a wall.

Every reading is a :class:`~firmware_host.sensors.bits.Bits` of fixed length (bit i =
beam or element i), what the hub's bitmaps carry.

>>> from firmware_host.config.table import load_table
>>> from firmware_host.rules.pieces import Color, Piece, Pose, Shape
>>> strips = StripModel(load_table())
>>> square = Piece("p1", Color.RED, Shape.SQUARE, Pose(100.0, 17.0, 0.0))
>>> snapshot = strips.snapshot([square])
>>> snapshot.curtain.indices(), snapshot.bottom.indices(), snapshot.top_gate.count()
((0, 1, 2, 3, 4, 5, 6), (8, 9, 10, 11), 0)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import pymunk

from firmware_host.config.board import Side
from firmware_host.config.table import Table
from firmware_host.rules.geometry import piece_shape
from firmware_host.rules.pieces import Piece
from firmware_host.sensors.bits import Bits
from firmware_host.sensors.outlines import Outlines

_SIDE_CATEGORY = {Side.LEFT: 1, Side.BOTTOM: 2, Side.RIGHT: 4}


@dataclass(frozen=True, slots=True)
class StripSnapshot:
    """What the strips and the top gate read at one moment."""

    curtain: Bits
    top_gate: Bits
    left: Bits
    bottom: Bits
    right: Bits

    def edge(self, side: Side) -> Bits:
        """The edge-strip elements of ``side``."""
        return {Side.LEFT: self.left, Side.BOTTOM: self.bottom, Side.RIGHT: self.right}[side]


class StripModel:
    """The strips and the top gate of ``table``: from pieces at their poses to readings."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.outlines = Outlines(table.board)
        curtain = table.config.curtain
        self._curtain = (curtain.first, curtain.pitch, curtain.count)
        self._top_heights = table.top_gate_heights
        strip = table.config.edge_strip
        self._threshold = strip.threshold
        self._width = table.board.width
        self._counts = {side: len(strip.spans(side)) for side in Side}
        self._elements = pymunk.Space()
        self._element_of: dict[pymunk.Shape, tuple[Side, int]] = {}
        for side in Side:
            for i, (start, end) in enumerate(strip.spans(side)):
                a, b = self._element_ends(side, start, end)
                element = pymunk.Segment(self._elements.static_body, a, b, strip.threshold)
                element.filter = pymunk.ShapeFilter(categories=_SIDE_CATEGORY[side])
                self._elements.add(element)
                self._element_of[element] = (side, i)

    def _element_ends(
        self, side: Side, start: float, end: float
    ) -> tuple[tuple[float, float], tuple[float, float]]:
        if side is Side.LEFT:
            return (0.0, start), (0.0, end)
        if side is Side.RIGHT:
            return (self._width, start), (self._width, end)
        return (start, 0.0), (end, 0.0)

    def snapshot(self, pieces: Iterable[Piece]) -> StripSnapshot:
        """Every strip's reading for ``pieces`` at rest at their poses."""
        first, pitch, count = self._curtain
        curtain = top = 0
        near: list[tuple[Piece, int]] = []
        threshold, width = self._threshold, self._width
        for piece in pieces:
            pose = piece.pose
            left, bottom, right, up = self.outlines.bounds(piece.shape, pose.x, pose.y, pose.angle)
            curtain |= Bits.span(
                count, math.ceil((bottom - first) / pitch), math.floor((up - first) / pitch)
            ).value
            for i, height in enumerate(self._top_heights):
                if bottom <= height <= up:
                    top |= 1 << i
            sides = 0
            if left <= threshold:
                sides |= _SIDE_CATEGORY[Side.LEFT]
            if bottom <= threshold:
                sides |= _SIDE_CATEGORY[Side.BOTTOM]
            if right >= width - threshold:
                sides |= _SIDE_CATEGORY[Side.RIGHT]
            if sides:
                near.append((piece, sides))
        pressed = self._pressed(near)
        return StripSnapshot(
            Bits(count, curtain),
            Bits(len(self._top_heights), top),
            Bits(self._counts[Side.LEFT], pressed[Side.LEFT]),
            Bits(self._counts[Side.BOTTOM], pressed[Side.BOTTOM]),
            Bits(self._counts[Side.RIGHT], pressed[Side.RIGHT]),
        )

    def _pressed(self, near: list[tuple[Piece, int]]) -> dict[Side, int]:
        """The elements (as bit values per side) that the pieces near a wall press."""
        pressed = dict.fromkeys(Side, 0)
        for piece, sides in near:
            shape = piece_shape(self.table.board, piece.shape, piece.pose)
            shape.filter = pymunk.ShapeFilter(mask=sides)
            for info in self._elements.shape_query(shape):
                if info.shape is not None:
                    side, i = self._element_of[info.shape]
                    pressed[side] |= 1 << i
        return pressed
