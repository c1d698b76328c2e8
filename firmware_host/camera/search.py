"""Finding a piece anywhere on the board, coarsely: a colour map and template matching.

The fine outline fit (:mod:`firmware_host.camera.outline`) needs a start within a few
millimetres and degrees. A piece with no prior pose (the newly dropped one), or one a drop
knocked away from its prior, is first found here: the board is rectified to a top-down
map at :data:`SCALE` px/mm, each pixel classed as one of the pieces' colours or none, the
pixels of pieces already located are taken out, and the piece's silhouette is matched
against what is left (OpenCV's ``matchTemplate``) at every :data:`ANGLE_STEP` degrees
within its symmetry. The best few places are the candidates the fine fit starts from.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from firmware_host.camera.colours import PieceColours
from firmware_host.camera.scene import LookFrames
from firmware_host.config.board import Board, CircleShape
from firmware_host.games.dropit.rules.geometry import turn_period
from firmware_host.games.dropit.rules.pieces import Color, Pose, Shape

Array = np.ndarray

SCALE = 1.0
"""Pixels per millimetre of the colour map."""
MARGIN_MM = 8.0
"""How far beyond the walls and the floor the map reaches."""
ABOVE_MM = 45.0
"""How far above the drop zone's top the map reaches (a piece may stick out)."""
ANGLE_STEP = 5.0
"""Degrees between the silhouettes tried."""

RING_MM = 2.0
"""Width of the ring around a silhouette that should not be of the piece's colour."""


@dataclass(frozen=True)
class Candidate:
    """A coarse place for a piece and how well its silhouette matched (1 = perfectly)."""

    pose: Pose
    score: float


