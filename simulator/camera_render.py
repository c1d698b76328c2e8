"""The virtual camera's renderer: what a camera at a :class:`CameraView` sees of the board.

Board frame (mm): origin at the inner bottom-left corner of the drop zone, x right, y up,
z toward the camera. At ``z = 0``: the pieces' front faces, the stand with its four ArUco
markers (white plates, the bit pattern of ``cv2.aruco.generateImageMarker``), the walls and
the edge pieces (the face the variant picks: coloured strips, or shape symbols on a neutral
strip). A piece is a prism from its face back to ``z = -PIECE_THICKNESS``; the visible side
walls (its rim) are drawn in a darker, shaded tone of its colour before any face. Behind:
the café (:mod:`simulator.cafe`), seen through the drop zone, the entry slot above it and
around the stand. At ``z = +ARTWORK_Z``: the front pane's printed artwork (level lines,
bonus circles with a light tint and their points), semi-transparent, over everything.

Sharp content is drawn at :data:`SUPERSAMPLE` times the frame's resolution with
anti-aliased fills at sub-pixel vertices (OpenCV's anti-aliased fill grows a polygon by
:data:`AA_GROW` px, so every polygon is first moved in by that much), then averaged down
(``INTER_AREA``): an edge is placed to a small fraction of a pixel. Then, per
:class:`Effects`: the light (exposure, colour cast, gradient, vignetting, glare), a cup or
hand over a marker, a hand in the frame, optical blur, sensor noise, JPEG.

>>> from firmware_host.config.table import load_table
>>> from firmware_host.rules.pieces import Color, Piece, Pose, Shape
>>> table = load_table()
>>> view = CameraView.looking_at((1600, 1200), 1400.0, (800.0, 600.0), eye=(150, 155, 500))
>>> round(view.px_per_mm((150.0, 150.0)), 2)
2.8
>>> piece = Piece("p1", Color.RED, Shape.SQUARE, Pose(150.0, 17.0, 0.0))
>>> frame = render(table.board, table.camera, [piece], view, Effects.plain(),
...                np.random.default_rng(1))
>>> frame.shape, frame.dtype.name
((1200, 1600, 3), 'uint8')
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from firmware_host.camera.setup import CameraSetup, MarkerLayout, PieceColors
from firmware_host.config.board import Board, EdgeFace, EdgeSegment, Side
from firmware_host.config.noise import CameraNoise, CameraPose
from firmware_host.rules.geometry import piece_shape
from firmware_host.rules.pieces import Color, Piece, Pose, Shape
from simulator.cafe import backdrop

SUPERSAMPLE = 2
"""Sharp content is drawn at this many times the frame's resolution."""

AA_GROW = 0.70
"""How far (px) OpenCV's anti-aliased ``fillPoly`` grows a polygon (measured: 0.65-0.73)."""

SHIFT = 6
"""Fractional bits of the vertices handed to OpenCV."""

PIECE_THICKNESS = 8.0
"""mm, from a piece's face back to its back face."""

ARTWORK_Z = 2.0
"""mm, the front pane's printed artwork in front of the pieces' faces."""

WALL = 3.0
"""mm, the walls' width around the drop zone (dark)."""

EDGE_STRIP = 10.0
"""mm, the edge pieces' strip just outside the walls."""

SLOT_TOP = 45.0
"""mm above the drop zone's top edge: the entry slot, seen through (pieces stick out)."""

STAND_MARGIN = (45.0, 60.0)
"""mm, how far the stand reaches beyond the drop zone: sideways and below; above the slot."""

CIRCLE_VERTICES = 96
"""Vertices of a circle's outline (equal area: the outline's error stays below 0.05 px)."""

LINE_WIDTH = 1.2
"""mm, the printed level lines and bonus circles' outlines."""

GLARE_Z = 4.0
"""mm, the front pane's outer surface, where reflections lie."""

BGR = tuple[float, float, float]


