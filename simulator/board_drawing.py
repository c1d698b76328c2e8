"""The virtual camera's sharp layer: everything in the board's plane (``z = 0``) and the
pieces behind it, as premultiplied colour and coverage at frame size.

* the stand, the see-through drop zone and entry slot, the pieces' rims, then the walls
  (which hide a rim leaning behind them) and the edge pieces (coloured strips, or shape
  symbols on a neutral strip): drawn at frame size with OpenCV's anti-aliased fill
  (edges within about 0.3 px: nothing measures them). A piece is a prism from its face
  back to ``z = -PIECE_THICKNESS``; its rim is the side walls the camera sees, shaded as
  lit from above, drawn for every piece before any face, so no rim ever covers a face;
* the four ArUco markers (white plate, black square, white bits) and the pieces' faces:
  drawn in tiles around each at :data:`SUPERSAMPLE` x :data:`SUPERSAMPLE` samples per
  pixel (each sample in or out by its centre), then averaged (``INTER_AREA``): an edge
  lies within about 0.1 px of its true place.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING

import cv2
import numpy as np

from firmware_host.camera.setup import MarkerLayout, PieceColorsConfig
from firmware_host.config.board import Board, EdgeFace, EdgeSegment, Side
from firmware_host.games.dropit.rules.geometry import piece_shape
from firmware_host.games.dropit.rules.pieces import Piece, Pose, Shape

if TYPE_CHECKING:
    from simulator.camera_render import CameraView

SUPERSAMPLE = 4
"""Samples per pixel along each axis in the markers' and pieces' tiles."""

SHIFT = 6
"""Fractional bits of the vertices handed to OpenCV."""

AA_GROW = 0.70
"""How far (px) OpenCV's anti-aliased ``fillPoly`` grows a polygon (measured: 0.65-0.73)."""

PIECE_THICKNESS = 8.0
"""mm, from a piece's face back to its back face."""

WALL = 3.0
"""mm, the walls' width around the drop zone (dark)."""

EDGE_STRIP = 10.0
"""mm, the edge pieces' strip just outside the walls."""

SLOT_TOP = 45.0
"""mm above the drop zone's top edge: the entry slot, seen through (pieces stick out)."""

STAND_BORDER = 10.0
"""mm, how far the stand reaches beyond the walls and the markers' plates."""

CIRCLE_VERTICES = 96
"""Vertices of a circle's outline (equal area: the outline's error stays below 0.05 px)."""

WHITE = (238.0, 240.0, 240.0)
BLACK = (20.0, 20.0, 20.0)
BGR = tuple[float, float, float]
Box = tuple[int, int, int, int]


class Layer:
    """Premultiplied colour (BGR uint8, H x W x 3) and coverage (uint8, H x W, 255 where
    the sharp layer hides the café)."""

    def __init__(self, view: CameraView) -> None:
        self.view = view
        self._planes = {z: view.homography(z) for z in (0.0, -PIECE_THICKNESS)}
        w, h = view.size
        self.color = np.zeros((h, w, 3), np.uint8)
        self.alpha = np.zeros((h, w), np.uint8)

    def pixels(self, outline: np.ndarray, z: float = 0.0) -> np.ndarray:
        """Pixel coordinates of an outline in the plane ``z`` (N x 2, mm)."""
        h = self._planes[z]
        p = outline @ h[:, :2].T + h[:, 2]
        return p[:, :2] / p[:, 2:]

    def smooth(self, pixels: np.ndarray, bgr: Sequence[float], opaque: bool | None = True,
               inside: float = 0.0) -> None:
        """Fill a polygon (pixels), moved ``inside`` px in, with OpenCV's anti-aliasing;
        ``opaque`` False uncovers the café, None leaves the coverage as it is. A polygon
        thinner than the fill's growth draws nothing."""
        vertices = _fixed(pixels, AA_GROW + inside)
        if vertices is None:
            return
        cv2.fillPoly(self.color, [vertices], [float(v) for v in bgr], cv2.LINE_AA, SHIFT)
        if opaque is not None:
            cv2.fillPoly(self.alpha, [vertices], 255 if opaque else 0, cv2.LINE_AA, SHIFT)

    def box(self, pixels: np.ndarray) -> Box | None:
        """The frame's pixels around ``pixels`` (x0, y0, x1, y1), None when off frame."""
        w, h = self.view.size
        x0, y0 = np.floor(pixels.min(axis=0)).astype(int) - 1
        x1, y1 = np.ceil(pixels.max(axis=0)).astype(int) + 2
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        return (x0, y0, x1, y1) if x0 < x1 and y0 < y1 else None

    def over(self, box: Box, cover: np.ndarray, bgr: Sequence[float]) -> None:
        """Lay opaque colour ``bgr`` over ``box`` with coverage ``cover`` (float32, h x w)."""
        x0, y0, x1, y1 = box
        color, alpha = self.color[y0:y1, x0:x1], self.alpha[y0:y1, x0:x1]
        rest = 1.0 - cover
        paint = np.empty_like(color)
        paint[:] = np.round(bgr)
        color[:] = cv2.blendLinear(color, paint, rest, cover)
        alpha[:] = cv2.blendLinear(alpha, np.full_like(alpha, 255), rest, cover)


