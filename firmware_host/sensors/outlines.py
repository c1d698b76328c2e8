"""Exact, fast geometry of one piece at a pose: its bounds and whether it covers a point.

Plain formulas on the board's shape dimensions (no pymunk objects), because the referee's
eye asks them for many candidate boards per drop.

>>> from firmware_host.config.board import load_board
>>> outlines = Outlines(load_board())
>>> outlines.bounds(Shape.SQUARE, 100.0, 17.0, 0.0)
(83.0, 0.0, 117.0, 34.0)
>>> outlines.covers(Shape.CIRCLE, 100.0, 18.0, 0.0, 110.0, 30.0)
True
"""

from __future__ import annotations

import math

from firmware_host.config.board import Board, CircleShape
from firmware_host.games.dropit.rules.geometry import outline_reach
from firmware_host.games.dropit.rules.pieces import Shape


class Outlines:
    """The four shapes of ``board``, ready for bounds and point queries."""

    def __init__(self, board: Board) -> None:
        self._radius: dict[Shape, float] = {}
        self._vertices: dict[Shape, tuple[tuple[float, float], ...]] = {}
        self._reach: dict[Shape, float] = {}
        for shape in Shape:
            dims = board.shapes.of(shape)
            self._reach[shape] = outline_reach(board, shape)
            if isinstance(dims, CircleShape):
                self._radius[shape] = dims.radius
            else:
                self._vertices[shape] = tuple((x, y) for x, y in dims.vertices)

    def reach(self, shape: Shape) -> float:
        """The farthest any point of ``shape`` lies from its centroid (mm), at any angle."""
        return self._reach[shape]

    def radius(self, shape: Shape) -> float | None:
        """The circle's radius (mm), or None for a polygon."""
        return self._radius.get(shape)

    def corners(self, shape: Shape, x: float, y: float, angle: float) -> list[tuple[float, float]]:
        """A polygon's vertices at centroid (x, y) turned ``angle`` degrees CCW, counter-
        clockwise (mm); empty for the circle."""
        if shape in self._radius:
            return []
        turn = math.radians(angle)
        cos, sin = math.cos(turn), math.sin(turn)
        return [
            (x + vx * cos - vy * sin, y + vx * sin + vy * cos) for vx, vy in self._vertices[shape]
        ]

    def bounds(
        self, shape: Shape, x: float, y: float, angle: float
    ) -> tuple[float, float, float, float]:
        """``(left, bottom, right, top)`` of ``shape`` with centroid (x, y) turned ``angle``
        degrees CCW (mm)."""
        radius = self._radius.get(shape)
        if radius is not None:
            return x - radius, y - radius, x + radius, y + radius
        turn = math.radians(angle)
        cos, sin = math.cos(turn), math.sin(turn)
        xs = [x + vx * cos - vy * sin for vx, vy in self._vertices[shape]]
        ys = [y + vx * sin + vy * cos for vx, vy in self._vertices[shape]]
        return min(xs), min(ys), max(xs), max(ys)

    def covers(self, shape: Shape, x: float, y: float, angle: float, px: float, py: float) -> bool:
        """Whether the point (px, py) lies inside or on ``shape`` at (x, y, ``angle`` degrees)."""
        dx, dy = px - x, py - y
        radius = self._radius.get(shape)
        if radius is not None:
            return dx * dx + dy * dy <= radius * radius
        turn = math.radians(angle)
        cos, sin = math.cos(turn), math.sin(turn)
        lx, ly = dx * cos + dy * sin, dy * cos - dx * sin
        vertices = self._vertices[shape]
        x0, y0 = vertices[-1]
        for x1, y1 in vertices:
            if (x1 - x0) * (ly - y0) - (y1 - y0) * (lx - x0) < 0:
                return False
            x0, y0 = x1, y1
        return True
