"""``tabletop camera calibrate FRAME... --pieces PIECES.yaml --out FILE [--table FILE]``.

Measures a café's own piece colours from frames of pieces at known poses and writes a
calibration file (:mod:`firmware_host.camera.calibration`). ``PIECES.yaml`` is the format
of ``camera look``'s pieces file, every piece with its pose::

    edges: color                      # optional here
    pieces:
      - {id: r1, color: red, shape: square, x: 60.0, y: 15.0, angle: 0}
      - {id: b1, color: blue, shape: circle, x: 120.0, y: 16.0}

Every colour needs at least one piece.
"""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from typing import Annotated, Any

from pydantic import Field

from firmware_host.camera.calibration import save_calibration
from firmware_host.camera.piece_colours import measure_colors
from firmware_host.camera.scene import LookFrames
from firmware_host.camera.sources import FileSource
from firmware_host.camera.tables import table_camera
from firmware_host.config.board import EdgeFace
from firmware_host.config.loader import StrictModel, load_model
from firmware_host.errors import InputError
from firmware_host.games.dropit.rules.pieces import Color, Piece
from firmware_host.games.dropit.rules.position import PieceEntry


class PosedPieces(StrictModel):
    """A pieces file whose every piece has a pose."""

    edges: EdgeFace | None = Field(default=None, strict=False)
    pieces: Annotated[list[PieceEntry], Field(min_length=1)]


def register(camera_subparsers: Any) -> None:
    """Add ``calibrate`` to the ``camera`` command group."""
    parser = camera_subparsers.add_parser(
        "calibrate",
        help="measure the pieces' colours from frames of pieces at known poses",
        description="Reads each colour's face from pieces of known colour and pose and "
        "writes a calibration file; name it as camera.calibration in the table file.",
    )
    parser.add_argument("frames", nargs="+", metavar="FRAME", help="PNG or JPEG frames")
    parser.add_argument(
        "--pieces", required=True, metavar="PIECES.yaml", help="the pieces and their poses"
    )
    parser.add_argument("--out", required=True, metavar="FILE", help="the calibration to write")
    parser.add_argument("--table", metavar="FILE", help="a table file instead of the reference")
    parser.set_defaults(run=run)


def load_known_pieces(path: str) -> list[Piece]:
    """The pieces of a pieces file, each with its pose; ids unique."""
    pieces = [entry.piece() for entry in load_model(PosedPieces, path).pieces]
    seen: set[str] = set()
    for i, piece in enumerate(pieces):
        if piece.id in seen:
            raise InputError(path, f"pieces[{i}].id", f"id {piece.id!r} is used by another piece")
        seen.add(piece.id)
    return pieces


def run(args: argparse.Namespace) -> int:
    """Measure, write the file, print each colour against its nominal value."""
    camera = table_camera(args.table, required=False)
    pieces = load_known_pieces(args.pieces)
    source = FileSource(camera.setup.size, args.frames)
    frames = source.grab(len(args.frames))
    look = LookFrames(camera.setup.markers, frames, args.frames)
    for name, why in look.unusable:
        print(f"left out {name}: {why}")
    colors = measure_colors(look, camera.table.board, pieces)
    save_calibration(args.out, colors, len(look.frames), datetime.now(UTC))
    for color in Color:
        measured = " ".join(f"{v:5.1f}" for v in colors[color])
        nominal = " ".join(f"{v:3d}" for v in camera.setup.colors.of(color))
        print(f"{color:<7} {measured}   (nominal {nominal})")
    print(f"wrote {args.out}; to use it, set camera.calibration to its path, relative to "
          "the table file")
    return 0