@dataclass(frozen=True, eq=False)
class CameraView:
    """A pinhole camera (no distortion): frame ``size`` (width, height px), ``focal``
    length and ``principal`` point (px), and its pose: ``rotation`` (3x3, board frame to
    camera frame) and ``translation`` (mm), OpenCV's convention (x right, y down, z ahead).
    """

    size: tuple[int, int]
    focal: float
    principal: tuple[float, float]
    rotation: np.ndarray
    translation: np.ndarray

    @classmethod
    def looking_at(
        cls,
        size: tuple[int, int],
        focal: float,
        principal: tuple[float, float],
        eye: Sequence[float],
        aim: Sequence[float] = (150.0, 155.0, 0.0),
        roll: float = 0.0,
    ) -> CameraView:
        """A camera at ``eye`` (board frame, mm) looking at ``aim``, the board's +y up in
        the image, turned ``roll`` degrees (counter-clockwise in the image) about its axis."""
        eye_v, aim_v = np.asarray(eye, float), np.asarray(aim, float)
        ahead = (aim_v - eye_v) / np.linalg.norm(aim_v - eye_v)
        down = np.array([0.0, -1.0, 0.0])
        down = down - down.dot(ahead) * ahead
        down /= np.linalg.norm(down)
        right = np.cross(down, ahead)
        turn = math.radians(roll)
        right, down = (
            math.cos(turn) * right + math.sin(turn) * down,
            -math.sin(turn) * right + math.cos(turn) * down,
        )
        rotation = np.stack([right, down, ahead])
        return cls(size, focal, principal, rotation, -rotation @ eye_v)

    @property
    def matrix(self) -> np.ndarray:
        """The intrinsic matrix K."""
        (cx, cy), f = self.principal, self.focal
        return np.array([[f, 0.0, cx], [0.0, f, cy], [0.0, 0.0, 1.0]])

    @property
    def eye(self) -> np.ndarray:
        """The camera's centre in the board frame (mm)."""
        return -self.rotation.T @ self.translation

    @property
    def foot(self) -> tuple[float, float]:
        """The point of the board's plane straight below the camera (its foot): points
        behind the plane appear shifted toward its image."""
        x, y, _ = self.eye
        return (float(x), float(y))

    def project(self, points: Any) -> np.ndarray:
        """Pixel coordinates (N x 2; pixel centres at whole numbers) of board points
        (N x 3, mm)."""
        p = np.asarray(points, float).reshape(-1, 3) @ self.rotation.T + self.translation
        return p[:, :2] / p[:, 2:] * self.focal + np.asarray(self.principal)

    def homography(self, z: float) -> np.ndarray:
        """The 3x3 homography from the plane at height ``z`` ((x, y, 1), mm) to pixels."""
        r = self.rotation
        return self.matrix @ np.column_stack([r[:, 0], r[:, 1], r[:, 2] * z + self.translation])

    def px_per_mm(self, at: tuple[float, float]) -> float:
        """The scale (px per mm, geometric mean of both directions) at board point ``at``."""
        x, y = at
        p = self.project([[x, y, 0.0], [x + 1.0, y, 0.0], [x, y + 1.0, 0.0]])
        return math.sqrt(abs(np.cross(p[1] - p[0], p[2] - p[0])))

    def nudged(self, rng: np.random.Generator, shift: float, turn: float) -> CameraView:
        """This view moved by a knocked table: a normal ``shift`` (mm) and ``turn``
        (degrees) standard deviation per axis."""
        rotation, _ = cv2.Rodrigues(np.radians(rng.normal(0.0, turn, 3)))
        moved = rotation @ self.rotation
        return CameraView(
            self.size, self.focal, self.principal, moved,
            rotation @ self.translation + rng.normal(0.0, shift, 3),
        )

    def tilt(self) -> float:
        """Degrees between the optical axis and the board's normal."""
        return math.degrees(math.acos(min(1.0, abs(float(self.rotation[2, 2])))))

    def to_dict(self, board_centre: tuple[float, float]) -> dict[str, Any]:
        """The view's parameters for a truth file (plain numbers)."""
        rvec, _ = cv2.Rodrigues(self.rotation)
        return {
            "size": list(self.size),
            "focal": round(self.focal, 4),
            "principal": [round(v, 4) for v in self.principal],
            "rvec": [round(float(v), 8) for v in rvec.ravel()],
            "tvec": [round(float(v), 6) for v in self.translation],
            "eye": [round(float(v), 3) for v in self.eye],
            "tilt": round(self.tilt(), 4),
            "px_per_mm": round(self.px_per_mm(board_centre), 5),
        }


def draw_view(
    board: Board, setup: CameraSetup, pose: CameraPose, rng: np.random.Generator
) -> CameraView:
    """A view drawn from a profile's ``pose`` ranges whose frame shows every marker with
    its quiet zone and the whole slot (draws again, at most 200 times, until it does).

    Raises ``ValueError`` if the ranges never give such a view.
    """
    w, h = setup.size
    middle = (board.width / 2, (board.height + SLOT_TOP) / 2)
    must_see = [*_marker_plates(setup.markers), _rect(0, 0, board.width, board.height + SLOT_TOP)]
    corners = np.vstack([np.column_stack([p, np.zeros(len(p))]) for p in must_see])
    for _ in range(200):
        distance = rng.uniform(*pose.distance)
        tilt = math.radians(rng.uniform(0.0, pose.tilt))
        towards = rng.uniform(0.0, 2 * math.pi)
        aim = np.array([*(middle + rng.uniform(-pose.offset, pose.offset, 2)), 0.0])
        eye = aim + distance * np.array(
            [math.sin(tilt) * math.cos(towards), math.sin(tilt) * math.sin(towards),
             math.cos(tilt)]
        )
        principal = (w / 2 + rng.uniform(-pose.principal, pose.principal),
                     h / 2 + rng.uniform(-pose.principal, pose.principal))
        view = CameraView.looking_at(
            (w, h), rng.uniform(*pose.px_per_mm) * distance, principal, eye, aim,
            rng.uniform(-pose.roll, pose.roll),
        )
        p = view.project(corners)
        if p.min() >= 8 and p[:, 0].max() <= w - 9 and p[:, 1].max() <= h - 9:
            return view
    raise ValueError(
        f"the camera pose ranges never fit the markers and the slot in a {w}x{h} frame "
        "(lower px_per_mm or tilt)"
    )


