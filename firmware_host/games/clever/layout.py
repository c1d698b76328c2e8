"""The game file: the five dice and the printed game sheet of "Auch schon clever", as data.

The file is YAML (``config/games/clever.yaml`` is the reference layout; the format is
documented in ``docs/games/clever.md``)::

    version: 1
    name: reference
    dice:                         # die 0..4, faces 0..5: "<colour> <symbol>" or "joker"
      - [yellow heart, yellow blue, red candle, green present, blue cupcake, joker]
    yellow: {balloons: [{symbol: heart}, {symbol: blue}, {symbol: pink, bonus: blue}]}
    red: {wagons: [{candles: 1}, {candles: 2, stars: 1}, {candles: 3, stars: 2}]}
    blue: {rows: [{symbol: donut, pairs: [{bonus: red}, {stars: 1}]}]}
    green:
      grid: [[present, present], [present, present], [present, present]]
      left_column_stars: 1
      row_stars: 1
      column_bonuses: {2: red}

Every symbol may carry ``stars`` (rainbow stars beside it) and ``bonus`` (the colour of its
bonus circle). :func:`load_layout` checks the whole file and reports the first problem with
the file name and key path.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, Strict, field_validator, model_validator

from firmware_host.config.loader import CONFIG_DIR, ConfigValueError, StrictModel, load_model

REFERENCE_LAYOUT = CONFIG_DIR / "games" / "clever.yaml"
"""The reference layout shipped with the project."""

DICE = 5
"""The game is played with five dice."""

FACES = 6
"""Each die has six faces, numbered 0 to 5."""

JOKER = "joker"
"""How the game file writes a joker face."""

CANDLE = "candle"
"""The one symbol of the red area (every red face shows a candle)."""


class Color(StrEnum):
    """A background colour on the dice, which is also a coloured area of the sheet."""

    YELLOW = "yellow"
    RED = "red"
    GREEN = "green"
    BLUE = "blue"


ColorValue = Annotated[Color, Strict(False)]
Stars = Annotated[int, Field(ge=0)]


class Mark(StrictModel):
    """What may be printed around a symbol: rainbow stars beside it, a coloured bonus circle."""

    stars: Stars = 0
    bonus: ColorValue | None = None


class Balloon(Mark):
    """A balloon of the yellow row; ``symbol`` names its kind (``heart``, ``blue``, ...)."""

    symbol: Annotated[str, Field(min_length=1)]


class Wagon(Mark):
    """A wagon of the red candle train, carrying one to three candles crossed at once."""

    candles: Annotated[int, Field(ge=1, le=3)]


class SweetsRow(StrictModel):
    """A blue row of one sweet (``cupcake``, ``donut``, ``cake``), crossed in pairs."""

    symbol: Annotated[str, Field(min_length=1)]
    pairs: Annotated[list[Mark], Field(min_length=1)]


class YellowArea(StrictModel):
    """The yellow area: the balloons from left to right."""

    balloons: Annotated[list[Balloon], Field(min_length=1)]


class RedArea(StrictModel):
    """The red area: the train's wagons from left to right."""

    wagons: Annotated[list[Wagon], Field(min_length=1)]


class BlueArea(StrictModel):
    """The blue area: rows of sweets, top to bottom."""

    rows: Annotated[list[SweetsRow], Field(min_length=1)]

    @model_validator(mode="after")
    def _distinct(self) -> BlueArea:
        seen: set[str] = set()
        for i, row in enumerate(self.rows):
            if row.symbol in seen:
                raise ConfigValueError(f"rows[{i}].symbol", f"{row.symbol!r} has a row already")
            seen.add(row.symbol)
        return self


