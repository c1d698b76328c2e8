"""Synthetic camera frames: a white board with the stand's ArUco markers and flat-coloured
pieces, drawn top-down and warped into the frame by a known homography."""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from firmware_host.camera.setup import REFERENCE_CAMERA, CameraSetup
from firmware_host.config.board import Board, CircleShape
from firmware_host.games.dropit.rules.pieces import Pose, Shape

SETUP = CameraSetup.model_validate(REFERENCE_CAMERA)
WHITE, BLACK = 225, 25
"""The board's white and the markers' black as the synthetic camera sees them (0-255)."""
CANVAS_PX_PER_MM = 4.0
X0, X1, Y0, Y1 = -50.0, 350.0, -55.0, 360.0
"""The drawn part of the board's plane (mm)."""


def homography(scale: float = 2.8, tilt: float = 0.0) -> np.ndarray:
    """Board mm -> frame px: the board upright and centred in 1600x1200 at about ``scale``
    px/mm, leaning back by ``tilt`` (a perspective term)."""
    flip = np.array([[scale, 0, 800 - 150 * scale], [0, -scale, 600 + 155 * scale], [0, 0, 1]])
    lean = np.array([[1, 0, 0], [0, 1, 0], [0, tilt, 1]])
    centre = np.array([[1, 0, -150], [0, 1, -155], [0, 0, 1]])
    back = np.linalg.inv(centre)
    return flip @ back @ lean @ centre


def outline(board: Board, shape: Shape, pose: Pose) -> np.ndarray:
    """The shape's outline at ``pose`` as board points (N x 2, mm)."""
    dims = board.shapes.of(shape)
    if isinstance(dims, CircleShape):
        t = np.linspace(0, 2 * math.pi, 64, endpoint=False)
        return np.c_[pose.x + dims.radius * np.cos(t), pose.y + dims.radius * np.sin(t)]
    turn = math.radians(pose.angle)
    c, s = math.cos(turn), math.sin(turn)
    return np.array([(pose.x + x * c - y * s, pose.y + x * s + y * c) for x, y in dims.vertices])


def render(
    board: Board,
    pieces: Sequence[tuple[tuple[int, int, int], Shape, Pose]] = (),
    h: np.ndarray | None = None,
    size: tuple[int, int] = (1600, 1200),
    setup: CameraSetup = SETUP,
    markers: Sequence[int] | None = None,
) -> np.ndarray:
    """A BGR frame: the board, the markers (``markers``: which ids, default all) and the
    ``pieces`` (sRGB colour, shape, pose), warped into the frame by ``h``."""
    k = CANVAS_PX_PER_MM
    to_canvas = np.array([[k, 0, -X0 * k], [0, -k, Y1 * k], [0, 0, 1]])
    canvas = np.full((round((Y1 - Y0) * k), round((X1 - X0) * k), 3), WHITE, np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    layout = setup.markers
    for marker_id in layout.centres if markers is None else markers:
        side = round(layout.size * k)
        marker = cv2.aruco.generateImageMarker(dictionary, marker_id, side)
        marker = np.where(marker > 127, WHITE, BLACK).astype(np.uint8)
        (left, top), *_ = cv2.perspectiveTransform(
            np.array([[layout.corners(marker_id)[0]]], np.float64), to_canvas
        )[0]
        u, v = round(left), round(top)
        canvas[v : v + side, u : u + side] = marker[:, :, None]
    for (r, g, b), shape, pose in pieces:
        pts = cv2.perspectiveTransform(outline(board, shape, pose)[None], to_canvas)[0]
        cv2.fillPoly(canvas, [np.round(pts * 16).astype(np.int32)], (b, g, r), cv2.LINE_AA, 4)
    warp = (homography() if h is None else h) @ np.linalg.inv(to_canvas)
    return cv2.warpPerspective(
        canvas, warp, size, flags=cv2.INTER_AREA, borderValue=(90, 90, 90)
    )
