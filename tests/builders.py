"""Builders for test positions and files."""

from __future__ import annotations

from pathlib import Path

import yaml

from firmware_host.config.board import EdgeFace
from firmware_host.games.dropit.rules.pieces import Color, Piece, Pose, Shape
from firmware_host.games.dropit.rules.position import Position

ROOT = Path(__file__).resolve().parents[1]


def piece(color: str, shape: str, x: float, y: float, angle: float = 0.0, id: str = "d") -> Piece:
    """A piece from plain words: ``piece("blue", "square", 100, 20)``."""
    return Piece(id, Color(color), Shape(shape), Pose(x, y, angle))


def position(dropped: Piece, *pieces: Piece, edges: str = "color") -> Position:
    """A position with ``dropped`` among ``pieces``."""
    return Position(EdgeFace(edges), tuple(pieces), dropped)


def write_yaml(path: Path, data: object) -> Path:
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path
