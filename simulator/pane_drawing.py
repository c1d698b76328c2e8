"""What the virtual camera sees in front of the pieces: the front pane's printed artwork,
and the things a café puts between the camera and the board (a cup, a hand).

The artwork lies at ``z = +ARTWORK_Z``: the level lines (:data:`LINE_WIDTH` wide), the
bonus circles (outline, a light translucent tint, their points printed inside), in a
semi-transparent ink. A cup stands in front of a marker, or a hand lies over it; a hand
reaches in over the drop zone; hands are out of focus. Each draws in place on a BGR uint8 frame.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import cv2
import numpy as np

from firmware_host.camera.setup import MarkerLayout
from firmware_host.config.board import Board
from simulator.board_drawing import AA_GROW, SHIFT

if TYPE_CHECKING:
    from simulator.camera_render import CameraView

ARTWORK_Z = 2.0
"""mm, the front pane's printed artwork in front of the pieces' faces."""

LINE_WIDTH = 1.2
"""mm, the printed level lines and bonus circles' outlines."""

DIGIT = cv2.getTextSize("0", cv2.FONT_HERSHEY_SIMPLEX, 1.0, 1)[0]
"""A printed digit's width and height (px) at font scale 1."""



class Ink:
    """A table's print: ink colour (BGR) and opacity, the circles' tint and its opacity."""

    INKS = (((245.0, 245.0, 245.0), 0.55), ((25.0, 25.0, 25.0), 0.5), ((120.0, 60.0, 20.0), 0.55))

    def __init__(self, rng: np.random.Generator) -> None:
        ink, self.ink_alpha = self.INKS[rng.integers(len(self.INKS))]
        self.ink = np.array(ink, np.float32)
        self.tint = rng.uniform(60, 255, 3).astype(np.float32)
        self.tint_alpha = float(rng.uniform(0.05, 0.15))


def _band(points: np.ndarray, width: float) -> np.ndarray:
    """The outline of a polyline drawn ``width`` wide (mitred joins, square ends)."""
    d = np.diff(points, axis=0)
    d /= np.hypot(*d.T)[:, None]
    normal = np.stack([-d[:, 1], d[:, 0]], axis=1)
    before, after = np.vstack([normal[:1], normal]), np.vstack([normal, normal[-1:]])
    mitre = before + after
    mitre /= np.einsum("ij,ij->i", mitre, after)[:, None]
    ends = points.copy()
    ends[0] -= d[0] * width / 2
    ends[-1] += d[-1] * width / 2
    offset = mitre * width / 2
    return np.vstack([ends + offset, (ends - offset)[::-1]])


def _project(view: CameraView, outline: np.ndarray, z: float) -> np.ndarray:
    return view.project(np.column_stack([outline, np.full(len(outline), z)]))


def _fill(mask: np.ndarray, pixels: np.ndarray, origin: np.ndarray, value: int) -> None:
    """Fill a polygon (frame pixels) into ``mask``, whose top-left pixel is ``origin``,
    anti-aliased (it grows by :data:`AA_GROW` px: callers draw it that much smaller)."""
    vertices = np.round((pixels - origin) * (1 << SHIFT)).astype(np.int32)
    cv2.fillPoly(mask, [vertices], value, cv2.LINE_AA, SHIFT)


def draw_artwork(image: np.ndarray, board: Board, view: CameraView, ink: Ink) -> None:
    """The printed level lines and bonus circles, blended over ``image``."""
    h, w = image.shape[:2]
    zone = _project(view, np.array([[0, 0], [board.width, 0], [board.width, board.height],
                                    [0, board.height]], float), ARTWORK_Z)
    x0, y0 = np.maximum(np.floor(zone.min(axis=0)).astype(int) - 4, 0)
    x1, y1 = np.minimum(np.ceil(zone.max(axis=0)).astype(int) + 5, (w, h))
    origin = np.array([x0, y0], float)
    lines = np.zeros((y1 - y0, x1 - x0), np.uint8)
    tint = np.zeros_like(lines)
    t = np.linspace(0, 2 * math.pi, 96, endpoint=False)
    ring = np.stack([np.cos(t), np.sin(t)], axis=1)
    scale = view.px_per_mm((board.width / 2, board.height / 2))
    grow = AA_GROW / scale
    font = 0.12 * scale
    digit_w, digit_h = DIGIT[0] * font, DIGIT[1] * font
    for circle in board.bonus_circles:
        centre = np.array([circle.x, circle.y])
        for mask, radius, value in (
            (tint, circle.radius - grow, 255),
            (lines, circle.radius + LINE_WIDTH / 2 - grow, 255),
            (lines, circle.radius - LINE_WIDTH / 2 - grow, 0),
        ):
            _fill(mask, _project(view, centre + ring * radius, ARTWORK_Z), origin, value)
        (u, v), = _project(view, np.array([[circle.x, circle.y - circle.radius * 0.55]]),
                           ARTWORK_Z) - origin
        cv2.putText(lines, str(circle.points), (round(u - digit_w / 2), round(v + digit_h / 2)),
                    cv2.FONT_HERSHEY_SIMPLEX, font, 255, max(1, round(scale / 2)), cv2.LINE_AA)
    for line in board.levels:
        band = _band(np.array(line.top, float), LINE_WIDTH - 2 * grow)
        _fill(lines, _project(view, band, ARTWORK_Z), origin, 255)
    found = cv2.findNonZero(cv2.bitwise_or(tint, lines))
    if found is None:
        return
    xs, ys = found.reshape(-1, 2).T
    tinted = tint[ys, xs].astype(np.float32)[:, None] * np.float32(ink.tint_alpha / 255)
    inked = lines[ys, xs].astype(np.float32)[:, None] * np.float32(ink.ink_alpha / 255)
    pixels = image.reshape(-1, 3)
    index = (ys + y0) * w + xs + x0
    under = np.take(pixels, index, axis=0).astype(np.float32)
    under += (ink.tint - under) * tinted
    under += (ink.ink - under) * inked
    pixels[index] = under + 0.5