class GreenArea(StrictModel):
    """The green area: a grid of presents (rows top to bottom), crossed in any order."""

    grid: Annotated[list[Annotated[list[str], Field(min_length=1)]], Field(min_length=1)]
    left_column_stars: Stars
    row_stars: Stars
    column_bonuses: dict[int, ColorValue] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _rectangular(self) -> GreenArea:
        width = len(self.grid[0])
        for i, row in enumerate(self.grid):
            if len(row) != width:
                raise ConfigValueError(
                    f"grid[{i}]", f"has {len(row)} presents, the first row has {width}"
                )
        for column in self.column_bonuses:
            if not 1 <= column <= width:
                raise ConfigValueError(
                    f"column_bonuses.{column}", f"no such column (expected 1 to {width})"
                )
        return self


class Face(StrictModel):
    """One die face: a background colour and a symbol, or a joker (any colour, any symbol)."""

    color: Color | None
    symbol: str | None

    @property
    def joker(self) -> bool:
        """Whether this is a joker face."""
        return self.color is None

    def describe(self) -> str:
        """The face as the game file writes it: ``yellow heart`` or ``joker``."""
        return JOKER if self.color is None else f"{self.color} {self.symbol}"

    @classmethod
    def parse(cls, text: str) -> Face:
        """Read ``"<colour> <symbol>"`` or ``"joker"``; raises ValueError when it is neither."""
        if text == JOKER:
            return cls(color=None, symbol=None)
        parts = text.split()
        colors = [c.value for c in Color]
        if len(parts) != 2 or parts[0] not in colors:
            raise ValueError(
                f"expected 'joker' or '<colour> <symbol>' with a colour of "
                f"{', '.join(colors)}, got {text!r}"
            )
        return cls(color=Color(parts[0]), symbol=parts[1])


class Layout(StrictModel):
    """A validated game file: the dice and the four areas of the sheet."""

    version: Literal[1]
    name: str
    dice: Annotated[list[list[Face]], Field(min_length=DICE, max_length=DICE)]
    yellow: YellowArea
    red: RedArea
    blue: BlueArea
    green: GreenArea

    @field_validator("dice", mode="before")
    @classmethod
    def _parse_faces(cls, dice: object) -> object:
        if not isinstance(dice, list):
            return dice
        parsed: list[object] = []
        for d, die in enumerate(dice):
            if not isinstance(die, list) or len(die) != FACES:
                raise ConfigValueError(f"[{d}]", f"expected a list of {FACES} faces, got {die!r}")
            faces = []
            for f, text in enumerate(die):
                if not isinstance(text, str):
                    raise ConfigValueError(f"[{d}][{f}]", f"expected a face name, got {text!r}")
                try:
                    faces.append(Face.parse(text))
                except ValueError as exc:
                    raise ConfigValueError(f"[{d}][{f}]", str(exc)) from None
            parsed.append(faces)
        return parsed

    @model_validator(mode="after")
    def _symbols_exist(self) -> Layout:
        symbols = self.symbols()
        for d, die in enumerate(self.dice):
            for f, face in enumerate(die):
                if face.color is not None and face.symbol not in symbols[face.color]:
                    raise ConfigValueError(
                        f"dice[{d}][{f}]",
                        f"no {face.symbol!r} in the {face.color} area "
                        f"(it has {', '.join(sorted(symbols[face.color]))})",
                    )
        return self

    def to_json(self) -> dict[str, Any]:
        """The layout as JSON values, in the game file's own form (faces as ``yellow heart``)."""
        data = self.model_dump(mode="json", exclude_defaults=True)
        data["dice"] = [[face.describe() for face in die] for die in self.dice]
        return data

    def symbols(self) -> dict[Color, set[str]]:
        """The symbols printed in each area."""
        return {
            Color.YELLOW: {b.symbol for b in self.yellow.balloons},
            Color.RED: {CANDLE},
            Color.GREEN: {s for row in self.green.grid for s in row},
            Color.BLUE: {row.symbol for row in self.blue.rows},
        }


def load_layout(path: Path | str | None = None) -> Layout:
    """Load and validate a game file (the reference layout when ``path`` is None).

    >>> layout = load_layout()
    >>> layout.yellow.balloons[0].symbol
    'heart'
    >>> sum(face.joker for die in layout.dice for face in die)
    3
    """
    return load_model(Layout, path if path is not None else REFERENCE_LAYOUT)
