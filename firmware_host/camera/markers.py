"""Finding the board in a camera frame from its ArUco markers.

The stand carries ArUco markers at known places of the board's plane
(:class:`~firmware_host.camera.setup.MarkerLayout`). OpenCV's ``cv2.aruco`` detector finds
them with sub-pixel corners; their corners give the homography from the board's plane (mm)
to the image (px). The board is found again in every frame, so a camera nudged between two
looks changes nothing. Any one marker gives a homography (its four corners); two or more
give one that holds across the whole board. A frame in which no marker of the layout is
found raises :class:`BoardNotFound`.

A marker's edges are found where its black border turns white, and where that is depends
on the blur and the print, not on the marker: a lens blurring in linear light shrinks a
black square by a fraction of a pixel on every side, ink spreading on paper grows it. That
offset is the same for every edge of a frame, so with two markers or more it is fitted
along with the homography (:func:`edge_offset`), and the corners are moved back by it:
the residual left is what the corners truly disagree on.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from firmware_host.camera.setup import MarkerLayout
from firmware_host.errors import TabletopError
from firmware_host.i18n import lazy

Array = np.ndarray


EDGE_REACH_PX = 3.0
"""How far across a marker's edge its grey levels are read when its corners are refined."""
EDGE_CONTRAST = 30.0
"""Least step (grey levels) from a marker's black to its white for an edge point to count."""
CORNER_SIGMA_PX = 0.15
"""How far off a refined marker corner may be at least (one standard deviation, px; the
virtual camera's refined corners lie 0.11-0.13 px RMS from the true ones)."""
RESIDUAL_FACTOR = 1.5
"""... and at least this many times the corners' RMS distance from the fitted homography
(a lens that bends the board's lines, or blurred corners, shows there)."""
SPREAD_DRAWS = 24
SPREAD_SEED = 20261125
TRACK_MARGIN = 1.2
"""Around a marker found in a frame before, the next frame is searched this many marker
sides beyond it."""
CELL_MARGIN = 0.3
"""The share of each side of a marker's cell that ArUco leaves out when it reads the cell's
bit (its default is 0.13). On 84 frames of a second renderer (the lens's blur in linear
light, 2-3 px/mm, up to 12 degrees of tilt) the finder with ArUco's defaults missed a
marker in 7 frames; with this margin and no minimum distance from the frame's edge, in
none."""
HALF_SEARCH_PX = 1200
"""Frames at least this wide are searched for markers at half their size first."""
TRACK_PX = 1.0
"""A marker whose edges, read in the next frame of a look where its corners were, put no
corner further than this (px) from them is taken as found there without a search."""
REFINE_PAD_PX = int(EDGE_REACH_PX) + 2
"""How far beyond a searched region the frame is turned grey for refining corners."""
MAX_EDGE_OFFSET_PX = 3.0
"""The most the found edges may lie outside (or inside) the markers' true ones (px): a
larger fitted offset is not the blur's and is not applied."""
OFFSET_STEP_PX = 1.0
"""The homography's residual is a parabola in the edges' offset: its vertex is found from
fits at the offsets 0 and this far either side."""


class BoardNotFound(TabletopError):
    """No marker of the layout was found in a frame."""


