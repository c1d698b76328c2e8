"""Located pieces that overlap moved apart: two wooden pieces never share space.

Each fit places its piece on its own (:mod:`~firmware_host.camera.outline`), and where an
edge is hard to see (a neighbour of the same colour runs into it, a thin rim of the side
lies beside it, a printed line runs along it) it may place the piece into its neighbour.
Every seen piece's pose is an estimate with its standard deviations; that no two pieces,
and no piece and the floor or a wall, overlap is a measurement of their poses too. Where
located outlines overlap by more than :data:`SLACK_MM`, the points where they overlap
(the contact points pymunk finds between their shapes) are measured at zero distance,
to :data:`CONTACT_SIGMA_MM`, and the poses involved are updated by those measurements as
an iterated Kalman update (Gauss-Newton on the poses, each weighted by its own
deviations): of two overlapping pieces the one the camera placed less surely moves more.
A piece moved that lies on the floor or against a wall stays there (its distance to it
is measured too, to :data:`WALL_SIGMA_MM`).

The deviations stay the fits' own: parting two pieces says where they touch, not how well
the camera saw either. Measured on the located poses of the virtual camera's 1000
realistic scenes (seed 1; docs/camera.md): pieces within 0.5 mm of their true outline
18172 -> 18236 of 18292 seen (67 brought within, 3 out), the mean outline error 0.123 ->
0.105 mm; 600 scenes of seed 2: 10703 -> 10762 of 10808 (60 in, 1 out), 0.141 -> 0.116
mm.

>>> from firmware_host.camera.locate import Known, Located
>>> from firmware_host.config.board import load_board
>>> from firmware_host.games.dropit.rules.pieces import Color, Pose, Shape
>>> low = Located(Known("p1", Color.RED, Shape.SQUARE), Pose(150.0, 17.0, 0.0), True,
...               (0.05, 0.05, 0.1))
>>> high = Located(Known("p2", Color.RED, Shape.SQUARE), Pose(151.0, 50.6, 0.0), True,
...                (0.3, 0.3, 0.5))
>>> parted = part_overlaps(load_board(), [low, high])
>>> round(parted[0].pose.y, 2), round(parted[1].pose.y, 2)
(17.0, 50.95)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import pymunk

from firmware_host.camera.locate import Located, own_share
from firmware_host.config.board import Board, CircleShape
from firmware_host.games.dropit.rules.geometry import piece_shape
from firmware_host.games.dropit.rules.pieces import Pose

SLACK_MM = 0.1
"""Outlines overlapping by less than this are left as located: the fits' own scatter (and
a physics model's collision slop, which lets resting pieces overlap by 0.1 mm)."""
DEEPEST_MM = 3.0
"""Outlines overlapping by more than this are no near miss of where two pieces touch."""
CONTACT_SIGMA_MM = 0.15
"""How exactly two parted pieces touch (standard deviation of the zero distance): the
overlap the fits' errors leave is not all theirs: two pieces resting on each other
overlap a little in a physics model too (on the virtual camera's 1000 realistic scenes,
seed 1, the pieces' mean outline error went from 0.123 mm to 0.129, 0.109, 0.105, 0.106
and 0.111 mm at 0.05, 0.1, 0.15, 0.2 and 0.3 mm; at 0.05 mm more pieces came out worse
than better)."""
WALL_SIGMA_MM = 0.03
"""The same for a piece against the floor or a wall: the board's frame is where it is
(on the same scenes, at 0.1 mm the pieces on the floor were pushed into it, toward where
the virtual camera's physics lets them sink by its slop: their errors fell, not from
anything the camera saw; pieces within 0.5 mm 18235 against 18236 at this)."""
MAX_TURN_SIGMA_DEGREES = 10.0
"""A fit's angle deviation is capped at this for the update: a fit that left its angle
free must not spin to part."""
ITERATIONS = 4
"""Gauss-Newton steps of the update."""
FLOOR, LEFT, RIGHT = -1, -2, -3
"""The walls a piece may be measured against (in place of another piece's index)."""

Gradient = tuple[float, float, float]
"""A distance's derivatives by one piece's x, y (mm) and angle (degrees)."""


Point = tuple[float, float]


