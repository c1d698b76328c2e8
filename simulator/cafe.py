"""The café behind the back pane, as the virtual camera sees it: out of focus, low-ish
contrast, random clutter (people, tables, cups, posters, plants, lamps), some of it in
colours close to the pieces'.

The café is a plane ``depth`` mm behind the board (``z = -depth``), drawn in its own
projection at an eighth of the frame's resolution (it is blurred anyway), then scaled up.

>>> import numpy as np
>>> from simulator.camera_render import CameraView
>>> view = CameraView.looking_at((320, 240), 600.0, (160.0, 120.0), eye=(150, 150, 500))
>>> backdrop(view, 0.5, [(205, 45, 50)], np.random.default_rng(1)).shape
(240, 320, 3)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import cv2
import numpy as np

from simulator.board_drawing import rect

if TYPE_CHECKING:
    from simulator.camera_render import CameraView

LOW = 8
"""The café is drawn at 1/LOW of the frame's resolution."""

DEPTH_MM = (1200.0, 3500.0)
"""How far behind the board the café's plane lies (uniform)."""

RGB = tuple[int, int, int]


def backdrop(
    view: CameraView, clutter: float, piece_colors: Sequence[RGB], rng: np.random.Generator
) -> np.ndarray:
    """The café as the frame would show it with nothing in front (BGR uint8):
    ``clutter`` from 0 (a plain wall) to 1 (crowded); some clutter takes ``piece_colors``
    (sRGB), a little varied."""
    w, h = view.size
    lw, lh = -(-w // LOW), -(-h // LOW)
    depth = rng.uniform(*DEPTH_MM)
    to_low = np.array([[1 / LOW, 0, 0.5 / LOW - 0.5], [0, 1 / LOW, 0.5 / LOW - 0.5], [0, 0, 1]])
    plane_to_low = to_low @ view.homography(-depth)
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64).reshape(-1, 1, 2)
    seen = cv2.perspectiveTransform(corners, np.linalg.inv(view.homography(-depth)))[:, 0]
    (x0, y0), (x1, y1) = seen.min(axis=0), seen.max(axis=0)

    wall = np.clip(rng.uniform(90, 200) + rng.normal(0, 18, 3), 0, 255)
    image = np.empty((lh, lw, 3), np.float32)
    image[:] = wall
    floor_y = rng.uniform(y0, y0 + 0.35 * (y1 - y0))
    _fill(image, plane_to_low, rect(x0 - 1e4, y0 - 1e4, x1 + 1e4, floor_y), wall * 0.6)

    def color() -> np.ndarray:
        if rng.random() < 0.3:
            return np.clip(np.array(piece_colors[rng.integers(len(piece_colors))][::-1])
                           * rng.uniform(0.75, 1.15) + rng.normal(0, 12, 3), 0, 255)
        return rng.uniform(20, 240, 3)

    for _ in range(round(clutter * 30) + int(rng.integers(0, 3))):
        kind = rng.choice(("person", "table", "cup", "poster", "plant", "lamp"),
                          p=(0.3, 0.15, 0.15, 0.2, 0.1, 0.1))
        cx, cy = rng.uniform(x0, x1), rng.uniform(floor_y, y1)
        if kind == "person":
            body = rng.uniform(350, 550)
            _fill(image, plane_to_low, _ellipse(cx, cy, body / 2, body * 0.9), color())
            _fill(image, plane_to_low, _ellipse(cx, cy + body * 1.05, body * 0.22, body * 0.28),
                  np.array([rng.uniform(60, 150), rng.uniform(100, 180), rng.uniform(150, 230)]))
        elif kind == "table":
            top = rng.uniform(600, 1400)
            board = rect(cx - top / 2, cy - 40, cx + top / 2, cy)
            _fill(image, plane_to_low, board, color() * 0.6)
            _fill(image, plane_to_low, rect(cx - 30, cy - 700, cx + 30, cy), color() * 0.4)
        elif kind == "cup":
            size = rng.uniform(80, 160)
            _fill(image, plane_to_low, rect(cx - size / 2, cy, cx + size / 2, cy + size), color())
        elif kind == "poster":
            pw, ph = rng.uniform(300, 900), rng.uniform(400, 1100)
            _fill(image, plane_to_low, rect(cx - pw / 2, cy, cx + pw / 2, cy + ph), color())
            for _ in range(int(rng.integers(1, 4))):
                sx, sy = rng.uniform(cx - pw / 2, cx + pw / 2), rng.uniform(cy, cy + ph)
                _fill(image, plane_to_low, _ellipse(sx, sy, pw / 5, ph / 6), color())
        elif kind == "plant":
            for _ in range(5):
                _fill(image, plane_to_low,
                      _ellipse(cx + rng.normal(0, 150), cy + rng.normal(300, 150), 120, 220),
                      np.array([rng.uniform(20, 70), rng.uniform(90, 160), rng.uniform(20, 80)]))
        else:
            _fill(image, plane_to_low, _ellipse(cx, cy + 800, 150, 100), np.full(3, 250.0))

    defocus = rng.uniform(1.0, 2.0) * view.focal / 1400.0
    image = cv2.GaussianBlur(image, (0, 0), defocus)
    contrast = 0.3 + 0.35 * clutter
    mean = image.reshape(-1, 3).mean(axis=0)
    image = np.clip(mean + (image - mean) * contrast, 0, 255).astype(np.uint8)
    return cv2.resize(image, (w, h), interpolation=cv2.INTER_LINEAR)


def _ellipse(cx: float, cy: float, rx: float, ry: float) -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    return np.stack([cx + rx * np.cos(t), cy + ry * np.sin(t)], axis=1)


def _fill(image: np.ndarray, plane_to_low: np.ndarray, outline: np.ndarray,
          bgr: np.ndarray) -> None:
    """Fill a convex ``outline`` of the café's plane (mm) into the low-resolution image."""
    ones = np.ones((len(outline), 1))
    p = np.hstack([outline, ones]) @ plane_to_low.T
    if np.any(p[:, 2] <= 0):
        return
    pixels = p[:, :2] / p[:, 2:]
    if np.abs(pixels).max() > 1e5:
        return
    cv2.fillConvexPoly(image, np.round(pixels * 16).astype(np.int32), bgr.tolist(),
                       cv2.LINE_AA, 4)
