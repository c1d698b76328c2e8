"""Geometry of a landing, built on pymunk's shapes and space queries.

The board's static features (the regions above each level line, the bonus circles and
the edge segments of one face) are pymunk shapes in a :class:`BoardFeatures` space; the
pieces are pymunk shapes at their poses. Every question is asked as "does this shape meet
that one?" (``Space.shape_query``), with the piece's outline grown or shrunk first:

* *touching* means the gap between two outlines is at most the board's touch tolerance:
  the piece grown by the tolerance (a rounded polygon, a larger circle) meets the other;
* a piece *lies in* a level, and a bonus circle *covers* it, only with positive area: the
  piece shrunk by :data:`EPSILON_MM` still meets the region or the circle, so an outline
  that merely meets a line or a circle does not count;
* two pieces *overlap by more than d mm* when both, shrunk by d/2, still meet: the
  overlap is thicker than d.

Only whether shapes meet is asked, never how deep: Chipmunk's contact depth is
degenerate when one outline's centre lies inside the other (a circle centred in a
square, two concentric squares: depth 0), while its test of whether two convex shapes
meet is exact. ``tests/games/dropit/rules/test_geometry.py`` pins those cases down.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
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
from firmware_host.games.dropit.rules.pieces import Piece, Pose, Shape

EPSILON_MM = 1e-6
"""Overlaps thinner than this are contact, not overlap (floating-point noise)."""

EDGE_DEPTH_MM = 10.0
"""How far behind the wall the box standing for an edge segment reaches."""

_LEVEL, _BONUS, _EDGE, _PIECE = 1, 2, 4, 8

Vertex = tuple[float, float]


def inset(vertices: Sequence[Vertex], by: float) -> list[Vertex]:
    """A convex counter-clockwise polygon with every side moved inwards by ``by`` mm.

    >>> inset([(0, 0), (10, 0), (10, 10), (0, 10)], 1)
    [(1.0, 1.0), (9.0, 1.0), (9.0, 9.0), (1.0, 9.0)]
    """
    normals = []
    for (x0, y0), (x1, y1) in pairwise([*vertices, vertices[0]]):
        length = math.hypot(x1 - x0, y1 - y0)
        normals.append((-(y1 - y0) / length, (x1 - x0) / length))  # inward for CCW
    moved = []
    for i, (x, y) in enumerate(vertices):
        (ax, ay), (bx, by_) = normals[i - 1], normals[i]
        scale = by / (1 + ax * bx + ay * by_)
        moved.append((x + (ax + bx) * scale, y + (ay + by_) * scale))
    return moved


def turn_period(board: Board, shape: Shape) -> float:
    """The turn (degrees) after which ``shape`` looks the same on ``board``: 360 for a
    circle or an outline with no turn symmetry.

    >>> from firmware_host.config.board import load_board
    >>> [turn_period(load_board(), s) for s in Shape]
    [360.0, 90.0, 180.0, 120.0]
    """
    dims = board.shapes.of(shape)
    if isinstance(dims, CircleShape):
        return 360.0
    return _polygon_period(tuple((float(x), float(y)) for x, y in dims.vertices))


@cache
def _polygon_period(vertices: tuple[Vertex, ...]) -> float:
    """:func:`turn_period` of a polygon's ``vertices`` (found once per polygon: the
    locator asks it for every fit)."""
    for n in (6, 4, 3, 2):
        turn = math.radians(360.0 / n)
        cos, sin = math.cos(turn), math.sin(turn)
        turned = [(x * cos - y * sin, x * sin + y * cos) for x, y in vertices]
        if all(min(math.dist(a, b) for b in vertices) < 1e-3 for a in turned):
            return 360.0 / n
    return 360.0


def rolls(board: Board, shape: Shape) -> bool:
    """Whether ``shape`` looks the same at every turn on ``board`` (a circle): such a piece
    may roll anywhere.

    >>> from firmware_host.config.board import load_board
    >>> [rolls(load_board(), s) for s in Shape]
    [True, False, False, False]
    """
    return turn_period(board, shape) >= 360


def outline_reach(board: Board, shape: Shape) -> float:
    """How far a shape's outline reaches from its centroid (mm), at any turn."""
    dims = board.shapes.of(shape)
    if isinstance(dims, CircleShape):
        return dims.radius
    return max(math.hypot(x, y) for x, y in dims.vertices)


def within_reach(board: Board, pieces: Iterable[Piece], piece: Piece, gap: float) -> list[Piece]:
    """The pieces of ``pieces`` whose outlines may come within ``gap`` mm of ``piece``'s,
    judged from their centres alone (in their order): the ones a contact query needs.

    >>> from firmware_host.config.board import load_board
    >>> from firmware_host.games.dropit.rules.pieces import Color
    >>> board = load_board()
    >>> square = Piece("a", Color.RED, Shape.SQUARE, Pose(100.0, 17.0, 0.0))
    >>> far = Piece("b", Color.BLUE, Shape.CIRCLE, Pose(200.0, 17.0, 0.0))
    >>> near = Piece("c", Color.BLUE, Shape.CIRCLE, Pose(135.0, 17.0, 0.0))
    >>> [p.id for p in within_reach(board, [far, near], square, 1.0)]
    ['c']
    """
    own = outline_reach(board, piece.shape) + gap + EPSILON_MM
    at = piece.pose
    return [
        p
        for p in pieces
        if math.hypot(p.pose.x - at.x, p.pose.y - at.y) <= own + outline_reach(board, p.shape)
    ]


