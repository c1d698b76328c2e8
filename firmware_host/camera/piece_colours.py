"""Measuring the pieces' face colours from a look at pieces of known colour and pose.

Each piece's face is sampled on a grid inside its outline shrunk by :data:`FACE_INSET_MM`
(clear of the rim and of a millimetre's error in the pose), in normalised colour
(:meth:`LookFrames.colours <firmware_host.camera.scene.LookFrames.colours>`). A colour's
value is the median over every sample of every piece of that colour. A pose that is
wrong puts samples on the board or a neighbour: their distances from the median scatter,
and the colour is refused, naming the piece that strays most.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from firmware_host.camera.calibration import RGBf
from firmware_host.camera.scene import LookFrames
from firmware_host.config.board import Board
from firmware_host.errors import TabletopError
from firmware_host.games.dropit.rules.geometry import piece_shape
from firmware_host.games.dropit.rules.pieces import Color, Piece, Pose, Shape

Array = np.ndarray

FACE_INSET_MM = 4.0
"""How far inside its outline a face is sampled."""
GRID_MM = 2.0
"""The sampling grid's pitch."""
MAX_SCATTER = 40.0
"""The most the 95th percentile of the samples' distances from their colour's median may
be (normalised units, 0-255): a face's own shading and noise stay well below it."""
STRAY = 60.0
"""A sample this far from its colour's median is a stray (counted to name the piece)."""


class ColourRefused(TabletopError):
    """A colour that cannot be measured from the pieces given; names the colour and piece."""


def face_points(board: Board, shape: Shape, pose: Pose, inset: float = FACE_INSET_MM) -> Array:
    """Board points (N x 2, mm) on a :data:`GRID_MM` grid inside the shape at ``pose``
    shrunk by ``inset``."""
    inner = piece_shape(board, shape, pose, grow=-inset)
    bb = inner.bb
    xs = np.arange(np.ceil(bb.left / GRID_MM), np.floor(bb.right / GRID_MM) + 1) * GRID_MM
    ys = np.arange(np.ceil(bb.bottom / GRID_MM), np.floor(bb.top / GRID_MM) + 1) * GRID_MM
    grid = [(x, y) for x in xs for y in ys if inner.point_query((x, y)).distance < 0]
    return np.array(grid, np.float64).reshape(-1, 2)


def measure_colors(look: LookFrames, board: Board, pieces: Sequence[Piece]) -> dict[Color, RGBf]:
    """Every colour's median face colour (normalised R, G, B) from ``pieces`` at their
    poses; :class:`ColourRefused` for a colour with no piece or with scattered samples."""
    samples: dict[Color, list[tuple[Piece, Array]]] = {c: [] for c in Color}
    for piece in pieces:
        points = face_points(board, piece.shape, piece.pose)
        if len(points) == 0:
            raise ColourRefused(f"piece {piece.id}: the {piece.shape} is too small to sample")
        rgb = look.colours(points)[:, ::-1]
        if np.isnan(rgb).any():
            raise ColourRefused(f"piece {piece.id}: its face lies outside the frames")
        samples[piece.color].append((piece, rgb))
    measured: dict[Color, RGBf] = {}
    for color in Color:
        if not samples[color]:
            raise ColourRefused(f"{color}: no {color} piece in the pieces file")
        every = np.vstack([rgb for _, rgb in samples[color]])
        median = np.median(every, axis=0)
        scatter = float(np.percentile(np.linalg.norm(every - median, axis=1), 95))
        if scatter > MAX_SCATTER:
            strays = {
                piece.id: int(np.sum(np.linalg.norm(rgb - median, axis=1) > STRAY))
                for piece, rgb in samples[color]
            }
            worst = max(strays, key=lambda pid: strays[pid])
            raise ColourRefused(
                f"{color}: the samples scatter ({scatter:.0f} > {MAX_SCATTER:.0f}); "
                f"check the pose of piece {worst}"
            )
        r, g, b = (float(v) for v in median)
        measured[color] = (r, g, b)
    return measured