@dataclass(frozen=True)
class GlareSpot:
    """A reflection on the pane: centre (board mm), radius (mm), elongation and turn,
    peak brightness (fraction of white)."""

    x: float
    y: float
    radius: float
    stretch: float
    angle: float
    strength: float


@dataclass(frozen=True)
class Effects:
    """Everything a frame's look depends on besides the scene and the view: the light,
    the optics, the sensor, the café, the table's print, the faults in front of the pane.

    ``table_seed`` fixes the table's print (stand and ink colours) and each piece's paint;
    ``look_seed`` the café, the pieces' texture and what covers a marker.
    """

    gains: BGR = (1.0, 1.0, 1.0)
    exposure: float = 1.0
    gradient: tuple[float, float] = (0.0, 0.0)
    vignetting: float = 0.0
    glare: tuple[GlareSpot, ...] = ()
    clutter: float = 0.3
    sensor_noise: float = 0.0
    blur: float = 0.0
    jpeg_quality: int = 100
    table_seed: int = 0
    look_seed: int = 0
    covered_marker: int | None = None
    hand: bool = False

    @classmethod
    def plain(cls) -> Effects:
        """No light effects, no noise, no blur, no JPEG: a perfect camera (for tests)."""
        return cls()


def draw_effects(
    noise: CameraNoise, rng: np.random.Generator, table_seed: int, board: Board
) -> Effects:
    """One look's effects drawn from a profile's camera knobs (no faults: the virtual
    camera adds those)."""
    cast = noise.color_cast
    glare = noise.glare
    spots = tuple(
        GlareSpot(
            float(rng.uniform(-40, board.width + 40)), float(rng.uniform(-40, board.height + 60)),
            float(rng.uniform(*glare.size)), float(rng.uniform(1.0, 3.0)),
            float(rng.uniform(0, 180)), float(rng.uniform(*glare.strength)),
        )
        for _ in range(int(rng.integers(glare.spots[0], glare.spots[1] + 1)))
    )
    direction = rng.uniform(0, 2 * math.pi)
    fall = rng.uniform(0, noise.illumination)
    return Effects(
        gains=tuple(float(g) for g in rng.uniform(1 - cast, 1 + cast, 3)),  # type: ignore[arg-type]
        exposure=float(rng.uniform(*noise.exposure)),
        gradient=(fall * math.cos(direction), fall * math.sin(direction)),
        vignetting=noise.vignetting,
        glare=spots,
        clutter=noise.clutter,
        sensor_noise=noise.sensor_noise,
        blur=float(rng.uniform(*noise.blur)),
        jpeg_quality=int(rng.integers(noise.jpeg_quality[0], noise.jpeg_quality[1] + 1)),
        table_seed=table_seed,
        look_seed=int(rng.integers(2**32)),
    )


def render(
    board: Board,
    setup: CameraSetup,
    pieces: Iterable[Piece],
    view: CameraView,
    effects: Effects,
    rng: np.random.Generator,
    edges_face: EdgeFace = EdgeFace.COLOR,
) -> np.ndarray:
    """One camera frame (H x W x 3 BGR uint8) of ``pieces`` on ``board``; the edge
    pieces show ``edges_face`` (``none``: the colour face). Everything random comes from
    ``rng`` (the sensor noise) and the seeds in ``effects``."""
    style = _TableStyle(np.random.default_rng(effects.table_seed))
    look = np.random.default_rng(effects.look_seed)
    canvas = _Canvas(view)
    _draw_stand(canvas, board, setup.markers, style)
    _draw_edges(canvas, board, setup.colors, edges_face, style)
    _draw_markers(canvas, setup.markers)
    _draw_pieces(canvas, board, list(pieces), setup.colors, effects.table_seed)
    fg, alpha = canvas.downsampled()

    colors = [setup.colors.of(c) for c in Color]
    image = backdrop(view, effects.clutter, colors, look)
    image *= 1.0 - alpha
    image += fg * _texture(view.size, look)
    _draw_artwork(image, board, view, style)
    if effects.covered_marker is not None:
        _draw_cover(image, view, setup.markers, effects.covered_marker, look)
    if effects.hand:
        _draw_hand(image, board, view, look)
    image = _light(image, view, effects)
    if effects.blur > 0:
        image = cv2.GaussianBlur(image, (0, 0), effects.blur)
    if effects.sensor_noise > 0:
        image = _sensor_noise(image, effects.sensor_noise, rng)
    frame = np.clip(image, 0, 255).astype(np.uint8)
    if effects.jpeg_quality < 100:
        _, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, effects.jpeg_quality])
        frame = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return frame


