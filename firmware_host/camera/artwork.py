"""Where the pane's printed artwork lies: edges there cannot be trusted.

The level lines and the bonus circles are printed on the front pane, in front of the
pieces: a piece's edge that runs along a printed line shows the line's edge instead, and
a bonus circle's light tint shows a piece's face in another shade inside it. The
outline fit leaves out the profiles whose edge point lies within :data:`CLEARANCE_MM` of
any printed line. Whether a point is that close is read from a map of the board made once
(cells of :data:`CELL_MM`, each near, clear or along the clearance's border); only points
in a border cell are measured against the lines themselves.

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
INK_REACH_MM = 1.3
"""How far from a printed line's middle its ink may show: half the widest line, the
blur, and the pane's parallax (the print lies in front of the pieces' faces)."""
CELL_MM = 0.5
"""The side of the map's cells."""
MAP_MARGIN_MM = 50.0
"""How far beyond the board's walls, floor and top the map reaches."""
MAP_REACH_MM = 8.0
"""How far from the art the map holds each cell's distance to it (farther: none)."""

_CLEAR, _NEAR, _BORDER = 0, 1, 2


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
        self._origin = np.array([-MAP_MARGIN_MM, -MAP_MARGIN_MM])
        columns = int(np.ceil((board.width + 2 * MAP_MARGIN_MM) / CELL_MM))
        rows = int(np.ceil((board.height + 2 * MAP_MARGIN_MM) / CELL_MM))
        distance = np.full((rows, columns), np.inf)
        reach = MAP_REACH_MM + CELL_MM
        none = np.empty((0, 2))
        art = [  # each printed line and circle with its bounding box
            ((a[None], b[None], none.reshape(0, 3)), np.minimum(a, b), np.maximum(a, b))
            for a, b in zip(self._starts, self._ends, strict=True)
        ]
        art += [((none, none, c[None]), c[:2] - c[2], c[:2] + c[2]) for c in self._circles]
        for (line_starts, line_ends, circles), low, high in art:
            u0, v0 = np.maximum(np.floor((low - reach - self._origin) / CELL_MM).astype(int), 0)
            u1, v1 = np.ceil((high + reach - self._origin) / CELL_MM).astype(int)
            u, v = np.meshgrid(np.arange(u0, min(u1, columns)), np.arange(v0, min(v1, rows)))
            centres = self._origin + (np.c_[u.ravel(), v.ravel()] + 0.5) * CELL_MM
            own = distance_to(centres, line_starts, line_ends, circles).reshape(u.shape)
            np.minimum(distance[v0:v1, u0:u1], own, out=distance[v0:v1, u0:u1])
        self._near = _cells(distance, CLEARANCE_MM)
        self._distances = distance.astype(np.float32)
        # the cells' centres as a row of x and a column of y, broadcast (a list of every
        # centre and its arithmetic took 40 MB at once)
        x = self._origin[0] + (np.arange(columns) + 0.5) * CELL_MM
        y = self._origin[1] + (np.arange(rows) + 0.5) * CELL_MM
        self._tinted = self._inside_circle(x[None, :], y[:, None])

    def near(self, points: Array) -> Array:
        """Whether each point (N x 2, mm) lies within :data:`CLEARANCE_MM` of printed art."""
        pts = np.asarray(points, float).reshape(-1, 2)
        cell = self._looked_up(pts, self._near)
        close: Array = cell == _NEAR
        border = cell == _BORDER
        close[border] = self._distance(pts[border]) < CLEARANCE_MM
        return close

    def inked(self, points: Array, samples: Array, reach: float) -> Array:
        """Whether each sample of profiles (P x S x 2: across ``points``, P x 2, reaching at
        most ``reach`` mm from them) may show a printed line's or ring's ink: lies within
        :data:`INK_REACH_MM` of it (to the map's :data:`CELL_MM`)."""
        inked = np.zeros(samples.shape[:2], bool)
        reach = reach + INK_REACH_MM + CELL_MM
        rows = np.arange(len(points))
        if reach <= MAP_REACH_MM:  # only profiles that come near the art
            rows = rows[self._looked_up(points, self._distances) < reach]
        if len(rows):
            near = self._looked_up(samples[rows].reshape(-1, 2), self._distances)
            inked[rows] = near.reshape(len(rows), -1) < INK_REACH_MM
        return inked

    def tinted(self, points: Array) -> Array:
        """Whether each point (N x 2, mm) lies inside a bonus circle, where the print's
        tint shades a face (to the map's :data:`CELL_MM`)."""
        tinted: Array = self._looked_up(np.asarray(points, float).reshape(-1, 2), self._tinted)
        return tinted

    def _looked_up(self, points: Array, cells: Array) -> Array:
        """Each point's cell of the map ``cells`` (a point off the map: the nearest cell
        on its edge, :data:`MAP_MARGIN_MM` clear of the art)."""
        rows, columns = cells.shape
        u = ((points[:, 0] - self._origin[0]) / CELL_MM).astype(np.int64)
        v = ((points[:, 1] - self._origin[1]) / CELL_MM).astype(np.int64)
        np.clip(u, 0, columns - 1, out=u)
        np.clip(v, 0, rows - 1, out=v)
        v *= columns
        v += u
        found: Array = cells.ravel().take(v)  # a flat index: numpy gathers by two slowly
        return found

    def _inside_circle(self, x: Array, y: Array) -> Array:
        """Whether each point lies inside a bonus circle, its coordinates (mm) ``x`` and
        ``y`` broadcast together."""
        inside = np.zeros(np.broadcast_shapes(x.shape, y.shape), bool)
        for cx, cy, radius in self._circles:
            inside |= (x - cx) ** 2 + (y - cy) ** 2 < radius * radius
        return inside

    def _distance(self, points: Array) -> Array:
        """Each point's (N x 2, mm) distance to the nearest printed line or circle (mm)."""
        return distance_to(points, self._starts, self._ends, self._circles)