def _sight(view: CameraView, point: tuple[float, float], z: float) -> np.ndarray:
    """Where the camera's line of sight to a board point meets the plane at ``z``."""
    eye = view.eye
    return eye[:2] + (np.asarray(point, float) - eye[:2]) * (eye[2] - z) / eye[2]


def draw_cover(image: np.ndarray, view: CameraView, markers: MarkerLayout, marker_id: int,
               light: np.ndarray, rng: np.random.Generator) -> None:
    """A cup standing in front of marker ``marker_id``, or a hand over it (even odds),
    hiding it with its quiet zone; ``light`` scales its colours (BGR)."""
    cx, cy = markers.centres[marker_id]
    if rng.random() < 0.5:
        inward = view.eye[:2] - np.array([cx, cy])  # the arm reaches in from outside
        _hand(image, view, _sight(view, (cx, cy), 60.0), inward, 60.0, light, rng)
        return
    h, w = image.shape[:2]
    z = 60.0
    cx, cy = _sight(view, (cx, cy), z)
    reach = markers.size / 2 + markers.quiet_zone + 12
    x0, x1 = cx - reach + rng.normal(0, 3), cx + reach + rng.normal(0, 3)
    y0, y1 = cy - reach - rng.uniform(5, 20), cy + reach + rng.uniform(5, 20)
    t = np.linspace(0, math.pi, 24)
    body = np.vstack([[[x0, y1], [x0, y0]],
                      np.stack([(x0 + x1) / 2 - (x1 - x0) / 2 * np.cos(t), y0 - 8 * np.sin(t)],
                               axis=1),
                      [[x1, y0], [x1, y1]]])
    pixels = _project(view, body, z)
    mask = np.zeros((h, w), np.uint8)
    cv2.fillPoly(mask, [np.round(pixels * (1 << SHIFT)).astype(np.int32)], 255, cv2.LINE_AA,
                 SHIFT)
    u0, u1 = pixels[:, 0].min(), pixels[:, 0].max()
    across = np.clip((np.arange(w, dtype=np.float32) - u0) / max(u1 - u0, 1.0), 0, 1)
    shade = (0.55 + 0.45 * np.sin(math.pi * across))[None, :, None]
    _blend(image, mask, rng.uniform(40, 230, 3).astype(np.float32) * light * shade)


def draw_hand(image: np.ndarray, board: Board, view: CameraView, light: np.ndarray,
              rng: np.random.Generator) -> None:
    """A hand reaching in front of the pane, over the drop zone, from one side; ``light``
    scales its colours (BGR)."""
    palm = np.array([rng.uniform(0.2, 0.8) * board.width, rng.uniform(0.2, 0.8) * board.height])
    side = int(rng.integers(4))
    towards = np.array(((1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0))[side])
    _hand(image, view, palm, towards, 90.0, light, rng)


def _hand(image: np.ndarray, view: CameraView, palm: np.ndarray, towards: np.ndarray,
          z: float, light: np.ndarray, rng: np.random.Generator) -> None:
    """A hand (arm, palm, four fingers) at height ``z``, its palm at ``palm`` (mm), the
    fingers pointing ``towards``, out of focus."""
    h, w = image.shape[:2]
    red = rng.uniform(120, 235)
    green = red * rng.uniform(0.7, 0.85)
    skin = np.array([green * rng.uniform(0.75, 0.9), green, red], np.float32) * light
    d = towards / np.hypot(*towards)
    n = np.array([-d[1], d[0]])
    start = palm - d * 500
    t = np.linspace(0, 2 * math.pi, 32, endpoint=False)
    shapes = [np.array([start + n * 40, palm + n * 40, palm - n * 40, start - n * 40]),
              palm + np.outer(np.cos(t), d) * 50 + np.outer(np.sin(t), n) * 45]
    for k in (-1.5, -0.5, 0.5, 1.5):
        base = palm + d * 35 + n * 22 * k
        end = base + d * rng.uniform(45, 70)
        shapes.append(np.array([base + n * 9, end + n * 9, end - n * 9, base - n * 9]))
    mask = np.zeros((h, w), np.uint8)
    for shape in shapes:
        cv2.fillPoly(mask, [np.round(_project(view, shape, z) * (1 << SHIFT)).astype(np.int32)],
                     255, cv2.LINE_AA, SHIFT)
    mask = cv2.GaussianBlur(mask, (0, 0), 2.5)
    _blend(image, mask, skin * np.linspace(0.8, 1.05, w, dtype=np.float32)[None, :, None])


def _blend(image: np.ndarray, mask: np.ndarray, color: np.ndarray) -> None:
    """Lay ``color`` (BGR, or a row of them: 1 x W x 3) over ``image`` where ``mask``
    (uint8 coverage) says, in the mask's bounding box only."""
    x, y, w, h = cv2.boundingRect(mask)
    if w == 0:
        return
    a = mask[y : y + h, x : x + w].astype(np.float32)[:, :, None] * np.float32(1 / 255)
    part = image[y : y + h, x : x + w]
    shade = color[:, x : x + w] if color.ndim == 3 else color
    part[:] = part * (1.0 - a) + a * shade + 0.5