class _TableStyle:
    """A table's print: the stand's colour, the walls', the artwork's ink and tint."""

    STANDS = ((70, 70, 72), (200, 200, 195), (120, 95, 60), (150, 110, 40), (40, 40, 45))
    INKS = (((245, 245, 245), 0.55), ((25, 25, 25), 0.5), ((120, 60, 20), 0.55))

    def __init__(self, rng: np.random.Generator) -> None:
        stand = np.array(self.STANDS[rng.integers(len(self.STANDS))], float)
        self.stand: BGR = tuple(np.clip(stand + rng.normal(0, 8, 3), 0, 255))  # type: ignore[assignment]
        self.wall: BGR = tuple(v * 0.55 for v in self.stand)  # type: ignore[assignment]
        self.neutral: BGR = (200.0, 215.0, 225.0)
        ink, self.ink_alpha = self.INKS[rng.integers(len(self.INKS))]
        self.ink = np.array(ink, np.float32)
        self.tint = np.array(rng.uniform(60, 255, 3), np.float32)
        self.tint_alpha = float(rng.uniform(0.05, 0.15))


class _Canvas:
    """The supersampled drawing: premultiplied colour and coverage (alpha)."""

    def __init__(self, view: CameraView) -> None:
        w, h = view.size
        self.view = view
        self.color = np.zeros((h * SUPERSAMPLE, w * SUPERSAMPLE, 3), np.uint8)
        self.alpha = np.zeros((h * SUPERSAMPLE, w * SUPERSAMPLE), np.uint8)
        s = SUPERSAMPLE
        to_hi = np.array([[s, 0, (s - 1) / 2], [0, s, (s - 1) / 2], [0, 0, 1]], float)
        self._planes = {z: to_hi @ view.homography(z) for z in (0.0, -PIECE_THICKNESS)}

    def pixels(self, outline: np.ndarray, z: float = 0.0) -> np.ndarray:
        """Supersampled pixel coordinates of a plane-``z`` outline (N x 2, mm)."""
        h = self._planes[z]
        p = outline @ h[:, :2].T + h[:, 2]
        return p[:, :2] / p[:, 2:]

    def fill(self, pixels: np.ndarray, bgr: Sequence[float], opaque: bool | None = True,
             smooth: bool = True) -> None:
        """Fill a polygon given in supersampled pixels; ``opaque`` True covers the café,
        False uncovers it, None leaves the coverage. A polygon thinner than the fill's
        growth is left out."""
        vertices = _fixed(pixels, AA_GROW if smooth else 0.5)
        if vertices is None:
            return
        kind = cv2.LINE_AA if smooth else cv2.LINE_8
        cv2.fillPoly(self.color, [vertices], [float(v) for v in bgr], kind, SHIFT)
        if opaque is not None:
            cv2.fillPoly(self.alpha, [vertices], 255 if opaque else 0, kind, SHIFT)

    def downsampled(self) -> tuple[np.ndarray, np.ndarray]:
        """Colour (float32, premultiplied) and coverage (0-1, H x W x 1) at frame size."""
        w, h = self.view.size
        color = cv2.resize(self.color, (w, h), interpolation=cv2.INTER_AREA)
        alpha = cv2.resize(self.alpha, (w, h), interpolation=cv2.INTER_AREA)
        return color.astype(np.float32), (alpha.astype(np.float32) / 255)[:, :, None]


def _inset(pixels: np.ndarray, by: float) -> np.ndarray | None:
    """A polygon (either orientation) with every edge moved in by ``by`` px (mitred), or
    None where that turns it inside out (thinner than ``2 * by``)."""
    x, y = pixels[:, 0], pixels[:, 1]
    following = np.r_[1 : len(pixels), 0]
    area2 = float(np.dot(x, y[following]) - np.dot(x[following], y))
    if area2 == 0:
        return None
    edge = pixels[following] - pixels
    length = np.hypot(edge[:, 0], edge[:, 1])
    keep = length > 1e-9
    pixels, edge, length = pixels[keep], edge[keep], length[keep]
    inward = np.stack([-edge[:, 1], edge[:, 0]], axis=1) / length[:, None] * math.copysign(1, area2)
    start = pixels + inward * by
    # Each vertex: where the moved previous edge meets the moved next edge.
    preceding = np.r_[len(start) - 1, 0 : len(start) - 1]
    prev_start, prev_edge = start[preceding], edge[preceding]
    cross = prev_edge[:, 0] * edge[:, 1] - prev_edge[:, 1] * edge[:, 0]
    d = start - prev_start
    safe = np.abs(cross) > 1e-9 * length * length[preceding]
    t = np.where(safe, (d[:, 0] * edge[:, 1] - d[:, 1] * edge[:, 0])
                 / np.where(safe, cross, 1.0), 1.0)
    moved = prev_start + prev_edge * t[:, None]
    x, y = moved[:, 0], moved[:, 1]
    ahead = np.r_[1 : len(moved), 0]
    area2_moved = float(np.dot(x, y[ahead]) - np.dot(x[ahead], y))
    if area2_moved * area2 <= 0 or np.abs(moved - pixels).max() > 8 * by:
        return None
    return moved