@dataclass(frozen=True)
class BoardView:
    """Where the board's plane lies in one frame.

    ``homography`` maps board millimetres ``(x, y, 1)`` to image pixels; ``markers`` are the
    ids it was found from; ``corners_px`` their corners as found; ``edge_offset_px`` how far
    outside their true edges the found edges lie (:func:`edge_offset`); ``residual_px`` the
    RMS distance of the corners, moved back by that offset, from where the homography puts
    them (0 for a single marker: four corners fit exactly).
    """

    homography: Array
    markers: tuple[int, ...]
    residual_px: float
    corners_px: dict[int, Array]
    edge_offset_px: float = 0.0

    def to_image(self, points: Array) -> Array:
        """Board points (N x 2, mm) to image points (N x 2, px)."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)

    def spread_at(self, layout: MarkerLayout, points: Array) -> Array:
        """How far off (mm, one standard deviation) each board point (N x 2, mm) may lie
        because the corners are not exact: the corners moved at random by
        :data:`CORNER_SIGMA_PX` (or :data:`RESIDUAL_FACTOR` times the fit's residual),
        :data:`SPREAD_DRAWS` times, the homography fitted again, and each point's spread
        taken (seeded: the same look gives the same figures). A point between the markers
        found lies better than one far beyond them."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        seen = [cv2.perspectiveTransform(pts, h).reshape(-1, 2) for h in self._draws(layout)]
        if not seen:
            return np.full(len(pts), np.inf)
        spread_px = np.max(np.std(np.array(seen), axis=0), axis=1)
        spread_mm: Array = spread_px / self.scales(pts.reshape(-1, 2))
        return spread_mm

    def _draws(self, layout: MarkerLayout) -> list[Array]:
        """The homographies of :meth:`spread_at`'s draws (made once per view; empty when
        the moved corners give none)."""
        cached: list[Array] | None = self.__dict__.get("_drawn")
        if cached is not None:
            return cached
        rng = np.random.default_rng(SPREAD_SEED)
        sigma = max(CORNER_SIGMA_PX, RESIDUAL_FACTOR * self.residual_px)
        ids = sorted(self.corners_px)
        board = np.array([c for i in ids for c in layout.corners(i)], dtype=np.float64)
        image = _moved_in(self.corners_px, ids, self.edge_offset_px)
        drawn = []
        for _ in range(SPREAD_DRAWS):
            moved = image + rng.normal(0.0, sigma, image.shape)
            homography, _ = cv2.findHomography(board, moved, 0)
            if homography is None:
                drawn = []
                break
            drawn.append(homography)
        object.__setattr__(self, "_drawn", drawn)
        return drawn

    def px_per_mm(self, x: float, y: float) -> float:
        """The image scale at board point ``(x, y)``: pixels per millimetre (geometric mean
        of the two directions)."""
        return float(self.scales(np.array([(x, y)]))[0])

    def scales(self, points: Array) -> Array:
        """:meth:`px_per_mm` at each board point (N x 2, mm)."""
        pts = np.asarray(points, np.float64).reshape(-1, 2)
        across, up = pts + np.array([1.0, 0.0]), pts + np.array([0.0, 1.0])
        a, b, c = self.to_image(np.vstack([pts, across, up])).reshape(3, -1, 2)
        (ux, uy), (vx, vy) = (b - a).T, (c - a).T
        scale: Array = np.sqrt(np.abs(ux * vy - uy * vx))
        return scale


def edge_offset(board: Array, found: dict[int, Array], ids: Sequence[int]) -> float:
    """How far (px) the found edges of the markers ``ids`` lie outside their true edges,
    the same for every edge: the offset that leaves the least residual when the
    homography from the corners ``board`` (mm, in the order of ``ids``) is fitted to
    ``found`` moved in by it. A
    single marker cannot tell it from its size (0); a fit beyond
    :data:`MAX_EDGE_OFFSET_PX` is not the blur's (0).

    >>> layout = np.array([[0, 0], [24, 0], [24, 24], [0, 24],
    ...                    [100, 0], [124, 0], [124, 24], [100, 24]], float)
    >>> quads = layout.reshape(2, 4, 2) * 3.0       # 3 px per mm, no perspective
    >>> grown = quads + 0.6 * np.sign(quads - quads.mean(axis=1, keepdims=True))
    >>> round(edge_offset(layout, {0: grown[0], 1: grown[1]}, [0, 1]), 3)
    0.6
    """
    return _edge_fit(board, found, ids)[0]


def _edge_fit(board: Array, found: dict[int, Array], ids: Sequence[int]) -> tuple[float, Array]:
    """:func:`edge_offset`, and the corners of the markers ``ids`` with their edges moved in
    by it (:func:`_moved_in`, the corners' ways out found once for both)."""
    image = np.vstack([found[i] for i in ids])
    if len(ids) < 2:
        return 0.0, image
    out = _outward(found, ids)

    def squares(offset: float) -> float:
        return _homography(board, image - offset * out)[1]

    step = OFFSET_STEP_PX
    low, mid, high = squares(-step), squares(0.0), squares(step)
    curve = low - 2 * mid + high
    if not math.isfinite(curve) or curve <= 0:
        return 0.0, image
    offset = step * (low - high) / (2 * curve)
    if abs(offset) > MAX_EDGE_OFFSET_PX:
        return 0.0, image
    return offset, image if offset == 0.0 else image - offset * out


def _homography(board: Array, image: Array) -> tuple[Array | None, float]:
    """The least-squares homography from the corners ``board`` (mm) to ``image`` (px), and
    the sum of the squared distances (px²) it leaves (None and infinity when the corners
    give none)."""
    homography, _mask = cv2.findHomography(board, image, 0)
    if homography is None:
        return None, math.inf
    projected = cv2.perspectiveTransform(board.reshape(-1, 1, 2), homography).reshape(-1, 2)
    return homography, float(np.sum((projected - image) ** 2))


def _outward(found: dict[int, Array], ids: Sequence[int]) -> Array:
    """For each corner of the markers ``ids``, how it moves when every edge of its marker
    moves out by one pixel: the point where the two edges through it meet, each moved
    along its own outward normal."""
    quads = np.stack([found[i] for i in ids])  # markers x 4 corners x 2
    along = np.roll(quads, -1, axis=1) - quads  # edge k runs from corner k to k + 1
    normals = np.stack([along[..., 1], -along[..., 0]], axis=-1)
    normals /= np.linalg.norm(normals, axis=-1, keepdims=True)
    middles = quads + along / 2 - quads.mean(axis=1, keepdims=True)
    normals *= np.sign(np.sum(normals * middles, axis=-1, keepdims=True))
    # corner k lies on edges k - 1 and k: v . n(k-1) = 1 and v . n(k) = 1
    pairs = np.stack([np.roll(normals, 1, axis=1), normals], axis=-2)
    ways: Array = np.linalg.solve(pairs, np.ones((*pairs.shape[:2], 2, 1)))[..., 0]
    return ways.reshape(-1, 2)


def _moved_in(found: dict[int, Array], ids: Sequence[int], offset: float) -> Array:
    """The corners of the markers ``ids`` with their edges moved in by ``offset`` px."""
    image = np.vstack([found[i] for i in ids])
    return image if offset == 0.0 else image - offset * _outward(found, ids)


def refine_corners(gray: Array, quads: Sequence[Array]) -> list[Array]:
    """Markers' corners (each 4 x 2) from straight lines fitted to their four outer edges.

    ArUco's own sub-pixel corners sit a fraction of a pixel inside the black square, and
    each rests on a few pixels. Along each side, every pixel or so, the grey level is read
    across the edge (:data:`EDGE_REACH_PX` either side, bilinear) and the edge placed where
    it crosses half-way from the black inside to the white quiet zone; a line through those
    points (least squares) is the side, and adjacent sides meet at the corners. A marker
    with a side with too few clean crossings keeps ArUco's corners.
    """
    return [
        quad if refined is None else refined
        for quad, refined in zip(quads, _refined(gray, quads), strict=True)
    ]


def _refined(gray: Array, quads: Sequence[Array]) -> list[Array | None]:
    """:func:`refine_corners`' corners of each marker, or None when a side shows too few
    clean crossings (or the marker is too small). Every side of every marker is read at
    once: a marker alone is mostly numpy's overhead."""
    result: list[Array | None] = [None] * len(quads)
    stacked = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    along = np.roll(stacked, -1, axis=1) - stacked  # side i runs from corner i to i + 1
    length = np.hypot(along[..., 0], along[..., 1])
    kept = np.flatnonzero((length >= 8).all(axis=1))  # too small a marker: None
    if not len(kept):
        return result
    corner = stacked[kept].reshape(-1, 2)
    along, length = along[kept].reshape(-1, 2), length[kept].ravel()
    along /= length[:, None]
    normal = np.stack([along[:, 1], -along[:, 0]], axis=1)
    centre = np.repeat(stacked[kept].mean(axis=1), 4, axis=0)
    inward = normal[:, 0] * (centre[:, 0] - corner[:, 0]) + normal[:, 1] * (
        centre[:, 1] - corner[:, 1]
    )
    normal[inward > 0] *= -1.0  # point outwards, away from the centre
    # every side's points from 15 % to 85 % of its length, about a pixel apart (as linspace)
    counts = np.maximum((0.7 * length).astype(np.int64), 4)
    side = np.repeat(np.arange(len(length)), counts)
    ends = np.cumsum(counts)
    start, stop = 0.15 * length, 0.85 * length
    t = (np.arange(ends[-1]) - (ends - counts)[side]) * ((stop - start) / (counts - 1))[side]
    t += start[side]
    t[ends - 1] = stop
    base = corner[side] + t[:, None] * along[side]
    s = np.arange(-EDGE_REACH_PX, EDGE_REACH_PX + 0.01, 0.25)
    # a row of crossings per point along a side
    pts = np.empty((len(base), len(s), 2))
    for c in (0, 1):  # x and y apart: numpy broadcasts along a 2-long axis slowly
        np.add(base[:, c, None], s * normal[side, c, None], out=pts[..., c])
    grey = _bilinear(gray, pts.reshape(-1, 2)).reshape(-1, len(s))
    inner, outer = grey[:, :4].mean(axis=1), grey[:, -4:].mean(axis=1)
    level = (inner + outer) / 2
    above = grey > level[:, None]
    clean = (outer - inner > EDGE_CONTRAST) & above[:, -1] & ~above[:, 0]
    k = np.argmax(above, axis=1)
    k = np.clip(k, 1, len(s) - 1)
    rows = np.arange(len(grey))
    g0, g1 = grey[rows, k - 1], grey[rows, k]
    frac = np.clip((level - g0) / np.maximum(g1 - g0, 1e-6), 0, 1)
    edges = base + (s[k - 1] + frac * 0.25)[:, None] * normal[side]
    shown = (np.bincount(side, clean, minlength=len(length)) >= 4).reshape(-1, 4).all(axis=1)
    if not shown.any():
        return result
    points, directions = _fit_lines(edges[clean], side[clean], len(length))
    points = points.reshape(-1, 4, 2)[shown]
    directions = directions.reshape(-1, 4, 2)[shown]
    # corner i is where side i - 1 meets side i
    from_points, from_directions = np.roll(points, 1, axis=1), np.roll(directions, 1, axis=1)
    ways = np.stack([from_directions, -directions], axis=-1)
    along_from = np.linalg.solve(ways, (points - from_points)[..., None])[..., 0, 0]
    corners = from_points + along_from[..., None] * from_directions
    for m, found in zip(kept[shown], corners, strict=True):
        result[m] = found
    return result


def _refined_twice(gray: Array, quads: Sequence[Array]) -> list[Array | None]:
    """:func:`_refined` from corners up to a pixel or so off, and again from its result:
    the first pass reads each edge off-centre in its window, which in a blurred frame
    moves the half-way crossing (up to 0.9 px off for corners from a half-size search,
    against 0.4 px from a whole frame's); the second reads it centred."""
    first = _refined(gray, quads)
    again = iter(_refined(gray, [quad for quad in first if quad is not None]))
    return [None if quad is None else next(again) for quad in first]


def _bilinear(gray: Array, pts: Array) -> Array:
    """Grey levels at sub-pixel points (N x 2, x y)."""
    x = pts[:, 0].astype(np.float32).reshape(1, -1)
    y = pts[:, 1].astype(np.float32).reshape(1, -1)
    return cv2.remap(gray, x, y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).ravel().astype(
        np.float64
    )


def _fit_lines(points: Array, line: Array, count: int) -> tuple[Array, Array]:
    """Lines through points (least squares, perpendicular distances), ``line`` numbering
    each point's line 0..count-1: each line's centre and direction (count x 2 each), the
    direction the principal axis of its points' scatter."""
    held = np.bincount(line, minlength=count)
    centre = np.stack(
        [np.bincount(line, points[:, 0], count), np.bincount(line, points[:, 1], count)], axis=1
    ) / np.maximum(held, 1)[:, None]
    dx, dy = points[:, 0] - centre[line, 0], points[:, 1] - centre[line, 1]
    xx, xy, yy = (np.bincount(line, v, count) for v in (dx * dx, dx * dy, dy * dy))
    turn = 0.5 * np.arctan2(2.0 * xy, xx - yy)
    return centre, np.stack([np.cos(turn), np.sin(turn)], axis=1)


class MarkerFinder:
    """Finds a :class:`MarkerLayout`'s markers in frames (one detector, reused)."""

    def __init__(self, layout: MarkerLayout) -> None:
        self.layout = layout
        dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, layout.dictionary))
        params = cv2.aruco.DetectorParameters()
        # a small, blurred marker's cells are read at their middles: at 2 px/mm a cell is
        # 8 px and the blur reaches a quarter into it from each side
        params.perspectiveRemoveIgnoredMarginPerCell = CELL_MARGIN
        # whole markers far from the frame's edge were dropped with the default of 3 px
        # (OpenCV 5.0); a marker cut by the edge has no four sides to refine its corners on
        params.minDistanceToBorder = 0
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        params.cornerRefinementWinSize = 4
        params.cornerRefinementMaxIterations = 50
        params.cornerRefinementMinAccuracy = 0.01
        self._detector = cv2.aruco.ArucoDetector(dictionary, params)

    def detect(self, frame: Array) -> dict[int, Array]:
        """The layout's markers found in ``frame``: id -> 4 x 2 corners (px), ArUco order.

        A frame at least :data:`HALF_SEARCH_PX` wide is searched at half its size first (a
        quarter of the work), the corners then refined on the whole frame
        (:func:`refine_corners`); when that misses a marker of the layout, or one's sides do
        not show, the whole frame is searched."""
        gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        h, w = gray.shape
        if w >= HALF_SEARCH_PX:
            half = cv2.resize(gray, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
            found = self._search(half)
            # a half-size pixel's centre is the middle of the whole frame's two
            refined = dict(
                zip(found, _refined_twice(gray, [2.0 * q + 0.5 for q in found.values()]),
                    strict=True)
            )
            if len(refined) == len(self.layout.centres) and all(
                quad is not None for quad in refined.values()
            ):
                return {i: quad for i, quad in refined.items() if quad is not None}
        found = self._search(gray)
        return dict(zip(found, refine_corners(gray, list(found.values())), strict=True))

    def _search(self, gray: Array) -> dict[int, Array]:
        """ArUco's corners of the layout's markers in ``gray`` (the first of each id)."""
        corners, ids, _rejected = self._detector.detectMarkers(gray)
        found: dict[int, Array] = {}
        if ids is None:
            return found
        for marker_id, quad in zip(map(int, ids.ravel()), corners, strict=True):
            if marker_id in self.layout.centres and marker_id not in found:
                found[marker_id] = quad.reshape(4, 2).astype(np.float64)
        return found

    def detect_near(self, frame: Array, previous: dict[int, Array]) -> dict[int, Array]:
        """The markers of ``previous`` (id -> corners in another frame of a still camera)
        looked for only around where they were: a fraction of a whole frame's search.
        First each marker's edges are read where its corners were (:func:`refine_corners`,
        no search at all): when every marker's four sides show and no corner moved more
        than :data:`TRACK_PX`, those are its corners. Else the regions around them are
        searched with ArUco, and the whole frame when any marker is not found again."""
        h, w = frame.shape[:2]
        # only the regions read are turned grey
        gray = frame if frame.ndim == 2 else np.zeros((h, w), np.uint8)
        tracked = self._tracked(frame, gray, previous)
        if tracked is not None:
            return tracked
        found: dict[int, Array] = {}
        for marker_id, quad in previous.items():
            side = float(np.ptp(quad[:, 0]) + np.ptp(quad[:, 1])) / 2
            margin = int(side * TRACK_MARGIN) + 4
            x0, y0 = (max(int(v) - margin, 0) for v in quad.min(axis=0))
            x1, y1 = (int(v) + margin for v in quad.max(axis=0))
            x1, y1 = min(x1, w), min(y1, h)
            if frame.ndim == 3:  # and a little around: refining reads across the edges
                g0, g1 = max(y0 - REFINE_PAD_PX, 0), y1 + REFINE_PAD_PX
                f0, f1 = max(x0 - REFINE_PAD_PX, 0), x1 + REFINE_PAD_PX
                gray[g0:g1, f0:f1] = cv2.cvtColor(frame[g0:g1, f0:f1], cv2.COLOR_BGR2GRAY)
            corners, ids, _ = self._detector.detectMarkers(gray[y0:y1, x0:x1])
            if ids is None:
                return self.detect(frame)
            for found_id, crop_quad in zip(ids.ravel().tolist(), corners, strict=True):
                if found_id == marker_id:
                    offset = np.array([x0, y0], np.float64)
                    quad = crop_quad.reshape(4, 2).astype(np.float64) + offset
                    found[marker_id] = refine_corners(gray, [quad])[0]
            if marker_id not in found:
                return self.detect(frame)
        return found

    def _tracked(
        self, frame: Array, gray: Array, previous: dict[int, Array]
    ) -> dict[int, Array] | None:
        """Each marker of ``previous`` refined in ``frame`` from its corners there, or None
        when one of them does not show or moved more than :data:`TRACK_PX`. ``gray`` is
        filled in around the markers from ``frame``."""
        h, w = frame.shape[:2]
        if frame.ndim == 3:
            for quad in previous.values():
                pad = REFINE_PAD_PX + TRACK_PX
                (x0, y0), (x1, y1) = quad.min(axis=0) - pad, quad.max(axis=0) + pad + 1
                x0, y0, x1, y1 = max(int(x0), 0), max(int(y0), 0), min(int(x1), w), min(int(y1), h)
                gray[y0:y1, x0:x1] = cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
        tracked: dict[int, Array] = {}
        for (marker_id, quad), refined in zip(
            previous.items(), _refined(gray, list(previous.values())), strict=True
        ):
            if refined is None or float(np.abs(refined - quad).max()) > TRACK_PX:
                return None
            tracked[marker_id] = refined
        return tracked

    def view(self, found: dict[int, Array]) -> BoardView:
        """The board's homography from detected corners (raises :class:`BoardNotFound`)."""
        if not found:
            expected = ", ".join(str(i) for i in sorted(self.layout.centres))
            raise BoardNotFound(
                lazy("no board marker found (looked for ArUco ids {ids})", ids=expected)
            )
        ids = tuple(sorted(found))
        board = np.array([c for i in ids for c in self.layout.corners(i)], dtype=np.float64)
        offset, moved = _edge_fit(board, found, ids)
        homography, squares = _homography(board, moved)
        if homography is None:
            raise BoardNotFound(
                lazy("markers {ids} give no homography (degenerate corners)", ids=str(list(ids)))
            )
        return BoardView(homography, ids, math.sqrt(squares / len(board)), found, offset)

    def find(self, frame: Array) -> BoardView:
        """Detect and fit in one go."""
        return self.view(self.detect(frame))