class ColourMap:
    """The board's pixels classed by piece colour, at :data:`SCALE` px/mm.

    ``labels[v, u]`` is the index of the colour in :attr:`colors` (or -1 for none) of the
    board point ``(x0 + (u + 0.5) / SCALE, y1 - (v + 0.5) / SCALE)``.
    """

    def __init__(
        self,
        look: LookFrames,
        board: Board,
        colours: PieceColours,
        seen: Mapping[Color, Array] | None = None,
    ) -> None:
        """``seen``: the faces of each colour the look has already shown; where given, a
        pixel is of that colour only when it is like them (:meth:`PieceColours.like`: a
        café's blue wall is no blue piece)."""
        self.x0, self.y0 = -MARGIN_MM, -MARGIN_MM
        self.x1, self.y1 = board.width + MARGIN_MM, board.height + ABOVE_MM
        image = look.rectified(self.x0, self.y0, self.x1, self.y1, SCALE)
        self.colors = colours.colors
        labels = colours.classify(image)
        for color, face in (seen or {}).items():
            mine = labels == self.colors.index(color)
            labels[mine] = np.where(colours.like(image[mine], face), labels[mine], -1)
        self.labels = labels.astype(np.int8)
        self.taken = np.zeros(self.labels.shape, np.uint8)

    def to_pixel(self, x: float, y: float) -> tuple[float, float]:
        """Map coordinates (u, v) of board point ``(x, y)``."""
        return ((x - self.x0) * SCALE - 0.5, (self.y1 - y) * SCALE - 0.5)

    def to_board(self, u: float, v: float) -> tuple[float, float]:
        """Board point of map coordinates ``(u, v)``."""
        return (self.x0 + (u + 0.5) / SCALE, self.y1 - (v + 0.5) / SCALE)

    def take(self, board: Board, shape: Shape, pose: Pose, grow: float = 1.5) -> None:
        """Mark the pixels of a located piece (its outline grown by ``grow`` mm) as taken."""
        outline = _outline(board, shape, pose.angle, grow)
        u, v = self.to_pixel(pose.x, pose.y)
        pts = np.round((outline * np.array([SCALE, -SCALE]) + (u, v)) * 16).astype(np.int32)
        cv2.fillPoly(self.taken, [pts], 1, cv2.LINE_8, 4)

    def retake(self, board: Board, places: Sequence[tuple[Shape, Pose]]) -> None:
        """Mark the pixels of exactly the pieces at ``places`` as taken (:meth:`take`): a
        piece displaced from its place gives its pixels back."""
        self.taken[:] = 0
        for shape, pose in places:
            self.take(board, shape, pose)

    def share_of(self, board: Board, color: Color, shape: Shape, pose: Pose) -> float:
        """The share of a silhouette at ``pose`` whose pixels are of ``color`` and not taken
        by a located piece (0-1)."""
        mask = np.zeros(self.labels.shape, np.uint8)
        outline = _outline(board, shape, pose.angle, -1.0)
        u, v = self.to_pixel(pose.x, pose.y)
        pts = np.round((outline * np.array([SCALE, -SCALE]) + (u, v)) * 16).astype(np.int32)
        cv2.fillPoly(mask, [pts], 1, cv2.LINE_8, 4)
        inside = mask > 0
        if not inside.any():
            return 0.0
        mine = (self.labels == self.colors.index(color)) & (self.taken == 0)
        return float(mine[inside].mean())

    def search(
        self,
        board: Board,
        color: Color,
        shape: Shape,
        near: Pose | None = None,
        radius: float = math.inf,
        keep: int = 3,
    ) -> list[Candidate]:
        """The best places for a ``color`` ``shape`` among the untaken pixels of its colour
        (within ``radius`` mm of ``near`` when given), best first."""
        free = (self.labels == self.colors.index(color)) & (self.taken == 0)
        score_map = np.where(free, 1.0, -1.0).astype(np.float32)
        h, w = score_map.shape
        u_lo, v_lo, u_hi, v_hi = 0, 0, w, h
        if near is not None and math.isfinite(radius):
            u, v = self.to_pixel(near.x, near.y)
            reach = radius * SCALE
            u_lo, u_hi = max(0, int(u - reach)), min(w, int(u + reach) + 1)
            v_lo, v_hi = max(0, int(v - reach)), min(h, int(v + reach) + 1)
        window = score_map[v_lo:v_hi, u_lo:u_hi]
        if not free[v_lo:v_hi, u_lo:u_hi].any():
            return []
        found: list[Candidate] = []
        for angle in _angles(board, shape):
            template, centre = _template(board, shape, angle)
            th, tw = template.shape
            if window.shape[0] < th or window.shape[1] < tw:
                continue
            scores = cv2.matchTemplate(window, template, cv2.TM_CCORR)
            for _ in range(keep):
                _, best, _, (bu, bv) = cv2.minMaxLoc(scores)
                if best <= 0:
                    break
                x, y = self.to_board(u_lo + bu + centre[0], v_lo + bv + centre[1])
                found.append(Candidate(Pose(x, y, angle), float(best)))
                cv2.rectangle(
                    scores, (bu - tw // 3, bv - th // 3), (bu + tw // 3, bv + th // 3), -1e9, -1
                )
        found.sort(key=lambda c: -c.score)
        return _distinct(found, keep)


def _distinct(found: Sequence[Candidate], keep: int) -> list[Candidate]:
    """The best candidates at least 10 mm apart."""
    chosen: list[Candidate] = []
    for c in found:
        if all(math.hypot(c.pose.x - o.pose.x, c.pose.y - o.pose.y) > 10 for o in chosen):
            chosen.append(c)
        if len(chosen) == keep:
            break
    return chosen


def _angles(board: Board, shape: Shape) -> list[float]:
    """The silhouettes' angles tried: every :data:`ANGLE_STEP` within the symmetry."""
    period = turn_period(board, shape)
    if period >= 360:
        return [0.0]
    return [i * ANGLE_STEP for i in range(int(period / ANGLE_STEP))]


def _outline(board: Board, shape: Shape, angle: float, grow: float) -> Array:
    """The silhouette's outline in mm around its centroid, at ``angle``, grown by ``grow``."""
    dims = board.shapes.of(shape)
    if isinstance(dims, CircleShape):
        a = np.linspace(0, 2 * math.pi, 64, endpoint=False)
        ring: Array = np.c_[np.cos(a), np.sin(a)]
        return (dims.radius + grow) * ring
    turn = math.radians(angle)
    rot = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
    corners: Array = np.asarray(dims.vertices, float) @ rot.T
    centroid_dist = np.linalg.norm(corners, axis=1, keepdims=True)
    grown: Array = corners * (1 + grow / centroid_dist)
    return grown


_TEMPLATES: dict[tuple[str, Shape, float], tuple[Array, tuple[float, float]]] = {}


def _template(board: Board, shape: Shape, angle: float) -> tuple[Array, tuple[float, float]]:
    """The matching template (the face's mean minus the ring's mean) and the silhouette's
    centre in it; made once per shape's dimensions and angle."""
    key = (repr(board.shapes.of(shape)), shape, angle)
    made = _TEMPLATES.get(key)
    if made is not None:
        return made
    inner = _outline(board, shape, angle, 0.0)
    outer = _outline(board, shape, angle, RING_MM)
    reach = float(np.abs(outer).max()) + 1
    size = math.ceil(2 * reach * SCALE) + 1
    centre = ((size - 1) / 2, (size - 1) / 2)
    flip = np.array([SCALE, -SCALE])

    def fill(poly: Array) -> Array:
        mask = np.zeros((size, size), np.uint8)
        pts = np.round((poly * flip + centre) * 16).astype(np.int32)
        cv2.fillPoly(mask, [pts], 1, cv2.LINE_8, 4)
        return mask.astype(np.float32)

    face = fill(inner)
    ring = fill(outer) - face
    template = (face / face.sum() - ring / max(ring.sum(), 1.0)) / 2
    made = _TEMPLATES[key] = (template.astype(np.float32), centre)
    return made