def _fixed(pixels: np.ndarray, grow: float) -> np.ndarray | None:
    """``pixels`` moved in by ``grow`` as OpenCV's fixed-point vertices (None: too thin)."""
    moved = _inset(pixels, grow)
    return None if moved is None else np.round(moved * (1 << SHIFT)).astype(np.int32)


def _rect(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], float)


def _marker_plates(markers: MarkerLayout) -> list[np.ndarray]:
    reach = markers.size / 2 + markers.quiet_zone
    return [_rect(cx - reach, cy - reach, cx + reach, cy + reach)
            for cx, cy in markers.centres.values()]


def _bgr(rgb: Sequence[int]) -> BGR:
    return (float(rgb[2]), float(rgb[1]), float(rgb[0]))


def _draw_stand(canvas: _Canvas, board: Board, markers: MarkerLayout, style: _TableStyle) -> None:
    """The stand (with white plates under the markers), the walls, the see-through hole."""
    side, above = STAND_MARGIN
    top = board.height + SLOT_TOP
    reach = markers.size / 2 + markers.quiet_zone
    xs = [c[0] for c in markers.centres.values()]
    ys = [c[1] for c in markers.centres.values()]
    stand = _rect(min(-side, min(xs) - reach - 5), min(-side, min(ys) - reach - 5),
                  max(board.width + side, max(xs) + reach + 5),
                  max(top + above - SLOT_TOP, max(ys) + reach + 5))
    canvas.fill(canvas.pixels(stand), style.stand)
    canvas.fill(canvas.pixels(_rect(-WALL, -WALL, board.width + WALL, top)), style.wall)
    canvas.fill(canvas.pixels(_rect(0, 0, board.width, top)), (0, 0, 0), opaque=False)
    for plate in _marker_plates(markers):
        canvas.fill(canvas.pixels(plate), (238, 240, 240))


def _edge_strip(board: Board, segment: EdgeSegment) -> np.ndarray:
    """The strip of one edge segment, just outside the wall."""
    inner, outer = WALL, WALL + EDGE_STRIP
    if segment.side is Side.LEFT:
        return _rect(-outer, segment.start, -inner, segment.end)
    if segment.side is Side.RIGHT:
        return _rect(board.width + inner, segment.start, board.width + outer, segment.end)
    return _rect(segment.start, -outer, segment.end, -inner)


def _draw_edges(canvas: _Canvas, board: Board, colors: PieceColors, face: EdgeFace,
                style: _TableStyle) -> None:
    """The edge pieces: coloured strips, or shape symbols on a neutral strip."""
    if face is EdgeFace.SHAPE:
        for segment in board.edges.shape:
            strip = _edge_strip(board, segment)
            canvas.fill(canvas.pixels(strip), style.neutral)
            (x0, y0), (x1, y1) = strip[0], strip[2]
            along_x = segment.side is Side.BOTTOM
            length = (x1 - x0) if along_x else (y1 - y0)
            count = max(1, int(length // 14))
            for i in range(count):
                t = (i + 0.5) / count
                cx = x0 + t * (x1 - x0) if along_x else (x0 + x1) / 2
                cy = (y0 + y1) / 2 if along_x else y0 + t * (y1 - y0)
                glyph = _outline(board, Shape(segment.symbol), Pose(cx, cy, 0.0)) - (cx, cy)
                glyph *= 3.5 / np.abs(glyph).max()
                canvas.fill(canvas.pixels(glyph + np.array([cx, cy])), (60, 60, 60))
    else:
        for segment in board.edges.color:
            canvas.fill(canvas.pixels(_edge_strip(board, segment)),
                        _bgr(colors.of(segment.symbol)))


def _draw_markers(canvas: _Canvas, markers: MarkerLayout) -> None:
    """Each marker's black square and its white bits (``generateImageMarker``)."""
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, markers.dictionary))
    cells = dictionary.markerSize + 2
    step = markers.size / cells
    for marker_id, (cx, cy) in markers.centres.items():
        h = markers.size / 2
        canvas.fill(canvas.pixels(_rect(cx - h, cy - h, cx + h, cy + h)), (20, 20, 20))
        bits = cv2.aruco.generateImageMarker(dictionary, marker_id, cells, borderBits=1)
        for row, col in zip(*np.nonzero(bits), strict=True):
            x0, y1 = cx - h + col * step, cy + h - row * step
            canvas.fill(canvas.pixels(_rect(x0, y1 - step, x0 + step, y1)), (238, 240, 240),
                        smooth=False)


