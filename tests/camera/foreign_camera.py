"""A foreign camera: frames of the board drawn from the reference set-up's description alone
(docs/reference-table.md, "The camera as the reference table sets it up").

Our locator was developed on our own renderers (``simulator/``, ``tests/camera/synthetic.py``);
this one shares no code or drawing choice with them, so that a pass here says the locator
generalises rather than that it learnt one renderer. It takes from the project only the
board's facts (shapes, level lines, bonus circles, edge segments) and the camera set-up
(markers, nominal colours).

How it differs on purpose:

* a true pinhole camera (:class:`Rig`) in 3D: the board's plane is ``z = 0``, the camera
  on the ``+z`` side 40-60 cm away, leaning up to 12 degrees any way, rolled a few degrees;
* everything is rendered in *linear* light and turned into sRGB after the lens blur, as a
  real sensor does;
* edges are drawn with analytic coverage (each pixel's signed distance to a projected
  polygon's edges), not by supersampling; the markers by 5 x 5 point samples through the
  inverse projection;
* a piece is a prism :data:`THICKNESS` deep behind its face, its visible side walls
  flat-shaded by a light from above, so a darker rim shows in perspective beside the face;
  a circle's wall is shaded pixel by pixel;
* the café is a blurred collage drawn in image space, some of it in the pieces' colours;
* the pane's print (level lines, bonus circles with a tint and their points) lies
  :attr:`Scene.art_z` mm in front of the faces, drawn on a board raster and warped.

>>> from firmware_host.config.table import load_table
>>> from firmware_host.games.dropit.rules.pieces import Color, Piece, Pose, Shape
>>> table = load_table()
>>> rig = Rig.aimed(scale=2.5, tilt=6.0, direction=30.0, roll=2.0, distance=500.0)
>>> round(rig.px_per_mm(150.0, 155.0), 2)  # at the aim, 2.5 * sqrt(cos 6 degrees)
2.49
>>> piece = Piece("p1", Color.RED, Shape.SQUARE, Pose(150.0, 17.0, 0.0))
>>> frames = render_look(table, [piece], rig, np.random.default_rng(1), frames=1)
>>> cv2.imdecode(np.frombuffer(frames[0], np.uint8), cv2.IMREAD_COLOR).shape
(1200, 1600, 3)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from firmware_host.camera.setup import CameraSetup
from firmware_host.config.board import Board, CircleShape, EdgeFace, Side
from firmware_host.config.table import Table
from firmware_host.games.dropit.rules.pieces import Piece

Array = np.ndarray

SIZE = (1600, 1200)
"""Frame width and height (px)."""
THICKNESS = 10.0
"""mm, the pieces' thickness (``config/physics``), the gap between the panes."""
WINDOW_TOP = 322.0
"""mm, where the stand's top bar starts above the floor (the entry slot lies below it)."""
STRIP = 9.0
"""mm, the width of the edge pieces' faces beside the walls and floor."""
CIRCLE_SIDES = 256
"""A circle's outline is a polygon of this many sides (0.002 mm from the true circle)."""


def to_linear(srgb: Array) -> Array:
    """sRGB values 0-255 to linear light 0-1."""
    c = np.asarray(srgb, np.float32) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4).astype(np.float32)


_STEPS = 65535
_ENCODE = (255.0 * np.where(
    (c := np.arange(_STEPS + 1) / _STEPS) <= 0.0031308, 12.92 * c, 1.055 * c ** (1 / 2.4) - 0.055
)).astype(np.float32)


def to_srgb(linear: Array) -> Array:
    """Linear light 0-1 to sRGB values 0-255 (float; through a table of 65536 steps)."""
    return _ENCODE[np.rint(np.clip(linear, 0.0, 1.0) * _STEPS).astype(np.int32)]


