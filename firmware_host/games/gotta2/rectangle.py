"""The largest complete rectangle of a board: the basis of the GOTTA2 score.

A rectangle is complete when every cell in it is shaded. The search runs row by row over
the heights of shaded columns ending at that row (the histogram method), so a board of R
rows and C columns takes O(R x C) steps.

>>> board = {(0, 0), (0, 1), (1, 0), (1, 1), (1, 2)}
>>> largest_rectangle(board, rows=2, columns=3)
Rectangle(top=0, left=0, rows=2, columns=2)
"""

from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass

from firmware_host.games.gotta2.sheet import Cell


@dataclass(frozen=True)
class Rectangle:
    """A block of cells: its top-left cell and its size (``rows`` down, ``columns`` across)."""

    top: int
    left: int
    rows: int
    columns: int

    @property
    def area(self) -> int:
        """How many cells the rectangle covers."""
        return self.rows * self.columns

    def cells(self) -> frozenset[Cell]:
        """The cells inside the rectangle."""
        return frozenset(
            (r, c)
            for r in range(self.top, self.top + self.rows)
            for c in range(self.left, self.left + self.columns)
        )


NO_RECTANGLE = Rectangle(top=0, left=0, rows=0, columns=0)
"""The largest rectangle of a board with no shaded cell."""


def largest_rectangle(shaded: Set[Cell], rows: int, columns: int) -> Rectangle:
    """The largest rectangle of shaded cells (the first found, top to bottom, on a tie)."""
    best = NO_RECTANGLE
    heights = [0] * columns
    for row in range(rows):
        for col in range(columns):
            heights[col] = heights[col] + 1 if (row, col) in shaded else 0
        stack: list[int] = []  # columns with increasing heights
        for col in range(columns + 1):
            height = heights[col] if col < columns else 0
            while stack and heights[stack[-1]] >= height:
                tall = heights[stack.pop()]
                left = stack[-1] + 1 if stack else 0
                width = col - left
                if tall * width > best.area:
                    best = Rectangle(top=row - tall + 1, left=left, rows=tall, columns=width)
            stack.append(col)
    return best