def coverage(polygons: Sequence[np.ndarray], box: Box, moved_in: bool = False) -> np.ndarray:
    """The share (float32 0-1, h x w) of each pixel of ``box`` inside any of
    ``polygons`` (frame pixels), from SUPERSAMPLE x SUPERSAMPLE centre samples.

    OpenCV's fill takes the samples within half a sample of a polygon: each polygon is
    moved in by that much, unless the caller has (``moved_in``)."""
    x0, y0, x1, y1 = box
    s = SUPERSAMPLE
    samples = np.zeros(((y1 - y0) * s, (x1 - x0) * s), np.uint8)
    origin = np.array([x0, y0], float)
    if moved_in:
        fixed = [np.round(((p - origin + 0.5) * s - 0.5) * (1 << SHIFT)).astype(np.int32)
                 for p in polygons]
    else:
        fixed = [_fixed((p - origin + 0.5) * s - 0.5, 0.5) for p in polygons]
    cv2.fillPoly(samples, [v for v in fixed if v is not None], 255, cv2.LINE_8, SHIFT)
    share = cv2.resize(samples, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    return share.astype(np.float32) * np.float32(1 / 255)


@cache
def _neighbours(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Indices of each vertex's next and previous vertex around a polygon of ``n``."""
    index = np.arange(n)
    return (index + 1) % n, (index - 1) % n


def _inset(pixels: np.ndarray, by: float) -> np.ndarray | None:
    """A polygon (either orientation) with every edge moved in by ``by`` px (mitred), or
    None where that turns it inside out (thinner than ``2 * by``)."""
    ahead, behind = _neighbours(len(pixels))
    x, y = pixels[:, 0], pixels[:, 1]
    area2 = float(np.sum(x * y[ahead] - x[ahead] * y))
    edge = pixels[ahead] - pixels
    ex, ey = edge[:, 0], edge[:, 1]
    length = np.sqrt(ex * ex + ey * ey)
    if area2 == 0 or length.min() < 1e-9:
        return None
    k = math.copysign(by, area2) / length
    sx, sy = x - ey * k, y + ex * k
    # Each vertex: where the moved edge before it meets the moved edge after it.
    psx, psy, pex, pey = sx[behind], sy[behind], ex[behind], ey[behind]
    cross = pex * ey - pey * ex
    safe = np.abs(cross) > 1e-9 * length * length[behind]
    t = np.where(safe, ((sx - psx) * ey - (sy - psy) * ex) / np.where(safe, cross, 1.0), 1.0)
    mx, my = psx + pex * t, psy + pey * t
    if float(np.sum(mx * my[ahead] - mx[ahead] * my)) * area2 <= 0:
        return None
    if max(np.abs(mx - x).max(), np.abs(my - y).max()) > 8 * by:
        return None
    return np.column_stack((mx, my))


def _fixed(pixels: np.ndarray, by: float) -> np.ndarray | None:
    """``pixels`` moved in by ``by`` (a fill's growth) as OpenCV's fixed-point vertices."""
    moved = _inset(pixels, by)
    return None if moved is None else np.round(moved * (1 << SHIFT)).astype(np.int32)


def rect(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    """An axis-aligned rectangle's outline (counter-clockwise)."""
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], float)


def marker_plates(markers: MarkerLayout) -> list[np.ndarray]:
    """Each marker's white plate: the black square with its quiet zone."""
    reach = markers.size / 2 + markers.quiet_zone
    return [rect(cx - reach, cy - reach, cx + reach, cy + reach)
            for cx, cy in markers.centres.values()]


def bgr_of(rgb: Sequence[int]) -> BGR:
    """An sRGB triple as OpenCV's BGR."""
    return (float(rgb[2]), float(rgb[1]), float(rgb[0]))


def draw_stand(layer: Layer, board: Board, markers: MarkerLayout, stand: BGR) -> None:
    """The stand around the drop zone and the markers, and the see-through hole (the drop
    zone and the entry slot above it)."""
    top = board.height + SLOT_TOP
    corners = np.vstack([*marker_plates(markers), rect(-WALL - EDGE_STRIP, -WALL - EDGE_STRIP,
                                                       board.width + WALL + EDGE_STRIP, top)])
    (x0, y0), (x1, y1) = corners.min(axis=0) - STAND_BORDER, corners.max(axis=0) + STAND_BORDER
    outline = rect(x0, y0, x1, y1)
    layer.smooth(layer.pixels(outline), stand)
    layer.smooth(layer.pixels(rect(0, 0, board.width, top)), (0, 0, 0), opaque=False)


def draw_walls(layer: Layer, board: Board, stand: BGR) -> None:
    """The walls' fronts left of, right of and below the drop zone (a darker tone of the
    stand): drawn after the rims, which they hide where a rim leans behind them."""
    top = board.height + SLOT_TOP
    tone = tuple(v * 0.55 for v in stand)
    for wall in (rect(-WALL, -WALL, 0, top), rect(board.width, -WALL, board.width + WALL, top),
                 rect(-WALL, -WALL, board.width + WALL, 0)):
        layer.smooth(layer.pixels(wall), tone)


def _edge_strip(board: Board, segment: EdgeSegment) -> np.ndarray:
    """The strip of one edge segment, just outside the wall."""
    inner, outer = WALL, WALL + EDGE_STRIP
    if segment.side is Side.LEFT:
        return rect(-outer, segment.start, -inner, segment.end)
    if segment.side is Side.RIGHT:
        return rect(board.width + inner, segment.start, board.width + outer, segment.end)
    return rect(segment.start, -outer, segment.end, -inner)


def draw_edges(layer: Layer, board: Board, colors: PieceColorsConfig, face: EdgeFace) -> None:
    """The edge pieces' face: coloured strips (``color``, and ``none``), or dark shape
    symbols every 14 mm on a neutral strip (``shape``)."""
    if face is not EdgeFace.SHAPE:
        for segment in board.edges.color:
            layer.smooth(layer.pixels(_edge_strip(board, segment)),
                         bgr_of(colors.of(segment.symbol)))
        return
    for segment in board.edges.shape:
        strip = _edge_strip(board, segment)
        layer.smooth(layer.pixels(strip), (200.0, 215.0, 225.0))
        (x0, y0), (x1, y1) = strip[0], strip[2]
        along_x = segment.side is Side.BOTTOM
        count = max(1, int(((x1 - x0) if along_x else (y1 - y0)) // 14))
        glyph = outline_of(board, Shape(segment.symbol), Pose(0.0, 0.0, 0.0))
        glyph *= 3.5 / np.abs(glyph).max()
        for i in range(count):
            t = (i + 0.5) / count
            centre = ((x0 + t * (x1 - x0), (y0 + y1) / 2) if along_x
                      else ((x0 + x1) / 2, y0 + t * (y1 - y0)))
            layer.smooth(layer.pixels(glyph + np.array(centre)), (60.0, 60.0, 60.0))


def draw_markers(layer: Layer, markers: MarkerLayout) -> None:
    """Each marker: its white plate, black square and white bits
    (``cv2.aruco.generateImageMarker``, the image's top toward +y), supersampled."""
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, markers.dictionary))
    cells = dictionary.markerSize + 2
    step = markers.size / cells
    h = markers.size / 2
    for (marker_id, (cx, cy)), plate in zip(markers.centres.items(), marker_plates(markers),
                                            strict=True):
        plate_px = layer.pixels(plate)
        box = layer.box(plate_px)
        if box is None:
            continue
        bits = cv2.aruco.generateImageMarker(dictionary, marker_id, cells, borderBits=1)
        # The bits moved in by half a sample here, at once (in mm, at the marker's scale).
        m = 0.5 / SUPERSAMPLE / layer.view.px_per_mm((cx, cy))
        white = [layer.pixels(rect(cx - h + c * step + m, cy + h - (r + 1) * step + m,
                                   cx - h + (c + 1) * step - m, cy + h - r * step - m))
                 for r, c in zip(*np.nonzero(bits), strict=True)]
        layer.over(box, coverage([plate_px], box), WHITE)
        layer.over(box, coverage([layer.pixels(rect(cx - h, cy - h, cx + h, cy + h))], box), BLACK)
        layer.over(box, coverage(white, box, moved_in=True), WHITE)


def outline_of(board: Board, shape: Shape, pose: Pose) -> np.ndarray:
    """A piece's face at ``pose`` (N x 2, mm, counter-clockwise; a circle as an
    equal-area polygon), from :func:`~firmware_host.games.dropit.rules.geometry.piece_shape`."""
    made = piece_shape(board, shape, pose)
    if not hasattr(made, "get_vertices"):
        n = CIRCLE_VERTICES
        r = made.radius * math.sqrt(2 * math.pi / n / math.sin(2 * math.pi / n))
        t = np.linspace(0, 2 * math.pi, n, endpoint=False)
        return np.stack([pose.x + r * np.cos(t), pose.y + r * np.sin(t)], axis=1)
    return np.array([(v.x, v.y) for v in made.get_vertices()], float)


def paint_of(colors: PieceColorsConfig, piece: Piece, table_seed: int) -> np.ndarray:
    """A piece's face colour (BGR): its nominal colour, varied a little per piece."""
    rng = np.random.default_rng([table_seed, zlib.crc32(piece.id.encode())])
    base = np.array(bgr_of(colors.of(piece.color)))
    return np.clip(base * rng.normal(1.0, 0.04) * rng.normal(1.0, 0.02, 3), 0, 255)


SHADE_STEP = 0.08
"""The rim's shades are this far apart (a circle's rim shows a few bands)."""

SHADED_RIM = 1.5
"""px: a rim narrower than this shows one shade (its bands would not show)."""


def walls_seen(outline: np.ndarray, eye: np.ndarray) -> list[tuple[list[int], float]]:
    """The side walls of a prism with face ``outline`` that a camera at ``eye`` sees, as
    runs of neighbouring walls (wall i runs from vertex i to i + 1) of one shade: lit from
    above, a little from the left."""
    n = len(outline)
    ahead, _ = _neighbours(n)
    edge = outline[ahead] - outline
    normal = np.column_stack((edge[:, 1], -edge[:, 0])) / np.hypot(edge[:, 0], edge[:, 1])[:, None]
    facing = np.einsum("ij,ij->i", eye[:2] - outline, normal) > 0
    if facing.all() or not facing.any():
        return []
    shade = np.round((0.57 + 0.12 * normal[:, 1] - 0.04 * normal[:, 0]) / SHADE_STEP) * SHADE_STEP
    order = (np.arange(n) + int(np.argmin(facing)) + 1) % n  # from just after a hidden wall
    seen, tone = facing[order], shade[order]
    joined = seen[1:] & seen[:-1] & (tone[1:] == tone[:-1])  # wall i + 1 continues wall i
    starts = seen & ~np.concatenate(([False], joined))
    ends = seen & ~np.concatenate((joined, [False]))
    return [(order[a : b + 1].tolist(), float(tone[a]))
            for a, b in zip(np.flatnonzero(starts), np.flatnonzero(ends), strict=True)]


Face = tuple[np.ndarray, np.ndarray]
"""A piece's face: its outline in pixels and its paint (BGR)."""


def draw_rims(layer: Layer, board: Board, pieces: Sequence[Piece], colors: PieceColorsConfig,
              table_seed: int) -> list[Face]:
    """Every piece's rim (the hull of its face and back outline, the visible walls
    shaded; anti-aliased at frame size); the faces to draw once every rim is drawn."""
    eye = layer.view.eye
    faces = []
    for piece in pieces:
        outline = outline_of(board, piece.shape, piece.pose)
        paint = paint_of(colors, piece, table_seed)
        front, back = layer.pixels(outline), layer.pixels(outline, -PIECE_THICKNESS)
        hull = cv2.convexHull(np.vstack([front, back]).astype(np.float32))[:, 0]
        # Half a pixel in: the anti-aliased fill's halo must not reach past the face's
        # edges, which the face (supersampled) draws alone.
        layer.smooth(hull.astype(float), paint * 0.55, inside=0.5)
        if np.abs(back - front).max() >= SHADED_RIM:
            for run, shade in walls_seen(outline, eye):
                ahead = [*run, (run[-1] + 1) % len(outline)]
                layer.smooth(np.vstack([front[ahead], back[ahead[::-1]]]), paint * shade, None)
        faces.append((front, paint))
    return faces


def draw_faces(layer: Layer, faces: Sequence[Face]) -> None:
    """The pieces' faces, supersampled, over everything drawn so far."""
    for front, paint in faces:
        box = layer.box(front)
        if box is not None:
            layer.over(box, coverage([front], box), paint)
