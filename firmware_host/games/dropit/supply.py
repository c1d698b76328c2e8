"""The shapes a player or team still has to drop.

Every colour is one complete set of nine shapes: 3 circles, 2 squares, 2 diamonds and
2 triangles. How the sets are dealt out depends on the number of players (see
:mod:`firmware_host.games.dropit.lineup`).

>>> supply = Supply.of({(Color.RED, Shape.CIRCLE): 3, (Color.RED, Shape.SQUARE): 2})
>>> len(supply.take(Color.RED, Shape.CIRCLE))
4
>>> supply.describe()
'3 red circles, 2 red squares'
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from firmware_host.games.dropit.rules.pieces import Color, Shape

COMPLETE_SET: Mapping[Shape, int] = {
    Shape.CIRCLE: 3,
    Shape.SQUARE: 2,
    Shape.DIAMOND: 2,
    Shape.TRIANGLE: 2,
}
"""The shapes of one colour (nine in all)."""

SHAPES_PER_COLOR = sum(COMPLETE_SET.values())
"""Nine: the size of one complete set."""


@dataclass(frozen=True, slots=True)
class Supply:
    """How many of each (colour, shape) are left: an immutable multiset.

    ``counts`` lists only positive counts, in colour then shape order, so that two equal
    supplies compare equal.
    """

    counts: tuple[tuple[Color, Shape, int], ...]

    @classmethod
    def of(cls, counts: Mapping[tuple[Color, Shape], int]) -> Supply:
        """The supply holding ``counts[(colour, shape)]`` of each kind."""
        if any(n < 0 for n in counts.values()):
            raise ValueError("a supply cannot hold a negative number of shapes")
        return cls(
            tuple(
                (color, shape, counts[color, shape])
                for color in Color
                for shape in Shape
                if counts.get((color, shape), 0) > 0
            )
        )

    @classmethod
    def complete_sets(cls, *colors: Color) -> Supply:
        """One complete set of each of ``colors``."""
        return cls.of({(c, s): n for c in colors for s, n in COMPLETE_SET.items()})

    def count(self, color: Color, shape: Shape) -> int:
        """How many ``color`` ``shape`` are left."""
        return next((n for c, s, n in self.counts if c is color and s is shape), 0)

    def take(self, color: Color, shape: Shape) -> Supply:
        """The supply after one ``color`` ``shape`` is dropped; ValueError if there is none."""
        if self.count(color, shape) == 0:
            raise ValueError(f"no {color} {shape} left")
        return Supply.of({(c, s): n - (c is color and s is shape) for c, s, n in self.counts})

    def __add__(self, other: Supply) -> Supply:
        merged: dict[tuple[Color, Shape], int] = {}
        for c, s, n in (*self.counts, *other.counts):
            merged[c, s] = merged.get((c, s), 0) + n
        return Supply.of(merged)

    def __len__(self) -> int:
        return sum(n for _, _, n in self.counts)

    def __iter__(self) -> Iterator[tuple[Color, Shape, int]]:
        return iter(self.counts)

    def describe(self) -> str:
        """The supply in words, e.g. ``3 red circles, 1 red square`` (``nothing`` when empty)."""
        if not self.counts:
            return "nothing"
        return ", ".join(f"{n} {c} {s}{'s' if n > 1 else ''}" for c, s, n in self.counts)
