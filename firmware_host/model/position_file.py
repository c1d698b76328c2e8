"""Writing a world's state as the position file that ``tabletop judge`` reads.

The format is :mod:`firmware_host.games.dropit.rules.position`'s: every piece except the dropped one
under ``pieces``, the dropped one under ``dropped``, poses in mm and degrees (CCW, into
[0, 360)), unrounded so the file is the model's state.

>>> from firmware_host.games.dropit.rules.pieces import Color, Piece, Pose, Shape
>>> resting = Piece("p1", Color.RED, Shape.SQUARE, Pose(100.0, 17.0, 0.0))
>>> dropped = Piece("p2", Color.BLUE, Shape.CIRCLE, Pose(200.0, 18.0, 90.0))
>>> print(position_yaml([resting, dropped], "p2", EdgeFace.COLOR), end="")
edges: color
pieces:
- {id: p1, color: red, shape: square, x: 100.0, y: 17.0, angle: 0.0}
dropped: {id: p2, color: blue, shape: circle, x: 200.0, y: 18.0, angle: 90.0}
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from firmware_host.config.board import EdgeFace
from firmware_host.games.dropit.rules.pieces import Piece


def pose_json(piece: Piece) -> dict[str, Any]:
    """A piece as a POSE: ``{"id", "color", "shape", "x", "y", "angle"}``."""
    pose = piece.pose
    return {
        "id": piece.id,
        "color": str(piece.color),
        "shape": str(piece.shape),
        "x": pose.x,
        "y": pose.y,
        "angle": pose.angle,
    }


def position_data(pieces: Sequence[Piece], dropped_id: str, edges: EdgeFace) -> dict[str, Any]:
    """The position file's content for ``pieces`` (all on the board), ``dropped_id`` dropped."""
    dropped = [p for p in pieces if p.id == dropped_id]
    if len(dropped) != 1:
        raise ValueError(f"expected exactly one piece with id {dropped_id!r}")
    return {
        "edges": str(edges),
        "pieces": [pose_json(p) for p in pieces if p.id != dropped_id],
        "dropped": pose_json(dropped[0]),
    }


def position_yaml(pieces: Sequence[Piece], dropped_id: str, edges: EdgeFace) -> str:
    """The position file as YAML text, one piece per line."""
    return yaml.safe_dump(
        position_data(pieces, dropped_id, edges), sort_keys=False, default_flow_style=None
    )


def write_position(
    path: Path | str, pieces: Sequence[Piece], dropped_id: str, edges: EdgeFace
) -> None:
    """Write the position file for ``pieces`` with ``dropped_id`` dropped to ``path``."""
    Path(path).write_text(position_yaml(pieces, dropped_id, edges), encoding="utf-8")
