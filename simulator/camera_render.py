"""The virtual camera's renderer: what a camera at a :class:`CameraView` sees of the board.

Board frame (mm): origin at the inner bottom-left corner of the drop zone, x right, y up,
z toward the camera. Layers, back to front:

1. the café behind the back pane (:mod:`simulator.cafe`), through its own projection;
2. the board's plane (:mod:`simulator.board_drawing`): the stand, its walls, the edge
   pieces, the four ArUco markers, every piece with its rim (the markers and the faces
   supersampled: their edges lie within 0.2 px of the truth);
3. in front (:mod:`simulator.pane_drawing`): the front pane's printed artwork at
   ``z = +2 mm``, and, as faults, a cup or a hand over a marker, a hand over the pieces;
4. the camera (:class:`Effects`): exposure, colour cast, light gradient, vignetting, the
   front pane's haze, glare, a faint texture, optical blur, sensor noise, JPEG.

>>> from firmware_host.config.table import load_table
>>> from firmware_host.games.dropit.rules.pieces import Color, Piece, Pose, Shape
>>> table = load_table()
>>> view = CameraView.looking_at((1600, 1200), 1400.0, (800.0, 600.0), eye=(150, 155, 500))
>>> round(view.px_per_mm((150.0, 150.0)), 2)
2.8
>>> piece = Piece("p1", Color.RED, Shape.SQUARE, Pose(150.0, 17.0, 0.0))
>>> frame = render(table.board, table.camera, [piece], view, Effects(),
...                np.random.default_rng(1))
>>> frame.shape, frame.dtype.name
((1200, 1600, 3), 'uint8')
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from firmware_host.camera.setup import CameraSetup
from firmware_host.config.board import Board, EdgeFace
from firmware_host.config.noise import CameraNoise, CameraPose
from firmware_host.games.dropit.rules.pieces import Color, Piece
from simulator import board_drawing, pane_drawing
from simulator.board_drawing import SLOT_TOP, marker_plates, rect
from simulator.cafe import backdrop

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
        (ax, ay), (bx, by) = p[1] - p[0], p[2] - p[0]
        return math.sqrt(abs(ax * by - ay * bx))

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
    must_see = [*marker_plates(setup.markers), rect(0, 0, board.width, board.height + SLOT_TOP)]
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


TEXTURE = 0.02
"""The faint texture's strength (relative standard deviation of the light, per 8 px)."""


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
    """Everything a frame depends on besides the scene and the view; the defaults are a
    perfect camera (no light effects, noise, blur or JPEG) for tests.

    ``gains`` per channel (BGR) and ``exposure`` multiply the light; ``gradient`` (x, y:
    the light's change across the frame, as a fraction) and ``vignetting`` (darkening in
    the corners) shape it; ``glare`` adds reflections, ``haze`` turns that share of the
    view through the front pane light grey; ``clutter`` fills the café (0-1);
    ``sensor_noise`` (levels at mid-grey), ``blur`` (sigma, px), ``texture`` (relative)
    and ``jpeg_quality`` (100: none) are the camera's. ``table_seed`` fixes the table's
    print (stand and ink colours), each piece's paint and the texture; ``look_seed`` the
    café and the cup or hand over ``covered_marker`` (None: nothing); ``hand``: a hand in
    front of the drop zone.
    """

    gains: BGR = (1.0, 1.0, 1.0)
    exposure: float = 1.0
    gradient: tuple[float, float] = (0.0, 0.0)
    vignetting: float = 0.0
    glare: tuple[GlareSpot, ...] = ()
    haze: float = 0.0
    clutter: float = 0.3
    sensor_noise: float = 0.0
    blur: float = 0.0
    texture: float = 0.0
    jpeg_quality: int = 100
    table_seed: int = 0
    look_seed: int = 0
    covered_marker: int | None = None
    hand: bool = False


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
        haze=float(rng.uniform(*noise.pane_haze)),
        clutter=noise.clutter,
        sensor_noise=noise.sensor_noise,
        blur=float(rng.uniform(*noise.blur)),
        texture=TEXTURE,
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
    ``rng`` (the sensor noise) and the seeds in ``effects``: :func:`expose` of
    :func:`compose`."""
    return expose(compose(board, setup, pieces, view, effects, edges_face), effects, rng)


def compose(
    board: Board,
    setup: CameraSetup,
    pieces: Iterable[Piece],
    view: CameraView,
    effects: Effects,
    edges_face: EdgeFace = EdgeFace.COLOR,
) -> np.ndarray:
    """The image the lens forms on the sensor (BGR uint8): the scene, its light and the
    optical blur; the same for every frame of a still scene."""
    table = np.random.default_rng(effects.table_seed)
    look = np.random.default_rng(effects.look_seed)
    stand = _stand_color(table)
    ink = pane_drawing.Ink(table)
    image = _sharp_over_cafe(
        _sharp_layer(board, setup, pieces, view, stand, effects.table_seed, edges_face),
        backdrop(view, effects.clutter, [setup.colors.of(c) for c in Color], look),
    )
    pane_drawing.draw_artwork(image, board, view, ink)
    _light(image, board, view, effects, table)
    # In front of the pane: no haze, no glare on them; the exposure and cast, though.
    light = np.array(effects.gains, np.float32) * np.float32(effects.exposure)
    if effects.covered_marker is not None:
        pane_drawing.draw_cover(image, view, setup.markers, effects.covered_marker, light, look)
    if effects.hand:
        pane_drawing.draw_hand(image, board, view, light, look)
    if effects.blur > 0:
        image = cv2.GaussianBlur(image, (0, 0), effects.blur)
    return image


def _sharp_layer(
    board: Board,
    setup: CameraSetup,
    pieces: Iterable[Piece],
    view: CameraView,
    stand: BGR,
    table_seed: int,
    edges_face: EdgeFace,
) -> board_drawing.Layer:
    """Everything in the board's plane and behind it (:mod:`simulator.board_drawing`)."""
    layer = board_drawing.Layer(view)
    board_drawing.draw_stand(layer, board, setup.markers, stand)
    faces = board_drawing.draw_rims(layer, board, list(pieces), setup.colors, table_seed)
    board_drawing.draw_walls(layer, board, stand)
    board_drawing.draw_edges(layer, board, setup.colors, edges_face)
    board_drawing.draw_markers(layer, setup.markers)
    board_drawing.draw_faces(layer, faces)
    return layer


