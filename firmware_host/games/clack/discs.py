"""The Clack! set as data: 36 discs of coloured symbols, a shape die and a colour die.

The set lives in ``config/games/clack.yaml`` (documented in ``docs/games/clack.md``)::

    version: 1
    shape_die: [arrow, star, puzzle, flower, foot, white]     # face index 0..5 -> face
    color_die: [red, green, yellow, blue, purple, white]
    discs:
      - {id: 1, symbols: [red arrow, green star, yellow foot]}
      ...

A symbol is written ``"<colour> <shape>"``. ``white`` is the wild face of each die.

>>> from firmware_host.games.clack.discs import load_disc_set
>>> discs = load_disc_set()
>>> len(discs.discs), discs.shape_die[5], discs.color_die[3]
(36, 'white', 'blue')
>>> [d.id for d in discs.matching("white", "white")] == [d.id for d in discs.discs]
True
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from functools import cached_property
from itertools import product
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator

from firmware_host.config.loader import CONFIG_DIR, ConfigValueError, StrictModel, load_model

DISC_SET = CONFIG_DIR / "games" / "clack.yaml"
"""The disc set shipped with the project."""

WILD = "white"
"""The wild face of both dice."""


class Shape(StrEnum):
    """The five symbol shapes."""

    ARROW = "arrow"
    STAR = "star"
    PUZZLE = "puzzle"
    FLOWER = "flower"
    FOOT = "foot"


class Color(StrEnum):
    """The five symbol colours."""

    RED = "red"
    GREEN = "green"
    YELLOW = "yellow"
    BLUE = "blue"
    PURPLE = "purple"


def symbol(text: str) -> tuple[Color, Shape]:
    """Parse ``"<colour> <shape>"``; anything else raises ``ValueError`` saying what is wrong.

    >>> symbol("blue arrow")
    (<Color.BLUE: 'blue'>, <Shape.ARROW: 'arrow'>)
    """
    words = text.split()
    if len(words) != 2:
        raise ValueError(f"symbol {text!r} must be '<colour> <shape>', e.g. 'blue arrow'")
    color, shape = words
    if color not in Color.__members__.values():
        raise ValueError(f"unknown colour {color!r} in {text!r} (expected one of {_names(Color)})")
    if shape not in Shape.__members__.values():
        raise ValueError(f"unknown shape {shape!r} in {text!r} (expected one of {_names(Shape)})")
    return Color(color), Shape(shape)


def _names(kind: Iterable[StrEnum]) -> str:
    return ", ".join(k.value for k in kind)


class Disc(StrictModel):
    """One magnetic disc: its id and the coloured symbols printed on it."""

    id: Annotated[int, Field(ge=1)]
    symbols: Annotated[list[str], Field(min_length=1)]

    @field_validator("symbols")
    @classmethod
    def _valid_symbols(cls, symbols: list[str]) -> list[str]:
        seen: set[tuple[Color, Shape]] = set()
        for text in symbols:
            parsed = symbol(text)
            if parsed in seen:
                raise ValueError(f"symbol {text!r} appears twice on the disc")
            seen.add(parsed)
        return symbols

    @cached_property
    def pairs(self) -> tuple[tuple[Color, Shape], ...]:
        """The symbols as ``(colour, shape)`` pairs."""
        return tuple(symbol(text) for text in self.symbols)

    def matches(self, shape_face: str, color_face: str) -> bool:
        """Whether the disc shows the rolled shape in the rolled colour (``white`` is wild)."""
        return any(
            (shape_face == WILD or shape == shape_face)
            and (color_face == WILD or color == color_face)
            for color, shape in self.pairs
        )


ShapeFace = Literal["arrow", "star", "puzzle", "flower", "foot", "white"]
ColorFace = Literal["red", "green", "yellow", "blue", "purple", "white"]


class DiscSet(StrictModel):
    """The validated set: the dice faces in face-index order and every disc."""

    version: Literal[1]
    shape_die: Annotated[list[ShapeFace], Field(min_length=6, max_length=6)]
    color_die: Annotated[list[ColorFace], Field(min_length=6, max_length=6)]
    discs: Annotated[list[Disc], Field(min_length=1)]

    @model_validator(mode="after")
    def _consistent(self) -> DiscSet:
        for key, faces, kind in (
            ("shape_die", self.shape_die, Shape),
            ("color_die", self.color_die, Color),
        ):
            expected = {k.value for k in kind} | {WILD}
            if set(faces) != expected:
                missing = ", ".join(sorted(expected - set(faces)))
                raise ConfigValueError(key, f"every face must appear once; missing {missing}")
        seen: dict[int, int] = {}
        for i, disc in enumerate(self.discs):
            if disc.id in seen:
                raise ConfigValueError(
                    f"discs[{i}].id", f"disc id {disc.id} is also used by discs[{seen[disc.id]}]"
                )
            seen[disc.id] = i
        for shape, color in product(Shape, Color):
            if not self.matching(shape, color):
                raise ConfigValueError(
                    "discs", f"no disc shows a {color} {shape}: that roll could never be matched"
                )
        return self

    def matching(self, shape_face: str, color_face: str) -> list[Disc]:
        """The discs of the whole set that match a roll."""
        return [d for d in self.discs if d.matches(shape_face, color_face)]

    def matching_ids(self, shape_face: str, color_face: str) -> frozenset[int]:
        """The ids of the discs that match a roll (looked up, not recomputed)."""
        return self._matching_ids[(shape_face, color_face)]

    @cached_property
    def _matching_ids(self) -> dict[tuple[str, str], frozenset[int]]:
        return {
            (s, c): frozenset(d.id for d in self.matching(s, c))
            for s in self.shape_die
            for c in self.color_die
        }

    def disc(self, disc_id: int) -> Disc | None:
        """The disc with this id, or None."""
        return self._by_id.get(disc_id)

    @cached_property
    def _by_id(self) -> dict[int, Disc]:
        return {d.id: d for d in self.discs}


def load_disc_set(path: Path | str | None = None) -> DiscSet:
    """Load and validate a disc set (the shipped set when ``path`` is None)."""
    return load_model(DiscSet, path if path is not None else DISC_SET)
