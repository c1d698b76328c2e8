"""The pieces of Drop It: four colours, four shapes, and where a piece rests.

Units everywhere: millimetres and degrees. Origin at the inner bottom-left corner of the
drop zone, x to the right, y up. A pose's ``x`` and ``y`` are the shape's centroid and its
``angle`` turns the shape counter-clockwise from its reference orientation (square: sides
horizontal and vertical; diamond: long diagonal vertical; triangle: one side horizontal at
the bottom, apex up).

>>> p = Piece("p1", Color.RED, Shape.TRIANGLE, Pose(120.0, 17.3, 0.0))
>>> p.describe()
'red triangle'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Color(StrEnum):
    """The four piece colours (also the symbols on the colour face of the edge pieces)."""

    RED = "red"
    BLUE = "blue"
    YELLOW = "yellow"
    GREEN = "green"


class Shape(StrEnum):
    """The four piece shapes (also the symbols on the shape face of the edge pieces)."""

    CIRCLE = "circle"
    SQUARE = "square"
    DIAMOND = "diamond"
    TRIANGLE = "triangle"


@dataclass(frozen=True, slots=True)
class Pose:
    """Where a shape rests: centroid ``x``, ``y`` in mm and ``angle`` in degrees (CCW)."""

    x: float
    y: float
    angle: float = 0.0


@dataclass(frozen=True, slots=True)
class Piece:
    """One physical piece at its resting pose."""

    id: str
    color: Color
    shape: Shape
    pose: Pose

    def describe(self) -> str:
        """The piece as a player says it, e.g. ``blue square``."""
        return f"{self.color} {self.shape}"