def _sharp_over_cafe(layer: board_drawing.Layer, cafe: np.ndarray) -> np.ndarray:
    """The sharp ``layer`` laid over the ``cafe`` (in place: the café's array is the
    image; the layer can go as soon as this returns)."""
    seen = cv2.merge([cv2.bitwise_not(layer.alpha)] * 3)
    cv2.multiply(cafe, seen, dst=cafe, scale=1 / 255)
    cv2.add(cafe, layer.color, dst=cafe)
    return cafe


def expose(image: np.ndarray, effects: Effects, rng: np.random.Generator) -> np.ndarray:
    """One frame (a new array) of the sensor's ``image``: its noise (from ``rng``), then
    JPEG."""
    if effects.sensor_noise > 0:
        frame = _sensor_noise(image, effects.sensor_noise, rng)
    else:
        frame = image.copy()
    if effects.jpeg_quality < 100:
        _, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, effects.jpeg_quality])
        frame = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return frame


STANDS = ((70, 70, 72), (200, 200, 195), (120, 95, 60), (150, 110, 40), (40, 40, 45))
"""The stand's colours a table may have (BGR): grey, light grey, wood, blue, black."""


def _stand_color(rng: np.random.Generator) -> BGR:
    base = np.array(STANDS[rng.integers(len(STANDS))], float)
    r, g, b = np.clip(base + rng.normal(0, 8, 3), 0, 255)
    return (float(r), float(g), float(b))


LIGHT_STEP = 8
"""The light's fields (gain, glare, texture) are computed every LIGHT_STEP px."""

GAIN_ONE = 128
"""The gain field's fixed point: 128 is a gain of 1 (steps of 0.8 %, up to 2)."""


HAZE = 230.0
"""The light grey a hazy pane scatters."""