def piece_shape(
    board: Board, shape: Shape, pose: Pose, grow: float = 0.0, body: pymunk.Body | None = None
) -> pymunk.Shape:
    """A pymunk shape for ``shape`` at ``pose`` (world coordinates), its outline moved
    outwards by ``grow`` mm (inwards when negative).

    Without ``body`` the shape stands free, placed by its own vertices, ready for
    ``Space.shape_query``; with one (a space's static body) it can be added to that space.
    pymunk shapes hold their body only weakly, so a body made here would not live.
    """
    dims = board.shapes.of(shape)
    if isinstance(dims, CircleShape):
        made: pymunk.Shape = pymunk.Circle(body, dims.radius + grow, (pose.x, pose.y))
    else:
        placed = corners(board, shape, pose)
        if grow >= 0:
            made = pymunk.Poly(body, placed, radius=grow)
        else:
            made = pymunk.Poly(body, inset(placed, -grow))
    if body is None:
        made.update(pymunk.Transform.identity())
    return made


def corners(board: Board, shape: Shape, pose: Pose) -> list[Vertex]:
    """The corners of a polygon ``shape`` at ``pose`` (world coordinates, in the shape's
    order); none for a circle.

    >>> from firmware_host.config.board import load_board
    >>> corners(load_board(), Shape.CIRCLE, Pose(50.0, 18.0, 0.0))
    []
    """
    dims = board.shapes.of(shape)
    if isinstance(dims, CircleShape):
        return []
    turn = math.radians(pose.angle)
    cos, sin = math.cos(turn), math.sin(turn)
    return [(pose.x + x * cos - y * sin, pose.y + x * sin + y * cos) for x, y in dims.vertices]


def bounds(board: Board, shape: Shape, pose: Pose) -> Extent:
    """The exact bounds of ``shape`` at ``pose``: :func:`extent` of its :func:`piece_shape`,
    the same figures, without making a pymunk shape.

    >>> from firmware_host.config.board import load_board
    >>> bounds(load_board(), Shape.SQUARE, Pose(60.0, 17.0, 0.0)).bottom
    0.0
    """
    dims = board.shapes.of(shape)
    if isinstance(dims, CircleShape):
        r = dims.radius
        return Extent(pose.x - r, pose.y - r, pose.x + r, pose.y + r)
    placed = corners(board, shape, pose)
    xs = [x for x, _ in placed]
    ys = [y for _, y in placed]
    return Extent(min(xs), min(ys), max(xs), max(ys))


def _met(space: pymunk.Space, shape: pymunk.Shape, mask: int) -> set[pymunk.Shape]:
    """The shapes of ``space`` in category ``mask`` that ``shape`` meets or overlaps."""
    shape.filter = pymunk.ShapeFilter(mask=mask)
    return {info.shape for info in space.shape_query(shape) if info.shape is not None}


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
            strip = pymunk.Poly(static, self._segment_strip(segment))
            self._add(strip, _EDGE)
            self._segment_of[strip] = segment

    def _add(self, shape: pymunk.Shape, category: int) -> None:
        shape.filter = pymunk.ShapeFilter(categories=category)
        self._space.add(shape)

    def _segment_strip(self, s: EdgeSegment) -> list[Vertex]:
        """A segment as a box just outside the wall: its inner side is the segment.

        A box, not a ``pymunk.Segment``: Chipmunk misses a polygon corner within reach of
        a segment's end when the corner lines up with it
        (tests/games/dropit/rules/test_geometry.py).
        """
        d = EDGE_DEPTH_MM
        if s.side is Side.LEFT:
            return [(-d, s.start), (0.0, s.start), (0.0, s.end), (-d, s.end)]
        if s.side is Side.RIGHT:
            w = self.board.width
            return [(w, s.start), (w + d, s.start), (w + d, s.end), (w, s.end)]
        return [(s.start, -d), (s.end, -d), (s.end, 0.0), (s.start, 0.0)]

    def level(self, shrunk: pymunk.Shape) -> int:
        """The highest level any part of a piece lies in (1 = bottom), given the piece
        shrunk by :data:`EPSILON_MM`."""
        above = [self._level_of[s] for s in _met(self._space, shrunk, _LEVEL)]
        return max(above, default=0) + 1

    def bonus_circles(self, shrunk: pymunk.Shape) -> list[BonusCircle]:
        """The bonus circles that overlap a piece with positive area, in board order, given
        the piece shrunk by :data:`EPSILON_MM`."""
        hit = _met(self._space, shrunk, _BONUS)
        return [c for disc, c in self._circle_of.items() if disc in hit]

    def edges_touched(self, grown: pymunk.Shape) -> list[EdgeSegment]:
        """The edge segments (of this face) within the tolerance ``grown`` was grown by."""
        hit = _met(self._space, grown, _EDGE)
        return [seg for line, seg in self._segment_of.items() if line in hit]


class PieceSpace:
    """Pieces at their poses, outlines moved by ``grow`` mm, for contact queries."""

    def __init__(self, board: Board, pieces: Iterable[Piece], grow: float = 0.0) -> None:
        self._board = board
        self._grow = grow
        self._space = pymunk.Space()
        self._piece_of: dict[pymunk.Shape, Piece] = {}
        for piece in pieces:
            self.add(piece)

    def add(self, piece: Piece) -> None:
        """One more piece (after those given)."""
        shape = piece_shape(
            self._board, piece.shape, piece.pose, self._grow, body=self._space.static_body
        )
        shape.filter = pymunk.ShapeFilter(categories=_PIECE)
        self._space.add(shape)
        self._piece_of[shape] = piece

    def met_by(self, shape: pymunk.Shape) -> list[Piece]:
        """The pieces ``shape`` meets or overlaps, in the order they were given."""
        hit = _met(self._space, shape, _PIECE)
        return [p for s, p in self._piece_of.items() if s in hit]
