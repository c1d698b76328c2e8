"""Geometry of a landing, built on pymunk's shapes and space queries.

The board's static features (the regions above each level line, the bonus circles and
the edge segments of one face) are pymunk shapes in a :class:`BoardFeatures` space; the
pieces are pymunk shapes at their poses. Every question about a landing is a
``Space.shape_query``, whose contact distances are signed: negative is an overlap.

Conventions, written down because the rules leave them open:

* *touching* means the gap between two outlines is at most the board's touch tolerance
  (the query shape is the piece grown by the tolerance: a rounded polygon or a larger
  circle, which is exactly the set of points within the tolerance);
* a piece *lies in* a level, and a bonus circle *covers* it, only with positive area:
  an outline that just meets a line or a circle (within :data:`EPSILON_MM`) does not count;
* a piece *sticks out* above the top when any point of it is above ``height``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import pairwise

import pymunk

from firmware_host.config.board import (
    Board,
    BonusCircle,
    CircleShape,
    EdgeFace,
    EdgeSegment,
    Side,
)
from firmware_host.rules.pieces import Piece, Pose, Shape

EPSILON_MM = 1e-6
"""Overlaps shallower than this are contact, not overlap (floating-point noise)."""

_LEVEL, _BONUS, _EDGE, _PIECE = 1, 2, 4, 8


def piece_shape(
    board: Board, shape: Shape, pose: Pose, grow: float = 0.0, body: pymunk.Body | None = None
) -> pymunk.Shape:
    """A pymunk shape for ``shape`` at ``pose`` (world coordinates), grown by ``grow`` mm.

    Without ``body`` the shape stands free, placed by its own vertices, ready for
    ``Space.shape_query``; with one (a space's static body) it can be added to that space.
    pymunk shapes hold their body only weakly, so a body made here would not live.
    """
    dims = board.shapes.of(shape)
    if isinstance(dims, CircleShape):
        made: pymunk.Shape = pymunk.Circle(body, dims.radius + grow, (pose.x, pose.y))
    else:
        turn = math.radians(pose.angle)
        cos, sin = math.cos(turn), math.sin(turn)
        corners = [
            (pose.x + x * cos - y * sin, pose.y + x * sin + y * cos) for x, y in dims.vertices
        ]
        made = pymunk.Poly(body, corners, radius=grow)
    if body is None:
        made.update(pymunk.Transform.identity())
    return made


def _query(space: pymunk.Space, shape: pymunk.Shape, mask: int) -> list[tuple[pymunk.Shape, float]]:
    """Every shape of ``space`` in ``mask`` that ``shape`` meets, with the overlap depth (>= 0).

    Chipmunk reports contacts only for outlines that meet or overlap, so every result is a
    contact; its depth is the magnitude of the contact distance. (pymunk 7.3 gives that
    distance a positive sign when the query shape is a polygon and the other a circle or a
    segment, and a negative one otherwise: ``tests/test_geometry.py`` pins this down.)
    """
    shape.filter = pymunk.ShapeFilter(mask=mask)
    found = []
    for info in space.shape_query(shape):
        points = info.contact_point_set.points
        if info.shape is not None and points:
            found.append((info.shape, max(abs(p.distance) for p in points)))
    return found


@dataclass(frozen=True)
class Extent:
    """The axis-aligned bounds of a piece's outline, in mm."""

    left: float
    bottom: float
    right: float
    top: float


def extent(shape: pymunk.Shape) -> Extent:
    """The exact bounds of a piece shape (vertices for polygons, centre +- radius for circles)."""
    bb = shape.bb
    return Extent(bb.left, bb.bottom, bb.right, bb.top)


class BoardFeatures:
    """The static features of one board, for one edge face, as a pymunk space to query."""

    def __init__(self, board: Board, face: EdgeFace) -> None:
        self.board = board
        self.face = face
        self._space = pymunk.Space()
        self._level_of: dict[pymunk.Shape, int] = {}
        self._circle_of: dict[pymunk.Shape, BonusCircle] = {}
        self._segment_of: dict[pymunk.Shape, EdgeSegment] = {}
        static = self._space.static_body
        ceiling = board.height * 10
        for line in board.levels[:-1]:
            for (x0, y0), (x1, y1) in pairwise(line.top):
                region = pymunk.Poly(static, [(x0, y0), (x1, y1), (x1, ceiling), (x0, ceiling)])
                self._add(region, _LEVEL)
                self._level_of[region] = line.level
        for circle in board.bonus_circles:
            disc = pymunk.Circle(static, circle.radius, (circle.x, circle.y))
            self._add(disc, _BONUS)
            self._circle_of[disc] = circle
        for segment in board.edges.face(face):
            line_shape = pymunk.Segment(static, *self._segment_ends(segment), radius=0)
            self._add(line_shape, _EDGE)
            self._segment_of[line_shape] = segment

    def _add(self, shape: pymunk.Shape, category: int) -> None:
        shape.filter = pymunk.ShapeFilter(categories=category)
        self._space.add(shape)

    def _segment_ends(self, s: EdgeSegment) -> tuple[tuple[float, float], tuple[float, float]]:
        if s.side is Side.LEFT:
            return (0.0, s.start), (0.0, s.end)
        if s.side is Side.RIGHT:
            return (self.board.width, s.start), (self.board.width, s.end)
        return (s.start, 0.0), (s.end, 0.0)

    def level(self, shape: pymunk.Shape) -> int:
        """The highest level any part of ``shape`` lies in (1 = bottom)."""
        above = [
            self._level_of[s]
            for s, depth in _query(self._space, shape, _LEVEL)
            if depth > EPSILON_MM
        ]
        return max(above, default=0) + 1

    def bonus_circles(self, shape: pymunk.Shape) -> list[BonusCircle]:
        """The bonus circles that overlap ``shape`` with positive area, in board order."""
        hit = {s for s, depth in _query(self._space, shape, _BONUS) if depth > EPSILON_MM}
        return [c for disc, c in self._circle_of.items() if disc in hit]

    def edges_touched(self, grown: pymunk.Shape) -> list[EdgeSegment]:
        """The edge segments (of this face) within the tolerance ``grown`` was grown by."""
        hit = {s for s, _ in _query(self._space, grown, _EDGE)}
        return [seg for line, seg in self._segment_of.items() if line in hit]


class PieceSpace:
    """Pieces at their poses as pymunk shapes, for contact and overlap queries."""

    def __init__(self, board: Board, pieces: Iterable[Piece]) -> None:
        self.board = board
        self._space = pymunk.Space()
        self._piece_of: dict[pymunk.Shape, Piece] = {}
        for piece in pieces:
            shape = piece_shape(board, piece.shape, piece.pose, body=self._space.static_body)
            shape.filter = pymunk.ShapeFilter(categories=_PIECE)
            self._space.add(shape)
            self._piece_of[shape] = piece

    def touching(self, grown: pymunk.Shape) -> list[Piece]:
        """The pieces within the tolerance ``grown`` was grown by, in the order given."""
        hit = {s for s, _ in _query(self._space, grown, _PIECE)}
        return [p for s, p in self._piece_of.items() if s in hit]

    def overlaps(self, shape: pymunk.Shape) -> list[tuple[Piece, float]]:
        """The pieces ``shape`` overlaps, each with the overlap depth in mm (> 0)."""
        return [
            (self._piece_of[s], depth)
            for s, depth in _query(self._space, shape, _PIECE)
            if depth > EPSILON_MM
        ]
