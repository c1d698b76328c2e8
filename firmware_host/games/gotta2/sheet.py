"""The GOTTA2 puzzle sheet as data: the board grid, the piece area and the bonus pieces.

The sheet lives in ``config/games/puzzlesheet.yaml`` (documented in
``docs/games/gotta2.md``). A piece is drawn as rows of ``#`` (a cell of the piece) and
``.`` (no cell), top row first, exactly as it is printed; it is never rotated or flipped::

    version: 1
    board: {rows: 8, columns: 8}
    bonus_track: 25                       # boxes in bonus area C, marked in order
    double_selection: {players: 4, frames: [3, 4]}
    frames:
      - frame: 1
        bonus: 1                          # bonus points for placing a piece of this frame
        pieces:
          - {id: "1-1", cells: ["#####"]}
    bonus_pieces:                         # bonus piece area D
      - {id: B5, at: 5, cells: ["##", "##"]}

>>> sheet = load_sheet()
>>> sorted(sheet.piece("3-3").shape.cells)
[(0, 0), (1, 0), (1, 1)]
>>> sheet.frame_of("3-3").bonus, sheet.capacity("3-3", players=4), sheet.capacity("3-3", players=3)
(3, 2, 1)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator

from firmware_host.config.loader import CONFIG_DIR, ConfigValueError, StrictModel, load_model

SHEET = CONFIG_DIR / "games" / "puzzlesheet.yaml"
"""The puzzle sheet shipped with the project."""

Cell = tuple[int, int]
"""A cell as ``(row, column)``, counted from 0 at the top-left."""


@dataclass(frozen=True)
class Shape:
    """A piece's cells relative to the top-left corner of its bounding box."""

    cells: frozenset[Cell]

    @property
    def height(self) -> int:
        """Rows the piece spans."""
        return max(r for r, _ in self.cells) + 1

    @property
    def width(self) -> int:
        """Columns the piece spans."""
        return max(c for _, c in self.cells) + 1

    def at(self, row: int, column: int) -> frozenset[Cell]:
        """The board cells the piece covers with its bounding box's top-left at (row, column)."""
        return frozenset((row + r, column + c) for r, c in self.cells)


def parse_picture(picture: list[str]) -> frozenset[Cell]:
    """The cells a picture of ``#`` and ``.`` draws; raises ``ValueError`` saying what is wrong.

    >>> sorted(parse_picture(["#.", "##"]))
    [(0, 0), (1, 0), (1, 1)]
    """
    if len({len(row) for row in picture}) != 1:
        raise ValueError("every row of the picture must have the same length")
    cells: set[Cell] = set()
    for r, row in enumerate(picture):
        for c, mark in enumerate(row):
            if mark not in "#.":
                raise ValueError(f"row {r} has {mark!r}; draw cells with '#' and gaps with '.'")
            if mark == "#":
                cells.add((r, c))
    if not cells:
        raise ValueError("the picture has no cell ('#')")
    if min(r for r, _ in cells) != 0 or min(c for _, c in cells) != 0:
        raise ValueError("the picture has an empty first row or column; trim it")
    if (
        max(r for r, _ in cells) != len(picture) - 1
        or max(c for _, c in cells) != len(picture[0]) - 1
    ):
        raise ValueError("the picture has an empty last row or column; trim it")
    if not _connected(cells):
        raise ValueError("the cells must be joined side by side into one piece")
    return frozenset(cells)


def _connected(cells: set[Cell]) -> bool:
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for step in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if step in cells and step not in seen:
                seen.add(step)
                todo.append(step)
    return seen == cells


Picture = Annotated[list[str], Field(min_length=1)]


class Piece(StrictModel):
    """A piece in the piece area (``1-1`` ... ``4-n``) or a bonus piece (``B5`` ...)."""

    id: Annotated[str, Field(min_length=1)]
    cells: Picture

    @field_validator("cells")
    @classmethod
    def _valid_picture(cls, picture: list[str]) -> list[str]:
        parse_picture(picture)
        return picture

    @cached_property
    def shape(self) -> Shape:
        """The piece's cells, as drawn (no rotation, no flip)."""
        return Shape(parse_picture(self.cells))

    @property
    def size(self) -> int:
        """How many cells the piece shades."""
        return len(self.shape.cells)


