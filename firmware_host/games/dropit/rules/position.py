"""The position file that ``tabletop judge`` reads: the pieces on the board and the dropped one.

Format (YAML; units mm and degrees, frame as in :mod:`firmware_host.games.dropit.rules.pieces`)::

    edges: color          # color | shape | none  (which edge symbols count; none = easy variant)
    pieces:               # every piece already on the board, at its resting pose
      - {id: p1, color: red, shape: triangle, x: 120.0, y: 17.3, angle: 0}
    dropped: {color: blue, shape: square, x: 200.0, y: 14.0, angle: 0}

``angle`` may be left out (0). ``dropped`` may carry an ``id`` (default ``dropped``).
Piece ids must be unique.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import Field, ValidationError

from firmware_host.config.board import EdgeFace
from firmware_host.config.loader import (
    Degrees,
    Millimetres,
    StrictModel,
    format_location,
    load_yaml,
    validation_error,
)
from firmware_host.errors import InputError
from firmware_host.games.dropit.rules.pieces import Color, Piece, Pose, Shape


class PieceEntry(StrictModel):
    """One piece as written in a position file."""

    id: str = Field(min_length=1)
    color: Color = Field(strict=False)
    shape: Shape = Field(strict=False)
    x: Millimetres
    y: Millimetres
    angle: Degrees = 0.0

    def piece(self) -> Piece:
        """The piece this entry describes."""
        return Piece(self.id, self.color, self.shape, Pose(self.x, self.y, self.angle))


class DroppedEntry(PieceEntry):
    """The dropped piece: like any piece, but its id is optional."""

    id: str = Field(default="dropped", min_length=1)


class PositionFile(StrictModel):
    """The whole position file."""

    edges: EdgeFace = Field(strict=False)
    pieces: list[PieceEntry] = Field(default_factory=list)
    dropped: DroppedEntry


@dataclass(frozen=True)
class Position:
    """A landing to referee: the edge face that counts, the pieces resting, the dropped piece."""

    edges: EdgeFace
    pieces: tuple[Piece, ...]
    dropped: Piece

    def where(self, piece: Piece) -> str:
        """How a position file names ``piece``: ``pieces[2] (id p3)`` or ``dropped``."""
        if piece is self.dropped:
            return "dropped"
        return f"pieces[{self.pieces.index(piece)}] (id {piece.id})"


def _name_piece(where: str, data: dict[str, Any]) -> str:
    """Add the piece's id to a location such as ``pieces[2].color`` when the file gives one."""
    if not where.startswith("pieces["):
        return where
    index = int(where[len("pieces[") : where.index("]")])
    pieces = data.get("pieces")
    if isinstance(pieces, list) and index < len(pieces) and isinstance(pieces[index], dict):
        piece_id = pieces[index].get("id")
        if isinstance(piece_id, str):
            head, _, rest = where.partition("]")
            return f"{head}] (id {piece_id}){rest}"
    return where


def parse_position(data: Any, source: str) -> Position:
    """Check parsed YAML ``data`` (from ``source``) and return the :class:`Position`."""
    if not isinstance(data, dict):
        raise InputError(
            source, format_location(()), "expected a mapping with edges, pieces, dropped"
        )
    try:
        parsed = PositionFile.model_validate(data)
    except ValidationError as exc:
        error = validation_error(source, exc)
        raise InputError(source, _name_piece(error.where, data), error.problem) from None
    seen: set[str] = set()
    pieces = tuple(entry.piece() for entry in parsed.pieces)
    dropped = parsed.dropped.piece()
    for i, piece in enumerate((*pieces, dropped)):
        if piece.id in seen:
            where = "dropped" if i == len(pieces) else f"pieces[{i}]"
            raise InputError(source, f"{where}.id", f"id {piece.id!r} is used by another piece")
        seen.add(piece.id)
    return Position(parsed.edges, pieces, dropped)


def load_position(path: Path | str) -> Position:
    """Read and check a position file."""
    return parse_position(load_yaml(path), str(path))