@dataclass(frozen=True)
class Contact:
    """A distance measured at zero: along ``normal``, from point ``on_piece`` of piece
    ``piece`` to point ``on_other`` of piece ``against`` (each in its piece's own frame,
    moving and turning with it), less ``offset``; or from the floor or a wall (``against``
    :data:`FLOOR`, :data:`LEFT` or :data:`RIGHT`) to point ``on_piece``, less ``offset`` (a
    circle's radius)."""

    piece: int
    against: int
    on_piece: Point
    on_other: Point = (0.0, 0.0)
    normal: Point = (0.0, 1.0)
    offset: float = 0.0


def part_overlaps(board: Board, located: Sequence[Located]) -> list[Located]:
    """``located`` with the seen pieces that overlap each other, the floor or a wall by
    more than :data:`SLACK_MM` moved apart (in the same order; the others as they are).
    Each piece's own deviations (the board's share taken out, :attr:`Located.spread`)
    weigh how far it moves."""
    seen = [i for i, p in enumerate(located) if p.seen and p.pose is not None]
    pieces = _Pieces(board, [located[i] for i in seen])
    contacts = pieces.overlapping()
    if not contacts:
        return list(located)
    start = pieces.poses.copy()
    pieces.update(contacts)
    parted = list(located)
    for k, i in enumerate(seen):
        if not np.array_equal(pieces.poses[k], start[k]):
            parted[i] = replace(located[i], pose=Pose(*(float(v) for v in pieces.poses[k])))
    return parted


