"""Forward models of the strips and gates that watch pieces at rest: what the hub would report.

* **curtain** - beam ``i`` is a horizontal line across the drop zone at the table's
  ``curtain_heights[i]``; it is blocked while any piece crosses it: the piece's lowest point
  is at or below the line and its highest at or above it.
* **top gate** - the same, for the beams just above the top edge: blocked by a piece that
  sticks out above the top.
* **edge strip** - element ``i`` of a side is a stretch of that wall; it is pressed when
  any piece comes within the table's ``threshold`` of it (:mod:`.edge_strip`), asked only
  for pieces whose bounds come that close to a wall.

Every reading is a :class:`~firmware_host.sensors.bits.Bits` of fixed length (bit i =
beam or element i), what the hub's bitmaps carry.

>>> from firmware_host.config.table import load_table
>>> from firmware_host.games.dropit.rules.pieces import Color, Piece, Pose, Shape
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

from firmware_host.config.board import Side
from firmware_host.config.table import Table
from firmware_host.games.dropit.rules.pieces import Piece
from firmware_host.sensors.bits import Bits
from firmware_host.sensors.edge_strip import EdgeStrip
from firmware_host.sensors.outlines import Outlines


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

    def mismatches(self, read: StripSnapshot, unsure: StripSnapshot | None = None) -> int:
        """How many bits of ``read`` differ from these, leaving out the bits set in
        ``unsure``.

        >>> mine = StripSnapshot(Bits(3, 0b011), Bits(1), Bits(2), Bits(2, 0b01), Bits(2))
        >>> read = StripSnapshot(Bits(3, 0b110), Bits(1), Bits(2), Bits(2, 0b10), Bits(2))
        >>> mine.mismatches(read), mine.mismatches(read, read)
        (4, 2)
        """
        differ = self.changed(read).bitmaps()
        if unsure is None:
            return sum(d.count() for d in differ)
        return sum(
            (d.value & ~u.value).bit_count()
            for d, u in zip(differ, unsure.bitmaps(), strict=True)
        )

    def changed(self, other: StripSnapshot) -> StripSnapshot:
        """The bits that differ between these and ``other``.

        >>> a = StripSnapshot(Bits(3, 0b011), Bits(1), Bits(2), Bits(2, 0b01), Bits(2))
        >>> b = StripSnapshot(Bits(3, 0b110), Bits(1, 1), Bits(2), Bits(2, 0b01), Bits(2))
        >>> str(a.changed(b).curtain), str(a.changed(b).top_gate), a.changed(b).bottom.count()
        ('101', '1', 0)
        """
        return StripSnapshot(*(
            Bits(len(mine), mine.value ^ theirs.value)
            for mine, theirs in zip(self.bitmaps(), other.bitmaps(), strict=True)
        ))

    def bitmaps(self) -> tuple[Bits, Bits, Bits, Bits, Bits]:
        """The curtain, the top gate and the left, bottom and right edge elements, in the
        order of the fields."""
        return (self.curtain, self.top_gate, self.left, self.bottom, self.right)

    def edge_bitmap(self) -> Bits:
        """The whole edge strip as one bitmap, as the hub reports it: the left side's
        elements (from the bottom), then the bottom's (from the left), then the right
        side's (from the bottom).

        >>> snapshot = StripSnapshot(Bits(2), Bits(1), Bits(2, 1), Bits(3, 4), Bits(2, 3))
        >>> str(snapshot.edge_bitmap())
        '1000111'
        """
        left, bottom, right = self.left, self.bottom, self.right
        value = (
            left.value | bottom.value << left.length | right.value << (left.length + bottom.length)
        )
        return Bits(left.length + bottom.length + right.length, value)


class StripModel:
    """The strips and the top gate of ``table``: from pieces at their poses to readings."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.outlines = Outlines(table.board)
        self.edge_strip = EdgeStrip(table)
        curtain = table.config.curtain
        self._curtain = (curtain.first, curtain.pitch, curtain.count)
        self._top_heights = table.top_gate_heights

    def snapshot(self, pieces: Iterable[Piece], margin: float = 0.0) -> StripSnapshot:
        """Every strip's reading for ``pieces`` at rest at their poses; with a ``margin``
        (mm), as if every piece reached that much farther up, down and towards the walls
        (negative: less far)."""
        first, pitch, count = self._curtain
        curtain = top = 0
        pressed = dict.fromkeys(Side, 0)
        strip = self.edge_strip
        for piece in pieces:
            pose = piece.pose
            bounds = self.outlines.bounds(piece.shape, pose.x, pose.y, pose.angle)
            _, bottom, _, up = bounds
            bottom, up = bottom - margin, up + margin
            low = max(0, math.ceil((bottom - first) / pitch))
            high = min(count - 1, math.floor((up - first) / pitch))
            if low <= high:
                curtain |= ((1 << (high + 1)) - 1) ^ ((1 << low) - 1)
            for i, height in enumerate(self._top_heights):
                if bottom <= height <= up:
                    top |= 1 << i
            for side in Side:
                if strip.near(side, bounds, margin):
                    for i in strip.pressed(side, piece, margin):
                        pressed[side] |= 1 << i
        return StripSnapshot(
            Bits(count, curtain),
            Bits(len(self._top_heights), top),
            Bits(strip.counts[Side.LEFT], pressed[Side.LEFT]),
            Bits(strip.counts[Side.BOTTOM], pressed[Side.BOTTOM]),
            Bits(strip.counts[Side.RIGHT], pressed[Side.RIGHT]),
        )