def _outline(board: Board, shape: Shape, pose: Pose) -> np.ndarray:
    """A piece's face at ``pose`` (N x 2, mm, counter-clockwise); a circle as an
    equal-area polygon."""
    made = piece_shape(board, shape, pose)
    radius = getattr(made, "radius", 0.0)
    if not hasattr(made, "get_vertices"):
        n = CIRCLE_VERTICES
        r = radius * math.sqrt(2 * math.pi / n / math.sin(2 * math.pi / n))
        t = np.linspace(0, 2 * math.pi, n, endpoint=False)
        return np.stack([pose.x + r * np.cos(t), pose.y + r * np.sin(t)], axis=1)
    return np.array([(v.x, v.y) for v in made.get_vertices()], float)


def _paint(colors: PieceColors, piece: Piece, table_seed: int) -> np.ndarray:
    """A piece's face colour (BGR): the nominal colour, varied a little per piece."""
    rng = np.random.default_rng([table_seed, zlib.crc32(piece.id.encode())])
    base = np.array(_bgr(colors.of(piece.color)))
    return np.clip(base * rng.normal(1.0, 0.04) * rng.normal(1.0, 0.02, 3), 0, 255)


def _draw_pieces(canvas: _Canvas, board: Board, pieces: list[Piece], colors: PieceColors,
                 table_seed: int) -> None:
    """Every piece's rim (visible side walls, shaded by how they face the light from
    above), then every face."""
    eye = canvas.view.eye
    faces = []
    for piece in pieces:
        outline = _outline(board, piece.shape, piece.pose)
        paint = _paint(colors, piece, table_seed)
        front, back = canvas.pixels(outline), canvas.pixels(outline, -PIECE_THICKNESS)
        hull = cv2.convexHull(np.vstack([front, back]).astype(np.float32))[:, 0]
        canvas.fill(hull.astype(float), paint * 0.55)
        for run, shade in _walls_seen(outline, eye):
            ahead = [*run, (run[-1] + 1) % len(outline)]
            canvas.fill(np.vstack([front[ahead], back[ahead[::-1]]]), paint * shade)
        faces.append((front, paint))
    for front, paint in faces:
        canvas.fill(front, paint)


def _walls_seen(outline: np.ndarray, eye: np.ndarray) -> list[tuple[list[int], float]]:
    """The side walls of a prism with face ``outline`` that a camera at ``eye`` sees, as
    runs of neighbouring walls (wall i runs from vertex i to i + 1) of one shade: lit from
    above, a little from the left."""
    n = len(outline)
    edge = np.roll(outline, -1, axis=0) - outline
    normal = np.stack([edge[:, 1], -edge[:, 0]], axis=1) / np.hypot(*edge.T)[:, None]
    facing = np.einsum("ij,ij->i", eye[:2] - outline, normal) > 0
    shade = np.round((0.57 + 0.12 * normal[:, 1] - 0.04 * normal[:, 0]) / 0.02) * 0.02
    if facing.all() or not facing.any():
        return []
    runs: list[tuple[list[int], float]] = []
    first = int(np.argmin(facing))
    for k in range(first + 1, first + n + 1):
        i = k % n
        if not facing[i]:
            continue
        if runs and runs[-1][0][-1] == (i - 1) % n and runs[-1][1] == shade[i]:
            runs[-1][0].append(i)
        else:
            runs.append(([i], float(shade[i])))
    return runs