@dataclass(frozen=True)
class Rig:
    """A pinhole camera: focal length ``f`` (px), principal point, rotation ``rot`` (rows:
    the camera's x right, y down, z forward, in board axes) and centre ``eye`` (mm)."""

    f: float
    principal: tuple[float, float]
    rot: Array
    eye: Array

    @classmethod
    def aimed(
        cls,
        scale: float,
        tilt: float,
        direction: float,
        roll: float,
        distance: float,
        aim: tuple[float, float] = (150.0, 155.0),
        principal: tuple[float, float] = (800.0, 600.0),
    ) -> Rig:
        """A camera ``distance`` mm from the point ``aim`` of the board, its optical axis
        leaning ``tilt`` degrees off the board's normal toward ``direction`` (degrees from
        +x), turned ``roll`` degrees about that axis, with ``scale`` px/mm at ``aim`` on a
        plane square to the axis (on the board, which leans ``tilt`` away, ``sqrt(cos(tilt))``
        times that)."""
        t, d = math.radians(tilt), math.radians(direction)
        back = np.array([math.sin(t) * math.cos(d), math.sin(t) * math.sin(d), math.cos(t)])
        forward = -back
        right = np.cross(forward, (0.0, 1.0, 0.0))
        right /= np.linalg.norm(right)
        down = np.cross(forward, right)
        r = math.radians(roll)
        right, down = (math.cos(r) * right + math.sin(r) * down,
                       -math.sin(r) * right + math.cos(r) * down)
        eye = np.array([aim[0], aim[1], 0.0]) + distance * back
        return cls(scale * distance, principal, np.stack([right, down, forward]), eye)

    def project(self, points: Array) -> Array:
        """Board points (N x 3, mm) to pixel coordinates (N x 2; a pixel's centre is at its
        integer column and row, as OpenCV has it)."""
        cam = (np.asarray(points, float) - self.eye) @ self.rot.T
        return self.f * cam[:, :2] / cam[:, 2:3] + self.principal

    def homography(self, z: float = 0.0) -> Array:
        """The plane ``z`` (mm) of the board to the image: (x, y, 1) -> pixel."""
        k = np.array([[self.f, 0, self.principal[0]], [0, self.f, self.principal[1]], [0, 0, 1]])
        t = -self.rot @ self.eye
        return k @ np.column_stack([self.rot[:, 0], self.rot[:, 1], self.rot[:, 2] * z + t])

    def px_per_mm(self, x: float, y: float) -> float:
        """The image's scale at a point of the face plane: the square root of the area of a
        1 mm square's image."""
        h = self.homography()
        jac = np.empty((2, 2))
        p = np.array([x, y, 1.0])
        q = h @ p
        for i in range(2):
            jac[:, i] = (h[:2, i] * q[2] - q[:2] * h[2, i]) / q[2] ** 2
        return math.sqrt(abs(np.linalg.det(jac)))


@dataclass(frozen=True)
class Scene:
    """The look's light and print, drawn once from a seed."""

    light: Array  # unit vector the light comes from (board axes)
    gains: Array  # white balance / colour cast, per channel (BGR)
    exposure: float
    gradient: tuple[float, float, float]  # strength, direction (rad), vignetting
    glare: tuple[tuple[float, float, float, float, float], ...]  # u, v, sx, sy, strength
    blur: float  # Gaussian sigma, px
    noise: float  # sensor noise at mid-grey, levels of 255
    jpeg: int
    art_z: float  # mm in front of the faces
    ink: Array  # linear BGR
    ink_alpha: float
    line_mm: float
    stand: Array  # linear BGR

    @classmethod
    def draw(cls, rng: np.random.Generator, rig: Rig) -> Scene:
        """A scene's conditions at random, within what a café shows."""
        light = np.array([rng.uniform(-0.5, 0.5), 1.0, rng.uniform(0.3, 0.9)])
        spots = []
        for _ in range(int(rng.integers(1, 3))):
            u, v = rng.uniform(200, 1400), rng.uniform(150, 1050)
            spots.append((u, v, rng.uniform(15, 60), rng.uniform(15, 60), rng.uniform(0.1, 0.6)))
        inks = ((240, 240, 235), (30, 30, 30), (90, 40, 20), (60, 60, 150))
        ink = inks[int(rng.integers(len(inks)))]
        stands = ((200, 215, 225), (40, 40, 40), (120, 140, 160), (230, 230, 230), (90, 60, 40))
        return cls(
            light=light / np.linalg.norm(light),
            gains=rng.uniform(0.82, 1.18, 3).astype(np.float32),
            exposure=float(rng.uniform(0.8, 1.15)),
            gradient=(float(rng.uniform(0.05, 0.3)), float(rng.uniform(0, 2 * math.pi)),
                      float(rng.uniform(0.0, 0.3))),
            glare=tuple(spots),
            blur=float(rng.uniform(0.6, 1.2)),
            noise=float(rng.uniform(1.5, 4.0)),
            jpeg=int(rng.integers(80, 93)),
            art_z=float(rng.uniform(0.5, 3.0)),
            ink=to_linear(ink[::-1]),
            ink_alpha=float(rng.uniform(0.35, 0.65)),
            line_mm=float(rng.uniform(0.8, 1.8)),
            stand=to_linear(stands[int(rng.integers(len(stands)))]),
        )