class Frame(StrictModel):
    """A numbered frame of the piece area: its pieces and the bonus points each one awards."""

    frame: Annotated[int, Field(ge=1)]
    bonus: Annotated[int, Field(ge=0)]
    pieces: Annotated[list[Piece], Field(min_length=1)]


class BonusPiece(Piece):
    """A bonus piece of area D: a player places it on reaching ``at`` bonus points."""

    at: Annotated[int, Field(ge=1)]


class BoardSize(StrictModel):
    """The board grid B."""

    rows: Annotated[int, Field(ge=1, le=30)]
    columns: Annotated[int, Field(ge=1, le=30)]


class DoubleSelection(StrictModel):
    """With at least ``players`` players, pieces of ``frames`` may be chosen twice."""

    players: Annotated[int, Field(ge=2)]
    frames: list[int]


class Sheet(StrictModel):
    """A validated puzzle sheet."""

    version: Literal[1]
    board: BoardSize
    bonus_track: Annotated[int, Field(ge=1)]
    double_selection: DoubleSelection
    frames: Annotated[list[Frame], Field(min_length=1)]
    bonus_pieces: list[BonusPiece]

    @model_validator(mode="after")
    def _consistent(self) -> Sheet:
        for i, frame in enumerate(self.frames):
            if frame.frame != i + 1:
                raise ConfigValueError(
                    f"frames[{i}].frame", f"expected {i + 1} (frames count from 1)"
                )
        numbers = {f.frame for f in self.frames}
        for i, number in enumerate(self.double_selection.frames):
            if number not in numbers:
                raise ConfigValueError(
                    f"double_selection.frames[{i}]", f"there is no frame {number}"
                )
        seen: set[str] = set()
        for where, piece in self._pieces_with_keys():
            if piece.id in seen:
                raise ConfigValueError(f"{where}.id", f"piece id {piece.id!r} is used twice")
            seen.add(piece.id)
            if piece.shape.height > self.board.rows or piece.shape.width > self.board.columns:
                raise ConfigValueError(f"{where}.cells", "the piece is larger than the board")
        previous = 0
        for i, bonus in enumerate(self.bonus_pieces):
            if not previous < bonus.at <= self.bonus_track:
                raise ConfigValueError(
                    f"bonus_pieces[{i}].at",
                    f"expected more than {previous} and at most bonus_track ({self.bonus_track})",
                )
            previous = bonus.at
        return self

    def _pieces_with_keys(self) -> Iterator[tuple[str, Piece]]:
        for i, frame in enumerate(self.frames):
            for j, piece in enumerate(frame.pieces):
                yield f"frames[{i}].pieces[{j}]", piece
        for i, bonus in enumerate(self.bonus_pieces):
            yield f"bonus_pieces[{i}]", bonus

    @cached_property
    def pieces(self) -> tuple[Piece, ...]:
        """Every piece of the piece area, frame by frame."""
        return tuple(p for f in self.frames for p in f.pieces)

    def piece(self, piece_id: str) -> Piece | None:
        """The piece-area piece or bonus piece with this id, or None."""
        return self._by_id.get(piece_id)

    def frame_of(self, piece_id: str) -> Frame:
        """The frame that holds a piece of the piece area (``KeyError`` for any other id)."""
        return self._frames_by_piece[piece_id]

    @cached_property
    def _by_id(self) -> dict[str, Piece]:
        return {p.id: p for _, p in self._pieces_with_keys()}

    @cached_property
    def _frames_by_piece(self) -> dict[str, Frame]:
        return {p.id: f for f in self.frames for p in f.pieces}

    def capacity(self, piece_id: str, players: int) -> int:
        """How many times the piece may be chosen in a game of ``players`` players."""
        double = self.double_selection
        frame = self.frame_of(piece_id).frame
        return 2 if players >= double.players and frame in double.frames else 1


def load_sheet(path: Path | str | None = None) -> Sheet:
    """Load and validate a puzzle sheet (the shipped sheet when ``path`` is None)."""
    return load_model(Sheet, path if path is not None else SHEET)
