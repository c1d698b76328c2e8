"""The pieces file that ``tabletop camera look`` reads: what the referee knows before it looks.

Format (YAML; units mm and degrees, the frame of :mod:`firmware_host.games.dropit.rules.pieces`)::

    edges: color          # color | shape | none, as in a position file
    pieces:               # every piece on the board, each with its pose before the drop if known
      - {id: p1, color: red, shape: triangle, x: 120.0, y: 17.3, angle: 0}
      - {id: p9, color: blue, shape: square}            # no pose: the newly dropped piece

A piece gives both ``x`` and ``y`` or neither; ``angle`` may be left out (0). Ids are
unique. ``edges`` may be left out (``color``).

>>> known = parse_pieces({"pieces": [{"id": "p9", "color": "blue", "shape": "square"}]}, "f")
>>> known.pieces[0].prior is None, str(known.edges)
(True, 'color')
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import Field, FiniteFloat, ValidationError, model_validator

from firmware_host.camera.locate import Known
from firmware_host.config.board import EdgeFace
from firmware_host.config.loader import (
    ConfigValueError,
    StrictModel,
    format_location,
    load_yaml,
    validation_error,
)
from firmware_host.errors import InputError
from firmware_host.games.dropit.rules.pieces import Color, Pose, Shape


class KnownEntry(StrictModel):
    """One piece as written in a pieces file."""

    id: str = Field(min_length=1)
    color: Color = Field(strict=False)
    shape: Shape = Field(strict=False)
    x: FiniteFloat | None = None
    y: FiniteFloat | None = None
    angle: FiniteFloat | None = None

    @model_validator(mode="after")
    def _whole_position(self) -> KnownEntry:
        if (self.x is None) != (self.y is None):
            raise ConfigValueError("", "give both x and y (a prior pose) or neither")
        if self.x is None and self.angle is not None:
            raise ConfigValueError("angle", "an angle needs x and y too")
        return self

    def known(self) -> Known:
        """The piece this entry describes."""
        prior = None
        if self.x is not None and self.y is not None:
            prior = Pose(self.x, self.y, self.angle or 0.0)
        return Known(self.id, self.color, self.shape, prior)


class PiecesFile(StrictModel):
    """The whole pieces file."""

    edges: EdgeFace = Field(default=EdgeFace.COLOR, strict=False)
    pieces: list[KnownEntry] = Field(min_length=1)


@dataclass(frozen=True)
class KnownPieces:
    """What the referee knows before it looks: the edge face that counts and the pieces."""

    edges: EdgeFace
    pieces: tuple[Known, ...]

    def by_id(self, piece_id: str) -> Known | None:
        """The piece with this id, if any."""
        return next((p for p in self.pieces if p.id == piece_id), None)


def parse_pieces(data: Any, source: str) -> KnownPieces:
    """Check parsed YAML ``data`` (from ``source``) and return the :class:`KnownPieces`."""
    if not isinstance(data, dict):
        raise InputError(source, format_location(()), "expected a mapping with edges, pieces")
    try:
        parsed = PiecesFile.model_validate(data)
    except ValidationError as exc:
        raise validation_error(source, exc) from None
    seen: set[str] = set()
    for i, entry in enumerate(parsed.pieces):
        if entry.id in seen:
            raise InputError(source, f"pieces[{i}].id", f"id {entry.id!r} is used by another piece")
        seen.add(entry.id)
    return KnownPieces(parsed.edges, tuple(entry.known() for entry in parsed.pieces))


def load_pieces(path: Path | str) -> KnownPieces:
    """Read and check a pieces file."""
    return parse_pieces(load_yaml(path), str(path))