def coverage(poly: Array, us: Array, vs: Array) -> Array:
    """How much of each pixel (columns ``us``, rows ``vs``) a convex polygon (pixel
    coordinates) covers: the product over its edges of a one-pixel ramp of the signed
    distance, which crosses a half exactly on the edge."""
    poly = np.asarray(poly, float)
    area = np.sum(poly[:, 0] * np.roll(poly[:, 1], -1) - np.roll(poly[:, 0], -1) * poly[:, 1])
    cover = np.ones((len(vs), len(us)), np.float32)
    for a, b in zip(poly, np.roll(poly, -1, axis=0), strict=True):
        edge = b - a
        length = math.hypot(*edge)
        if length < 1e-9:
            continue
        nx, ny = (edge[1], -edge[0]) if area > 0 else (-edge[1], edge[0])
        nx, ny = nx / length, ny / length
        dist = (us[None, :] - a[0]) * nx + (vs[:, None] - a[1]) * ny
        cover *= np.clip(0.5 - dist, 0.0, 1.0).astype(np.float32)
    return cover


def paint(image: Array, poly: Array, colour: Array | float, pad: int = 2) -> None:
    """Paint a convex polygon (pixel coordinates) over ``image`` in place; ``colour`` a
    BGR triple, or a per-pixel array of the polygon's box (see :func:`box_of`)."""
    box = box_of(poly, pad)
    if box is None:
        return
    (u0, u1), (v0, v1) = box
    cover = coverage(poly, np.arange(u0, u1, dtype=float), np.arange(v0, v1, dtype=float))
    tile = image[v0:v1, u0:u1]
    tile += cover[..., None] * (np.asarray(colour, np.float32) - tile)


def box_of(poly: Array, pad: int = 2) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """The pixel box (columns, rows; end exclusive) around a polygon, in the frame."""
    lo = np.floor(np.min(poly, axis=0)).astype(int) - pad
    hi = np.ceil(np.max(poly, axis=0)).astype(int) + pad + 1
    u0, v0 = max(lo[0], 0), max(lo[1], 0)
    u1, v1 = min(hi[0], SIZE[0]), min(hi[1], SIZE[1])
    if u0 >= u1 or v0 >= v1:
        return None
    return (u0, u1), (v0, v1)


def board_points(rig: Rig, z: float, us: Array, vs: Array) -> tuple[Array, Array]:
    """The board coordinates (mm, on the plane ``z``) each pixel of a box shows."""
    inv = np.linalg.inv(rig.homography(z))
    uu, vv = np.meshgrid(us, vs)
    w = inv[2, 0] * uu + inv[2, 1] * vv + inv[2, 2]
    return ((inv[0, 0] * uu + inv[0, 1] * vv + inv[0, 2]) / w,
            (inv[1, 0] * uu + inv[1, 1] * vv + inv[1, 2]) / w)


