"""An annotated frame for the people who set up a table: what the camera found, drawn on
what it saw (the markers outlined with their ids, the drop zone and its level lines
projected from the board's plane)."""

from __future__ import annotations

import cv2
import numpy as np

from firmware_host.camera.markers import BoardNotFound, MarkerFinder
from firmware_host.camera.setup import MarkerLayout
from firmware_host.config.board import Board

Array = np.ndarray

MARKER_BGR = (0, 200, 0)
ZONE_BGR = (255, 80, 0)
LEVEL_BGR = (0, 160, 255)


def annotated(layout: MarkerLayout, board: Board, frame: Array) -> Array:
    """A copy of ``frame`` with the markers found outlined and labelled, and (when the
    board is found) the drop zone's outline and level lines drawn."""
    image = frame.copy()
    finder = MarkerFinder(layout)
    found = finder.detect(frame)
    for marker_id, quad in found.items():
        cv2.polylines(image, [np.round(quad).astype(np.int32)], True, MARKER_BGR, 2, cv2.LINE_AA)
        x, y = quad.min(axis=0)
        cv2.putText(image, f"id {marker_id}", (round(x), round(y) - 8),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.8, MARKER_BGR, 2, cv2.LINE_AA)
    try:
        view = finder.view(found)
    except BoardNotFound:
        return image
    zone = np.array([(0, 0), (board.width, 0), (board.width, board.height), (0, board.height)])
    lines = [(zone, True, ZONE_BGR)]
    lines += [(np.array(level.top, np.float64), False, LEVEL_BGR) for level in board.levels]
    for points, closed, colour in lines:
        px = np.round(view.to_image(points)).astype(np.int32)
        cv2.polylines(image, [px], closed, colour, 2, cv2.LINE_AA)
    return image