def _texture(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A faint smooth texture (the wood and paint, the stand's surface), about 1 +- 0.03."""
    w, h = size
    grain = rng.normal(1.0, 0.03, (h // 6 + 1, w // 6 + 1)).astype(np.float32)
    return cv2.resize(grain, (w, h), interpolation=cv2.INTER_LINEAR)[:, :, None]


def _draw_artwork(image: np.ndarray, board: Board, view: CameraView, style: _TableStyle) -> None:
    """The front pane's print at ``z = +ARTWORK_Z``: level lines, bonus circles (outline,
    light tint, points), blended over ``image`` in place."""
    h, w = image.shape[:2]
    ink = np.zeros((h, w), np.uint8)
    tint = np.zeros((h, w), np.uint8)
    to_px = view.homography(ARTWORK_Z)

    def px(points: np.ndarray) -> np.ndarray:
        p = points @ to_px[:, :2].T + to_px[:, 2]
        return p[:, :2] / p[:, 2:]

    def fill(mask: np.ndarray, outline: np.ndarray, value: int) -> None:
        vertices = _fixed(px(outline), AA_GROW)
        if vertices is not None:
            cv2.fillPoly(mask, [vertices], value, cv2.LINE_AA, SHIFT)

    t = np.linspace(0, 2 * math.pi, 96, endpoint=False)
    ring = np.stack([np.cos(t), np.sin(t)], axis=1)
    scale = view.px_per_mm((board.width / 2, board.height / 2))
    for circle in board.bonus_circles:
        centre = np.array([circle.x, circle.y])
        fill(tint, centre + ring * circle.radius, 255)
        fill(ink, centre + ring * (circle.radius + LINE_WIDTH / 2), 255)
        fill(ink, centre + ring * (circle.radius - LINE_WIDTH / 2), 0)
        (u, v), = px(np.array([[circle.x, circle.y - circle.radius * 0.55]]))
        font = 0.12 * scale
        (tw, th), _ = cv2.getTextSize(str(circle.points), cv2.FONT_HERSHEY_SIMPLEX, font, 1)
        cv2.putText(ink, str(circle.points), (round(u - tw / 2), round(v + th / 2)),
                    cv2.FONT_HERSHEY_SIMPLEX, font, 255, max(1, round(scale / 2)), cv2.LINE_AA)
    for line in board.levels:
        fill(ink, _band(np.array(line.top, float), LINE_WIDTH), 255)
    ys, xs = np.nonzero(ink | tint)
    if len(xs) == 0:
        return
    roi = (slice(ys.min(), ys.max() + 1), slice(xs.min(), xs.max() + 1))
    part = image[roi]
    for mask, bgr, strength in ((tint, style.tint, style.tint_alpha),
                                (ink, style.ink, style.ink_alpha)):
        a = mask[roi].astype(np.float32)[:, :, None] * (strength / 255)
        part *= 1.0 - a
        part += a * bgr


def _band(points: np.ndarray, width: float) -> np.ndarray:
    """The outline of a polyline drawn ``width`` wide (mitred joins, square ends)."""
    d = np.diff(points, axis=0)
    d /= np.hypot(*d.T)[:, None]
    normal = np.stack([-d[:, 1], d[:, 0]], axis=1)
    # At each point, the mitre between the segments before and after it.
    before, after = np.vstack([normal[:1], normal]), np.vstack([normal, normal[-1:]])
    mitre = before + after
    mitre /= np.einsum("ij,ij->i", mitre, after)[:, None]
    ends = points.copy()
    ends[0] -= d[0] * width / 2
    ends[-1] += d[-1] * width / 2
    offset = mitre * width / 2
    return np.vstack([ends + offset, (ends - offset)[::-1]])


def _draw_cover(image: np.ndarray, view: CameraView, markers: MarkerLayout, marker_id: int,
                rng: np.random.Generator) -> None:
    """A cup standing in front of marker ``marker_id`` (on the table's edge), hiding it
    with its quiet zone."""
    cx, cy = markers.centres[marker_id]
    reach = markers.size / 2 + markers.quiet_zone + 12
    z = 60.0
    bgr = rng.uniform(40, 230, 3)
    x0, x1 = cx - reach + rng.normal(0, 3), cx + reach + rng.normal(0, 3)
    y0, y1 = cy - reach - rng.uniform(5, 20), cy + reach + rng.uniform(5, 20)
    cols = 24
    for i in range(cols):
        xa, xb = x0 + (x1 - x0) * i / cols, x0 + (x1 - x0) * (i + 1) / cols
        shade = 0.55 + 0.45 * math.sin(math.pi * (i + 0.5) / cols)
        quad = view.project([[xa, y0, z], [xb + 0.2, y0, z], [xb + 0.2, y1, z], [xa, y1, z]])
        cv2.fillPoly(image, [np.round(quad * 16).astype(np.int32)], (bgr * shade).tolist(),
                     cv2.LINE_AA, 4)
    t = np.linspace(0, 2 * math.pi, 48, endpoint=False)
    rim = np.stack([(x0 + x1) / 2 + (x1 - x0) / 2 * np.cos(t), y1 + 8 * np.sin(t),
                    np.full_like(t, z)], axis=1)
    cv2.fillPoly(image, [np.round(view.project(rim) * 16).astype(np.int32)],
                 (bgr * 0.35).tolist(), cv2.LINE_AA, 4)


def _draw_hand(image: np.ndarray, board: Board, view: CameraView,
               rng: np.random.Generator) -> None:
    """A hand reaching in front of the pane from one side of the frame, out of focus."""
    h, w = image.shape[:2]
    z = 90.0
    skin = np.array([rng.uniform(70, 170), rng.uniform(100, 190), rng.uniform(140, 235)])
    side = rng.integers(4)
    reach_x = rng.uniform(0.2, 0.8) * board.width
    reach_y = rng.uniform(0.2, 0.8) * board.height
    tip = np.array([reach_x, reach_y])
    start = {0: (-400.0, reach_y), 1: (board.width + 400, reach_y),
             2: (reach_x, -400.0), 3: (reach_x, board.height + 400)}[int(side)]
    d = tip - np.array(start)
    d /= np.hypot(*d)
    n = np.array([-d[1], d[0]])
    mask = np.zeros((h, w), np.uint8)

    def blob(points: np.ndarray) -> None:
        p = view.project(np.column_stack([points, np.full(len(points), z)]))
        cv2.fillPoly(mask, [np.round(p * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)

    palm = tip - d * 60
    arm = np.array([start + n * 40, palm + n * 40, palm - n * 40, start - n * 40])
    blob(arm)
    t = np.linspace(0, 2 * math.pi, 32, endpoint=False)
    blob(palm + np.outer(np.cos(t), d) * 50 + np.outer(np.sin(t), n) * 45)
    for k in (-1.5, -0.5, 0.5, 1.5):
        base = palm + d * 35 + n * 22 * k
        finger_tip = base + d * rng.uniform(45, 70)
        blob(np.array([base + n * 9, finger_tip + n * 9, finger_tip - n * 9, base - n * 9]))
    mask = cv2.GaussianBlur(mask, (0, 0), 2.5)
    a = mask.astype(np.float32)[:, :, None] / 255
    shading = np.linspace(0.8, 1.05, w, dtype=np.float32)[None, :, None]
    image *= 1.0 - a
    image += a * skin.astype(np.float32) * shading


def _light(image: np.ndarray, view: CameraView, effects: Effects) -> np.ndarray:
    """Exposure, colour cast, light gradient, vignetting and glare, from smooth fields
    computed at 1/8 resolution."""
    w, h = view.size
    lw, lh = w // 8, h // 8
    u = (np.arange(lw, dtype=np.float32) + 0.5) / lw - 0.5
    v = (np.arange(lh, dtype=np.float32) + 0.5) / lh - 0.5
    gx, gy = effects.gradient
    field_ = (1.0 + gx * u[None, :] + gy * v[:, None]) * (
        1.0 - effects.vignetting * (u[None, :] ** 2 + v[:, None] ** 2) * 2
    )
    gain = field_[:, :, None] * (np.array(effects.gains, np.float32) * effects.exposure)
    gain = cv2.resize(gain.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    image *= gain
    if effects.glare:
        shine = np.zeros((lh, lw), np.float32)
        to_px = view.homography(GLARE_Z)
        yy, xx = np.mgrid[0:lh, 0:lw].astype(np.float32) * 8 + 3.5
        scale = view.px_per_mm((150.0, 150.0))
        for spot in effects.glare:
            p = to_px @ [spot.x, spot.y, 1.0]
            cu, cv_ = p[0] / p[2], p[1] / p[2]
            turn = math.radians(spot.angle)
            du, dv = xx - cu, yy - cv_
            a = (du * math.cos(turn) + dv * math.sin(turn)) / (spot.radius * spot.stretch * scale)
            b = (-du * math.sin(turn) + dv * math.cos(turn)) / (spot.radius * scale)
            shine += spot.strength * np.exp(-2.0 * (a * a + b * b) ** 1.5)
        shine = cv2.resize(shine, (w, h), interpolation=cv2.INTER_LINEAR)
        image += (shine * 255)[:, :, None]
    return image


def _normal_quantiles() -> np.ndarray:
    """The standard normal's quantiles at (k + 0.5) / 256, k = 0..255 (a lookup table
    that turns uniform bytes into normal noise)."""
    p = (np.arange(256) + 0.5) / 256
    z = np.zeros(256)
    lo, hi = np.full(256, -6.0), np.full(256, 6.0)
    for _ in range(60):
        z = (lo + hi) / 2
        below = 0.5 * (1 + np.vectorize(math.erf)(z / math.sqrt(2))) < p
        lo, hi = np.where(below, z, lo), np.where(below, hi, z)
    return z.astype(np.float32)


NORMAL_QUANTILES = _normal_quantiles()


def _sensor_noise(image: np.ndarray, sigma: float, rng: np.random.Generator) -> np.ndarray:
    """Add sensor noise: read noise plus shot noise, ``sigma`` levels at mid-grey."""
    h, w = image.shape[:2]
    read = sigma / 2
    shot = (sigma * sigma - read * read) / 128
    spread = cv2.sqrt(np.maximum(image, 0) * shot + read * read)
    draws = np.frombuffer(rng.bytes(h * w * 3), np.uint8).reshape(h, w, 3)
    image += cv2.LUT(draws, NORMAL_QUANTILES) * spread
    return image