def outline(board: Board, piece: Piece) -> Array:
    """The piece's face outline in the board (N x 2, mm, counter-clockwise)."""
    dims = board.shapes.of(piece.shape)
    if isinstance(dims, CircleShape):
        t = np.linspace(0, 2 * math.pi, CIRCLE_SIDES, endpoint=False)
        local = dims.radius * np.column_stack([np.cos(t), np.sin(t)])
    else:
        turn = math.radians(piece.pose.angle)
        c, s = math.cos(turn), math.sin(turn)
        local = np.asarray(dims.vertices, float) @ np.array([[c, s], [-s, c]])
    return local + np.array([piece.pose.x, piece.pose.y])


def cafe(rng: np.random.Generator, piece_colours: Sequence[tuple[int, int, int]]) -> Array:
    """The café behind the panes, out of focus (linear BGR, frame size)."""
    w, h = SIZE[0] // 4, SIZE[1] // 4
    top, bottom = rng.uniform(40, 200, 3), rng.uniform(20, 150, 3)
    ramp = np.linspace(0, 1, h, dtype=np.float32)[:, None, None]
    img = (top * (1 - ramp) + bottom * ramp) * np.ones((1, w, 1), np.float32)
    for _ in range(int(rng.integers(25, 45))):
        if rng.random() < 0.35:
            rgb = np.asarray(piece_colours[int(rng.integers(len(piece_colours)))], float)
            colour = np.clip(rgb * rng.uniform(0.7, 1.1) + rng.normal(0, 12, 3), 0, 255)[::-1]
        else:
            colour = rng.uniform(0, 255, 3)
        cx, cy = int(rng.integers(0, w)), int(rng.integers(0, h))
        a, b = int(rng.integers(4, 60)), int(rng.integers(4, 60))
        kind = rng.random()
        if kind < 0.4:
            cv2.rectangle(img, (cx - a, cy - b), (cx + a, cy + b), colour.tolist(), -1)
        elif kind < 0.8:
            cv2.ellipse(img, (cx, cy), (a, b), float(rng.uniform(0, 180)), 0, 360,
                        colour.tolist(), -1)
        else:
            cv2.line(img, (cx - a, cy - b), (cx + a, cy + b), colour.tolist(),
                     int(rng.integers(1, 6)))
    img = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(1.0, 3.0)))
    img = to_linear(np.clip(img, 0, 255)) * np.float32(rng.uniform(0.4, 0.9))
    return cv2.resize(img, SIZE, interpolation=cv2.INTER_LINEAR)


def _wall_shade(light: Array, normal: Array) -> float:
    """How bright a piece's side wall is against its face (0-1)."""
    return 0.18 + 0.5 * max(0.0, float(np.dot(normal, light)))


def _draw_piece(image: Array, rig: Rig, scene: Scene, front: Array, colour: Array,
                rng: np.random.Generator, circle: bool) -> None:
    """One piece: its visible side walls, then its grained face."""
    back = np.column_stack([front, np.full(len(front), -THICKNESS)])
    face3 = np.column_stack([front, np.zeros(len(front))])
    f_px, b_px = rig.project(face3), rig.project(back)
    hull = cv2.convexHull(np.vstack([f_px, b_px]).astype(np.float32))[:, 0, :]
    box = box_of(hull)
    if box is None:
        return
    (u0, u1), (v0, v1) = box
    us, vs = np.arange(u0, u1, dtype=float), np.arange(v0, v1, dtype=float)
    tile = image[v0:v1, u0:u1]
    centre = front.mean(axis=0)
    if circle:
        # each pixel of the wall takes the shade of the wall's normal where it shows
        x, y = board_points(rig, -THICKNESS / 2, us, vs)
        dx, dy = x - centre[0], y - centre[1]
        norm = np.maximum(np.hypot(dx, dy), 1e-6)
        lit = np.maximum(0.0, (dx * scene.light[0] + dy * scene.light[1]) / norm)
        shade = (0.18 + 0.5 * lit).astype(np.float32)
        cover = coverage(hull, us, vs)
        tile += cover[..., None] * (shade[..., None] * colour - tile)
    else:
        paint(image, hull, colour * 0.3)
        for i in range(len(front)):
            j = (i + 1) % len(front)
            edge = front[j] - front[i]
            normal = np.array([edge[1], -edge[0], 0.0]) / math.hypot(*edge)
            middle = np.array([*(front[i] + front[j]) / 2, -THICKNESS / 2])
            if np.dot(rig.eye - middle, normal) <= 0:
                continue
            quad = np.array([f_px[i], f_px[j], b_px[j], b_px[i]])
            paint(image, quad, colour * _wall_shade(scene.light, normal))
    # the face: flat paint with a faint grain along a random direction
    x, y = board_points(rig, 0.0, us, vs)
    turn = rng.uniform(0, math.pi)
    along = (x - centre[0]) * math.cos(turn) + (y - centre[1]) * math.sin(turn)
    across = -(x - centre[0]) * math.sin(turn) + (y - centre[1]) * math.cos(turn)
    grain = (1.0 + 0.025 * np.sin(2 * math.pi * across / rng.uniform(1.2, 3.0)
                                  + 0.8 * np.sin(along / rng.uniform(4, 9)))
             + 0.0015 * along).astype(np.float32)
    cover = coverage(f_px, us, vs)
    tile += cover[..., None] * (grain[..., None] * colour - tile)