class _Pieces:
    """The seen pieces: their shapes, poses (n x 3: x, y mm, angle degrees) and own
    deviations."""

    def __init__(self, board: Board, located: Sequence[Located]) -> None:
        self.board = board
        self.shapes = [p.known.shape for p in located]
        self.poses = np.array([_pose_of(p) for p in located]).reshape(-1, 3)
        self.sigma = np.array([_own_sigma(p) for p in located]).reshape(-1, 3)

    def pose(self, piece: int) -> Pose:
        """Where ``piece`` lies now."""
        return Pose(*(float(v) for v in self.poses[piece]))

    def overlapping(self) -> list[Contact]:
        """Where pieces overlap by more than :data:`SLACK_MM` (and less than
        :data:`DEEPEST_MM`): each contact point pymunk finds between their shapes; and
        where those pieces lie within :data:`SLACK_MM` of the floor or a wall, or beyond
        it (a piece resting on the floor stays on it)."""
        space = pymunk.Space()
        which = {}
        for piece in range(len(self.poses)):
            shape = piece_shape(self.board, self.shapes[piece], self.pose(piece),
                                body=space.static_body)
            space.add(shape)
            which[shape] = piece
        found = []
        for a in range(len(self.poses)):
            query = piece_shape(self.board, self.shapes[a], self.pose(a))
            for hit in space.shape_query(query):
                b = which[hit.shape]
                if b <= a or not hit.contact_point_set.points:
                    continue
                normal = hit.contact_point_set.normal  # from a toward b
                # the distance from the points: pymunk 7.3 gives a polygon's against a
                # circle the wrong sign
                points = [(p, normal.dot(p.point_b - p.point_a))
                          for p in hit.contact_point_set.points]
                if -DEEPEST_MM < min(d for _, d in points) < -SLACK_MM:
                    found += [
                        Contact(a, b, self._local(a, p.point_a), self._local(b, p.point_b),
                                (float(normal.x), float(normal.y)))
                        for p, d in points
                        if d < 0.0  # where they overlap, not where they part
                    ]
        moving = {c.piece for c in found} | {c.against for c in found}
        for a in sorted(moving):
            dims = self.board.shapes.of(self.shapes[a])
            ends = ([(0.0, 0.0, dims.radius)] if isinstance(dims, CircleShape)
                    else [(x, y, 0.0) for x, y in dims.vertices])
            found += [
                contact
                for x, y, offset in ends
                for wall in (FLOOR, LEFT, RIGHT)
                if self.measure(contact := Contact(a, wall, (x, y), offset=offset))[0]
                < SLACK_MM
            ]
        return found

    def _local(self, piece: int, point: pymunk.Vec2d) -> Point:
        """A world point in ``piece``'s own frame (its centre, turned with it)."""
        x, y, angle = self.poses[piece]
        turn = math.radians(angle)
        dx, dy = point.x - x, point.y - y
        return (dx * math.cos(turn) + dy * math.sin(turn),
                -dx * math.sin(turn) + dy * math.cos(turn))

    def _world(self, piece: int, point: Point) -> Point:
        """A point of ``piece``'s own frame where the piece lies."""
        x, y, angle = self.poses[piece]
        turn = math.radians(angle)
        u, v = point
        return (x + u * math.cos(turn) - v * math.sin(turn),
                y + u * math.sin(turn) + v * math.cos(turn))

    def measure(self, contact: Contact) -> tuple[float, dict[int, Gradient]]:
        """The contact's distance (mm, negative: overlapping) where the pieces lie, and its
        derivatives by the x, y and angle (degrees) of each piece that bears on it."""
        a = contact.piece
        point = self._world(a, contact.on_piece)
        if contact.against < 0:
            unit, distance = {
                FLOOR: ((0.0, 1.0), point[1]),
                LEFT: ((1.0, 0.0), point[0]),
                RIGHT: ((-1.0, 0.0), self.board.width - point[0]),
            }[contact.against]
            return distance - contact.offset, {a: self._gradient(a, unit, point, 1.0)}
        b = contact.against
        other = self._world(b, contact.on_other)
        unit = contact.normal
        distance = unit[0] * (other[0] - point[0]) + unit[1] * (other[1] - point[1])
        return distance - contact.offset, {
            a: self._gradient(a, unit, point, -1.0),
            b: self._gradient(b, unit, other, 1.0),
        }

    def _gradient(
        self, piece: int, unit: tuple[float, float], point: tuple[float, float], sign: float
    ) -> Gradient:
        """The derivatives of a distance along ``unit`` measured from (``sign`` -1) or to
        (``sign`` 1) ``point``, a point of ``piece`` that moves and turns with it."""
        x, y, _ = self.poses[piece]
        turn = unit[0] * -(point[1] - y) + unit[1] * (point[0] - x)
        return sign * unit[0], sign * unit[1], sign * _DEGREE * turn

    def update(self, contacts: Sequence[Contact]) -> None:
        """The poses updated by ``contacts`` measured at zero: an iterated Kalman update
        with the poses and their deviations as its prior (only the pieces in a contact
        move)."""
        moving = sorted({c.piece for c in contacts} | {c.against for c in contacts} - {
            FLOOR, LEFT, RIGHT})
        slot = {piece: n for n, piece in enumerate(moving)}
        prior = self.poses[moving].ravel()
        variance = (self.sigma[moving] ** 2).ravel()
        noise = np.diag([
            (WALL_SIGMA_MM if c.against < 0 else CONTACT_SIGMA_MM) ** 2 for c in contacts
        ])
        for _ in range(ITERATIONS):
            state = self.poses[moving].ravel()
            distances = np.empty(len(contacts))
            jacobian = np.zeros((len(contacts), len(moving) * 3))
            for row, contact in enumerate(contacts):
                distances[row], grads = self.measure(contact)
                for piece, grad in grads.items():
                    jacobian[row, 3 * slot[piece]: 3 * slot[piece] + 3] = grad
            # the distances measured at zero, linearised about the current state
            innovation = -distances - jacobian @ (prior - state)
            weighed = jacobian * variance  # J P (P diagonal)
            state = prior + weighed.T @ np.linalg.solve(weighed @ jacobian.T + noise, innovation)
            self.poses[moving] = state.reshape(-1, 3)


_DEGREE = math.pi / 180.0
"""Radians per degree: the poses' angles are in degrees."""


def _pose_of(piece: Located) -> tuple[float, float, float]:
    assert piece.pose is not None
    return piece.pose.x, piece.pose.y, piece.pose.angle


def _own_sigma(piece: Located) -> tuple[float, float, float]:
    """The piece's own deviations (x, y mm; angle degrees), the board's share out."""
    sx, sy, sa = piece.sigma
    turn = min(sa, MAX_TURN_SIGMA_DEGREES) if math.isfinite(sa) else MAX_TURN_SIGMA_DEGREES
    return own_share(sx, piece.spread), own_share(sy, piece.spread), turn