def distance_to(points: Array, starts: Array, ends: Array, circles: Array) -> Array:
    """Each point's (N x 2) distance to the nearest of the segments from ``starts`` to
    ``ends`` (M x 2) and the circles' rings (K x 3: centre, radius); inf with none. Channel
    by channel: numpy broadcasts and sums along a 2-long axis slowly."""
    pts = np.asarray(points, float).reshape(-1, 2)
    x, y = pts[:, 0, None], pts[:, 1, None]
    distance = np.full(len(pts), np.inf)
    if len(starts):
        ax, ay = starts[:, 0], starts[:, 1]
        abx, aby = ends[:, 0] - ax, ends[:, 1] - ay
        t = np.clip(((x - ax) * abx + (y - ay) * aby) / (abx * abx + aby * aby), 0.0, 1.0)
        off_x, off_y = x - (ax + t * abx), y - (ay + t * aby)
        distance = np.minimum(distance, np.sqrt(off_x * off_x + off_y * off_y).min(axis=1))
    if len(circles):
        off_x, off_y = x - circles[:, 0], y - circles[:, 1]
        ring = np.abs(np.sqrt(off_x * off_x + off_y * off_y) - circles[:, 2])
        distance = np.minimum(distance, ring.min(axis=1))
    return distance


def _cells(distance: Array, reach: float) -> Array:
    """The map of cells near (within ``reach``), clear, or along the border, from each
    cell centre's ``distance`` to the art: the distance changes no faster than the
    distance moved, so a cell whose centre lies clear of the border by half its diagonal
    lies wholly on one side."""
    half_diagonal = CELL_MM * np.sqrt(0.5)
    cells = np.full(distance.shape, _BORDER, np.int8)
    cells[distance < reach - half_diagonal] = _NEAR
    cells[distance > reach + half_diagonal] = _CLEAR
    return cells