def _draw_markers(image: Array, rig: Rig, setup: CameraSetup) -> None:
    """The four ArUco markers: a white plate, the marker's cells; 5 x 5 samples a pixel."""
    layout = setup.markers
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, layout.dictionary))
    cells = dictionary.markerSize + 2
    white, black = to_linear((232, 234, 236)), to_linear((22, 22, 24))
    n = 5
    sub = (np.arange(n) + 0.5) / n - 0.5
    for marker_id, (cx, cy) in layout.centres.items():
        bits = cv2.aruco.generateImageMarker(dictionary, marker_id, cells) > 127
        half = layout.size / 2 + layout.quiet_zone
        plate = np.array([[cx - half, cy - half, 0], [cx + half, cy - half, 0],
                          [cx + half, cy + half, 0], [cx - half, cy + half, 0]])
        box = box_of(rig.project(plate))
        if box is None:
            continue
        (u0, u1), (v0, v1) = box
        us = (np.arange(u0, u1)[:, None] + sub[None, :]).ravel()
        vs = (np.arange(v0, v1)[:, None] + sub[None, :]).ravel()
        x, y = board_points(rig, 0.0, us, vs)
        inside = (np.abs(x - cx) <= half) & (np.abs(y - cy) <= half)
        col = np.floor((x - (cx - layout.size / 2)) / (layout.size / cells)).astype(int)
        row = np.floor(((cy + layout.size / 2) - y) / (layout.size / cells)).astype(int)
        in_square = (col >= 0) & (col < cells) & (row >= 0) & (row < cells)
        dark = in_square & ~bits[np.clip(row, 0, cells - 1), np.clip(col, 0, cells - 1)]
        shape = (v1 - v0, n, u1 - u0, n)
        cover = inside.reshape(shape).mean(axis=(1, 3)).astype(np.float32)
        black_share = (dark & inside).reshape(shape).mean(axis=(1, 3)).astype(np.float32)
        colour = (cover - black_share)[..., None] * white + black_share[..., None] * black
        tile = image[v0:v1, u0:u1]
        tile *= 1 - cover[..., None]
        tile += colour


