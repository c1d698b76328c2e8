"""The game sheet as boxes to cross: which are crossable now, what they earn, and the stars.

A player's sheet is just the set of box ids they crossed; :class:`Sheet` knows the printed
layout and answers every question about such a set. Box ids are stable names the journal
and the page use:

- ``yellow.3``: the third balloon from the left,
- ``red.2``: the second wagon of the train (all its candles at once),
- ``blue.donut.1``: the first pair of donuts (both at once),
- ``green.2.4``: the present in row 2 (from the top), column 4 (from the left).

>>> from firmware_host.games.clever.layout import load_layout
>>> sheet = Sheet(load_layout())
>>> [box.id for box in sheet.crossable(frozenset(), Color.YELLOW)]
['yellow.1']
>>> sheet.box("red.1").size
2
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware_host.games.clever.layout import CANDLE, Color, Layout, Mark

Crossed = frozenset[str]
"""A player's sheet: the ids of the boxes they crossed."""


@dataclass(frozen=True, slots=True)
class Box:
    """One symbol a player crosses whole: a balloon, a wagon, a pair of sweets or a present.

    ``size`` is how many dice showing ``symbol`` (or jokers) it needs at once; ``track`` is
    the row it must be crossed in order along (None for presents, crossed in any order);
    ``bonus`` is the colour of its bonus circle, ``stars`` the rainbow stars beside it.
    """

    id: str
    area: Color
    symbol: str
    size: int
    track: str | None
    stars: int
    bonus: Color | None
    name: str

    def describe(self) -> str:
        """The box as a player says it, with its id: ``balloon 3 (pink) [yellow.3]``."""
        return f"{self.name} [{self.id}]"


class Sheet:
    """The printed sheet of a layout: its boxes, the order rules, the bonuses and the stars."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        boxes: list[Box] = []
        for i, balloon in enumerate(layout.yellow.balloons, start=1):
            boxes.append(
                _box(
                    f"yellow.{i}",
                    Color.YELLOW,
                    balloon.symbol,
                    1,
                    "yellow",
                    balloon,
                    f"balloon {i} ({balloon.symbol})",
                )
            )
        for i, wagon in enumerate(layout.red.wagons, start=1):
            candles = "1 candle" if wagon.candles == 1 else f"{wagon.candles} candles"
            boxes.append(
                _box(
                    f"red.{i}",
                    Color.RED,
                    CANDLE,
                    wagon.candles,
                    "red",
                    wagon,
                    f"wagon {i} ({candles})",
                )
            )
        for row in layout.blue.rows:
            track = f"blue.{row.symbol}"
            for i, pair in enumerate(row.pairs, start=1):
                boxes.append(
                    _box(
                        f"{track}.{i}",
                        Color.BLUE,
                        row.symbol,
                        2,
                        track,
                        pair,
                        f"{row.symbol} pair {i}",
                    )
                )
        for r, row_symbols in enumerate(layout.green.grid, start=1):
            for c, symbol in enumerate(row_symbols, start=1):
                boxes.append(
                    _box(
                        f"green.{r}.{c}",
                        Color.GREEN,
                        symbol,
                        1,
                        None,
                        Mark(),
                        f"{symbol} at row {r}, column {c}",
                    )
                )
        self.boxes: dict[str, Box] = {box.id: box for box in boxes}
        self.tracks: dict[str, tuple[Box, ...]] = {}
        for box in boxes:
            if box.track is not None:
                self.tracks[box.track] = (*self.tracks.get(box.track, ()), box)
        self.areas: dict[Color, tuple[Box, ...]] = {
            color: tuple(b for b in boxes if b.area is color) for color in Color
        }
        grid = layout.green.grid
        self.rows: tuple[tuple[str, ...], ...] = tuple(
            tuple(f"green.{r}.{c}" for c in range(1, len(grid[0]) + 1))
            for r in range(1, len(grid) + 1)
        )
        self.columns: tuple[tuple[str, ...], ...] = tuple(zip(*self.rows, strict=True))

    def box(self, box_id: str) -> Box:
        """The box called ``box_id``; KeyError if the sheet has none."""
        return self.boxes[box_id]

    def crossable(self, crossed: Crossed, area: Color) -> list[Box]:
        """The boxes of ``area`` that may be crossed next (the first open one of each row)."""
        if area is Color.GREEN:
            return [b for b in self.areas[area] if b.id not in crossed]
        heads = []
        for track in self.tracks.values():
            if track[0].area is area:
                head = next((b for b in track if b.id not in crossed), None)
                if head is not None:
                    heads.append(head)
        return heads

    def why_not(self, crossed: Crossed, box: Box) -> str | None:
        """Why ``box`` cannot be crossed next (the rule it would break), or None if it can."""
        if box.id in crossed:
            return f"{box.describe()} is crossed already"
        if box.track is None:
            return None
        head = next(b for b in self.tracks[box.track] if b.id not in crossed)
        if head is box:
            return None
        what = {Color.YELLOW: "balloons", Color.RED: "the wagons"}.get(box.area, "sweets")
        return (
            f"{what} are crossed from left to right without skipping: {head.describe()} comes first"
        )

    def earned(self, crossed: Crossed, box: Box) -> list[Color]:
        """The bonus crosses earned by crossing ``box`` on a sheet that had ``crossed``.

        A bonus circle around the box, and for a present, the colour bonus of a column it
        completes.
        """
        bonuses = [box.bonus] if box.bonus is not None else []
        after = crossed | {box.id}
        for number, column in enumerate(self.columns, start=1):
            color = self.layout.green.column_bonuses.get(number)
            if color is not None and box.id in column and all(c in after for c in column):
                bonuses.append(color)
        return bonuses

    def complete(self, crossed: Crossed, area: Color) -> bool:
        """Whether every symbol of ``area`` is crossed (which ends the game)."""
        return all(b.id in crossed for b in self.areas[area])

    def stars(self, crossed: Crossed) -> dict[Color, int]:
        """Rainbow stars per area: beside crossed symbols; green: left column and full rows."""
        result = {
            color: sum(b.stars for b in self.areas[color] if b.id in crossed) for color in Color
        }
        green = self.layout.green
        full_rows = sum(all(c in crossed for c in row) for row in self.rows)
        left_full = all(c in crossed for c in self.columns[0])
        result[Color.GREEN] = full_rows * green.row_stars + left_full * green.left_column_stars
        return result

    def total_stars(self, crossed: Crossed) -> int:
        """All the rainbow stars of a sheet."""
        return sum(self.stars(crossed).values())


def _box(
    box_id: str, area: Color, symbol: str, size: int, track: str | None, mark: Mark, name: str
) -> Box:
    return Box(box_id, area, symbol, size, track, mark.stars, mark.bonus, name)
