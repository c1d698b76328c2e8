"""Forward model of a what-if sensor: a grid of break beams through the panes.

Like the entry gate's beams, each beam runs front to back through the two panes and is a
point of the board's plane; a **pane grid** puts one on every point of a square lattice
over the whole drop zone (by default every 10 mm: x = 5, 15, ..., y = 5, 15, ...). A beam
is cut while a piece covers its point (inside or on the outline). No table has it: it is
neither in the table file nor in the hub protocol, only in the perfect-eye bound
(:mod:`simulator.bound`, docs/eye-bound.md), to measure what a sensor that sees the
interior of the pile would be worth.

Bit ``row * columns + column`` is the beam at ``(first + column * pitch, first + row *
pitch)``.

>>> from firmware_host.config.board import load_board
>>> from firmware_host.games.dropit.rules.pieces import Color, Piece, Pose, Shape
>>> grid = PaneGrid(load_board())
>>> grid.columns, grid.rows
(30, 30)
>>> square = Piece("p1", Color.RED, Shape.SQUARE, Pose(100.0, 17.0, 0.0))
>>> [grid.point(i) for i in grid.snapshot([square]).indices()][:4]
[(85.0, 5.0), (95.0, 5.0), (105.0, 5.0), (115.0, 5.0)]
>>> grid.snapshot([square]).count()
12
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from firmware_host.config.board import Board
from firmware_host.games.dropit.rules.pieces import Piece
from firmware_host.sensors.bits import Bits
from firmware_host.sensors.outlines import Outlines


class PaneGrid:
    """Beams through the panes of ``board`` every ``pitch`` mm, the first at ``first`` mm
    from the bottom-left corner, covering the drop zone."""

    def __init__(self, board: Board, pitch: float = 10.0, first: float = 5.0) -> None:
        self.pitch = pitch
        self.first = first
        self.columns = math.floor((board.width - first) / pitch) + 1
        self.rows = math.floor((board.height - first) / pitch) + 1
        self.outlines = Outlines(board)

    def point(self, beam: int) -> tuple[float, float]:
        """Where beam ``beam`` crosses the board (mm)."""
        row, column = divmod(beam, self.columns)
        return self.first + column * self.pitch, self.first + row * self.pitch

    def snapshot(self, pieces: Iterable[Piece]) -> Bits:
        """Which beams ``pieces`` at their poses cut."""
        cut = 0
        outlines, first, pitch = self.outlines, self.first, self.pitch
        for piece in pieces:
            shape, pose = piece.shape, piece.pose
            left, bottom, right, top = outlines.bounds(shape, pose.x, pose.y, pose.angle)
            low_c = max(0, math.ceil((left - first) / pitch))
            high_c = min(self.columns - 1, math.floor((right - first) / pitch))
            low_r = max(0, math.ceil((bottom - first) / pitch))
            high_r = min(self.rows - 1, math.floor((top - first) / pitch))
            for row in range(low_r, high_r + 1):
                py = first + row * pitch
                for column in range(low_c, high_c + 1):
                    px = first + column * pitch
                    if outlines.covers(shape, pose.x, pose.y, pose.angle, px, py):
                        cut |= 1 << (row * self.columns + column)
        return Bits(self.columns * self.rows, cut)