def _artwork(board: Board, rig: Rig, scene: Scene) -> Array:
    """The pane's print as an opacity map at frame size: every level line but the top
    edge, each bonus circle's ring, a light tint inside it and its points."""
    res, x0, y1 = 8.0, -10.0, 330.0
    w, h = int((320 - x0) * res), int((y1 + 10) * res)
    art = np.zeros((h, w), np.uint8)
    shift = 4

    def at(x: float, y: float) -> tuple[int, int]:
        return round((x - x0) * res * 16), round((y1 - y) * res * 16)

    thick = max(1, round(scene.line_mm * res))
    for line in board.levels[:-1]:
        pts = np.array([at(x, y) for x, y in line.top], np.int32)
        cv2.polylines(art, [pts], False, 255, thick, cv2.LINE_AA, shift)
    tint = np.zeros_like(art)
    for c in board.bonus_circles:
        radius = round(c.radius * res * 16)
        cv2.circle(tint, at(c.x, c.y), radius, 64, -1, cv2.LINE_AA, shift)
        cv2.circle(art, at(c.x, c.y), radius, 255, thick, cv2.LINE_AA, shift)
        text = str(c.points)
        scale = c.radius * res / 40
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, 2)
        u, v = (c.x - x0) * res, (y1 - c.y) * res
        cv2.putText(art, text, (int(u - tw / 2), int(v + th / 2)), cv2.FONT_HERSHEY_DUPLEX,
                    scale, 255, max(2, thick // 2), cv2.LINE_AA)
    art = np.maximum(art, tint).astype(np.float32) / 255.0
    art = cv2.GaussianBlur(art, (0, 0), 0.5 * res / rig.px_per_mm(150, 150))
    to_board = np.array([[1 / res, 0, x0], [0, -1 / res, y1], [0, 0, 1]])
    return cv2.warpPerspective(art, rig.homography(scene.art_z) @ to_board, SIZE,
                               flags=cv2.INTER_LINEAR, borderValue=0.0)


def render_scene(table: Table, pieces: Sequence[Piece], rig: Rig, scene: Scene,
                 rng: np.random.Generator, edges: EdgeFace = EdgeFace.COLOR) -> Array:
    """The light reaching the sensor (linear BGR float, frame size), before the lens blur."""
    board, setup = table.board, table.camera
    if setup is None:
        raise ValueError("the table has no camera")
    colours = {str(c): setup.colors.of(c) for c in ("red", "blue", "yellow", "green")}
    image = cafe(rng, list(colours.values()))
    # the far side's inner walls and floor, seen in perspective between the panes
    wall = to_linear((70, 75, 80)) * np.float32(rng.uniform(0.6, 1.3))
    for quad in (
        [(0, 0, 0), (300, 0, 0), (300, 0, -THICKNESS), (0, 0, -THICKNESS)],
        [(0, 0, 0), (0, WINDOW_TOP, 0), (0, WINDOW_TOP, -THICKNESS), (0, 0, -THICKNESS)],
        [(300, 0, 0), (300, WINDOW_TOP, 0), (300, WINDOW_TOP, -THICKNESS),
         (300, 0, -THICKNESS)],
    ):
        paint(image, rig.project(np.array(quad, float)), wall)
    # the pieces' side walls lie behind the stand's plane: every rim before any face;
    # the farthest piece first
    order = sorted(pieces, key=lambda p: -math.dist(rig.eye[:2], (p.pose.x, p.pose.y)))
    paint_of = {}
    for piece in order:
        rgb = np.asarray(colours[str(piece.color)], float) * rng.uniform(0.96, 1.04, 3)
        paint_of[piece.id] = to_linear(np.clip(rgb, 0, 255)[::-1])
    for piece in order:
        front = outline(board, piece)
        _draw_piece(image, rig, scene, front, paint_of[piece.id], rng,
                    isinstance(board.shapes.of(piece.shape), CircleShape))
    # the stand around the window, then the edge pieces' faces
    h0 = np.array([[-60, -60, 0], [360, -60, 0], [360, 375, 0], [-60, 375, 0]], float)
    window = np.array([[0, 0, 0], [300, 0, 0], [300, WINDOW_TOP, 0], [0, WINDOW_TOP, 0]],
                      float)
    outer_px, window_px = rig.project(h0), rig.project(window)
    us, vs = np.arange(SIZE[0], dtype=float), np.arange(SIZE[1], dtype=float)
    stand = coverage(outer_px, us, vs) * (1 - coverage(window_px, us, vs))
    image += stand[..., None] * (scene.stand - image)
    for seg in board.edges.face(edges) if edges != EdgeFace.NONE else []:
        rgb = colours.get(seg.symbol, (150, 150, 150))
        colour = to_linear(np.asarray(rgb, float)[::-1] * 0.95)
        lo, hi = seg.start, seg.end
        rect = {
            Side.LEFT: [(-STRIP, lo), (0, lo), (0, hi), (-STRIP, hi)],
            Side.RIGHT: [(300, lo), (300 + STRIP, lo), (300 + STRIP, hi), (300, hi)],
            Side.BOTTOM: [(lo, -STRIP), (hi, -STRIP), (hi, 0), (lo, 0)],
        }[seg.side]
        paint(image, rig.project(np.array([(x, y, 0) for x, y in rect], float)), colour)
    _draw_markers(image, rig, setup)
    art = _artwork(board, rig, scene) * np.float32(scene.ink_alpha)
    image += art[..., None] * (scene.ink - image)
    return image


def develop(light: Array, scene: Scene, linear_blur: bool = True) -> Array:
    """What the sensor records of the look (sRGB float, frame size): light fall-off,
    white balance, exposure, glare on the pane, lens blur: in linear light, as a lens
    blurs (``linear_blur``), or on the sRGB values, as our own renderers do (a blurred
    edge's half-way level then lies on the edge in sRGB too)."""
    h, w = SIZE[1], SIZE[0]
    strength, angle, vignette = scene.gradient
    uu = (np.arange(w, dtype=np.float32) - w / 2) / (w / 2)
    vv = (np.arange(h, dtype=np.float32) - h / 2) / (h / 2)
    ramp = 1 + strength * (math.cos(angle) * uu[None, :] + math.sin(angle) * vv[:, None]) / 2
    fall = ramp * (1 - vignette * (uu[None, :] ** 2 + vv[:, None] ** 2) / 2)
    img = light * (fall[..., None] * scene.gains * np.float32(scene.exposure))
    for u, v, sx, sy, peak in scene.glare:
        blob = np.exp(-0.5 * (((np.arange(w) - u) / sx)[None, :] ** 2
                              + ((np.arange(h) - v) / sy)[:, None] ** 2)).astype(np.float32)
        img += (peak * blob)[..., None] * np.array([1.0, 0.98, 0.95], np.float32)
    if linear_blur:
        return to_srgb(cv2.GaussianBlur(img, (0, 0), scene.blur))
    return cv2.GaussianBlur(to_srgb(img), (0, 0), scene.blur)


def shoot(developed: Array, scene: Scene, rng: np.random.Generator) -> bytes:
    """One frame of the look: a flicker of the exposure, sensor noise (more where it is
    brighter) and JPEG (the file's bytes)."""
    out = developed * np.float32(rng.uniform(0.98, 1.02) ** (1 / 2.4))
    sigma = np.sqrt(np.float32((scene.noise * 0.5) ** 2) + np.float32(scene.noise ** 2 / 128) * out)
    out += sigma * rng.standard_normal(out.shape, dtype=np.float32)
    frame = np.clip(np.rint(out), 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, scene.jpeg])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return data.tobytes()


def render_look(table: Table, pieces: Sequence[Piece], rig: Rig, rng: np.random.Generator,
                frames: int = 3, edges: EdgeFace = EdgeFace.COLOR,
                linear_blur: bool = True) -> list[bytes]:
    """``frames`` JPEG frames of one still scene (the same light and print; each frame
    its own sensor noise and a flicker of the exposure); ``linear_blur``: see
    :func:`develop`."""
    scene = Scene.draw(rng, rig)
    developed = develop(render_scene(table, pieces, rig, scene, rng, edges), scene,
                        linear_blur)
    return [shoot(developed, scene, rng) for _ in range(frames)]


def markers_in_frame(rig: Rig, setup: CameraSetup, margin: float = 8.0) -> bool:
    """Whether every marker's white plate lies inside the frame, ``margin`` px clear."""
    half = setup.markers.size / 2 + setup.markers.quiet_zone
    for cx, cy in setup.markers.centres.values():
        corners = np.array([[cx + sx * half, cy + sy * half, 0]
                            for sx in (-1, 1) for sy in (-1, 1)])
        px = rig.project(corners)
        if (px.min() < margin or px[:, 0].max() > SIZE[0] - margin
                or px[:, 1].max() > SIZE[1] - margin):
            return False
    return True
