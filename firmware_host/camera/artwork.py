"""Where the pane's printed artwork lies: edges there cannot be trusted.

The level lines and the bonus circles are printed on the front pane, in front of the
pieces: a piece's edge that runs along a printed line shows the line's edge instead. The
outline fit leaves out the profiles whose edge point lies within :data:`CLEARANCE_MM` of
any printed line.

>>> from firmware_host.config.board import load_board
>>> art = Artwork(load_board())
>>> art.near(np.array([[150.0, 124.0], [150.0, 118.5], [75.0, 82.5]])).tolist()
[False, True, True]
"""

from __future__ import annotations

import numpy as np

from firmware_host.config.board import Board

Array = np.ndarray

CLEARANCE_MM = 2.0
"""How close to a printed line an edge point may lie and still be trusted."""


class Artwork:
    """The board's printed lines: every level line (but the top edge) and bonus circle."""

    def __init__(self, board: Board) -> None:
        starts, ends = [], []
        for line in board.levels[:-1]:
            for a, b in zip(line.top, line.top[1:], strict=False):
                starts.append(a)
                ends.append(b)
        self._starts = np.array(starts, float).reshape(-1, 2)
        self._ends = np.array(ends, float).reshape(-1, 2)
        self._circles = np.array([(c.x, c.y, c.radius) for c in board.bonus_circles], float)

    def near(self, points: Array) -> Array:
        """Whether each point (N x 2, mm) lies within :data:`CLEARANCE_MM` of printed art."""
        pts = np.asarray(points, float).reshape(-1, 1, 2)
        close = np.zeros(len(pts), bool)
        if len(self._starts):
            a, b = self._starts[None], self._ends[None]
            ab = b - a
            t = np.clip(((pts - a) * ab).sum(-1) / (ab * ab).sum(-1), 0.0, 1.0)
            dist = np.linalg.norm(pts - (a + t[..., None] * ab), axis=-1)
            close |= (dist < CLEARANCE_MM).any(axis=1)
        if len(self._circles):
            centres, radii = self._circles[None, :, :2], self._circles[None, :, 2]
            ring = np.abs(np.linalg.norm(pts - centres, axis=-1) - radii)
            close |= (ring < CLEARANCE_MM).any(axis=1)
        return close