def _light(frame: np.ndarray, board: Board, view: CameraView, effects: Effects,
           table: np.random.Generator) -> None:
    """Put ``frame`` (in place) under exposure, colour cast, gradient, vignetting, a faint
    texture (the table's: wood, paint, the pane's wear), the pane's haze and glare, from
    smooth fields."""
    w, h = view.size
    lw, lh = -(-w // LIGHT_STEP), -(-h // LIGHT_STEP)
    u = (np.arange(lw, dtype=np.float32) + 0.5) / lw - 0.5
    v = (np.arange(lh, dtype=np.float32) + 0.5) / lh - 0.5
    gx, gy = effects.gradient
    gain = (1.0 + gx * u[None, :] + gy * v[:, None]) * (
        1.0 - effects.vignetting * 2 * (u[None, :] ** 2 + v[:, None] ** 2)
    ) * table.normal(1.0, effects.texture, (lh, lw))
    shine = np.zeros((lh, lw), np.float32)
    if effects.haze > 0:
        pane = np.zeros((lh, lw), np.float32)
        outline = rect(0, 0, board.width, board.height + SLOT_TOP)
        corners = view.project(np.column_stack([outline, np.full(4, GLARE_Z)]))
        cv2.fillPoly(pane, [np.round(((corners + 0.5) / LIGHT_STEP - 0.5) * 16).astype(np.int32)],
                     effects.haze, cv2.LINE_8, 4)
        gain *= 1.0 - pane
        shine += pane * HAZE
    cast = np.array(effects.gains, np.float32) * np.float32(effects.exposure)
    fixed = np.clip(np.round(gain[:, :, None] * cast * GAIN_ONE), 0, 255).astype(np.uint8)
    field = cv2.resize(fixed, (w, h), interpolation=cv2.INTER_LINEAR)
    cv2.multiply(frame, field, dst=frame, scale=1 / GAIN_ONE)
    del field
    yy, xx = (np.mgrid[0:lh, 0:lw].astype(np.float32) + 0.5) * LIGHT_STEP - 0.5
    for spot in effects.glare:
        (cu, cv_), = view.project([[spot.x, spot.y, GLARE_Z]])
        px = spot.radius * view.px_per_mm((spot.x, spot.y))
        turn = math.radians(spot.angle)
        du, dv = xx - cu, yy - cv_
        a = (du * math.cos(turn) + dv * math.sin(turn)) / (px * spot.stretch)
        b = (-du * math.sin(turn) + dv * math.cos(turn)) / px
        shine += spot.strength * 255 * np.exp(-2.0 * (a * a + b * b) ** 1.5)
    if shine.any():
        glare = cv2.resize(np.clip(shine * effects.exposure, 0, 255).astype(np.uint8), (w, h),
                           interpolation=cv2.INTER_LINEAR)
        cv2.add(frame, cv2.merge([glare] * 3), dst=frame)


def _normal_quantiles() -> np.ndarray:
    """The standard normal's quantiles at (k + 0.5) / 256, k = 0..255: a table that turns
    uniform random bytes into normal noise."""
    p = (np.arange(256) + 0.5) / 256
    lo, hi = np.full(256, -6.0), np.full(256, 6.0)
    erf = np.vectorize(math.erf)
    for _ in range(60):
        z = (lo + hi) / 2
        below = 0.5 * (1 + erf(z / math.sqrt(2))) < p
        lo, hi = np.where(below, z, lo), np.where(below, hi, z)
    return (lo + hi) / 2


NORMAL_NOISE = np.round(16 * _normal_quantiles()).astype(np.int16)
"""Standard normal noise in 1/16 (+-3.5 sigma), indexed by a uniform random byte."""


NOISE_ROWS = 64
"""The sensor noise is added this many rows at a time (its 16-bit fields for a whole
frame took 27 MB)."""


def _sensor_noise(frame: np.ndarray, sigma: float, rng: np.random.Generator) -> np.ndarray:
    """``frame`` (a new array) with sensor noise as a camera's processing leaves it:
    luminance noise (the same in every channel; chroma noise is what a camera's
    processing removes), read noise plus shot noise, ``sigma`` levels at mid-grey (less
    in the dark, more in the light)."""
    read = sigma / 2
    shot = (sigma * sigma - read * read) / 128
    spread = np.round(np.sqrt(read * read + shot * np.arange(256)) * 16).astype(np.int16)
    h, w = frame.shape[:2]
    draws = np.frombuffer(rng.bytes(h * w), np.uint8).reshape(h, w)
    noisy = np.empty_like(frame)
    for top in range(0, h, NOISE_ROWS):
        rows = slice(top, top + NOISE_ROWS)
        luma = cv2.cvtColor(frame[rows], cv2.COLOR_BGR2GRAY)
        noise = cv2.multiply(cv2.LUT(draws[rows], NORMAL_NOISE), cv2.LUT(luma, spread),
                             scale=1 / 256, dtype=cv2.CV_16S)
        noisy[rows] = cv2.add(frame[rows], cv2.merge([noise] * 3), dtype=cv2.CV_8U)
    return noisy
