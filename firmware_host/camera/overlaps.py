"""Located pieces that overlap moved apart: two wooden pieces never share space.

Each fit places its piece on its own (:mod:`~firmware_host.camera.outline`), and where an
edge is hard to see (a neighbour of the same colour runs into it, a thin rim of the side
lies beside it, a printed line runs along it) it may place the piece into its neighbour.
Every seen piece's pose is an estimate with its standard deviations; that no two pieces,
and no piece and the floor or a wall, overlap is a measurement of their poses too. Where
located outlines overlap by more than :data:`SLACK_MM`, where they overlap is measured at
zero distance, to :data:`CONTACT_SIGMA_MM` (two polygons: the points of one that lie
beyond the side of the other that parts them most, as a physics engine finds a contact's
points; a circle: its outline's distance to the other), and the poses involved are
updated by those measurements as an iterated Kalman update (Gauss-Newton on the poses,
each weighted by its own deviations): of two overlapping pieces the one the camera placed
less surely moves more. A piece moved that lies on the floor or against a wall stays
there (its distance to it is measured too, to :data:`WALL_SIGMA_MM`).

The deviations stay the fits' own: parting two pieces says where they touch, not how well
the camera saw either. Measured on the located poses of the virtual camera's 1000
realistic scenes (seed 1; docs/camera.md): pieces within 0.5 mm of their true outline
18172 -> 18236 of 18292 seen (64 more, 67 brought within and 3 out), the mean outline
error 0.123 -> 0.105 mm; 600 scenes of seed 2: 10703 -> 10757 of 10808, 0.141 -> 0.117
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

from firmware_host.camera.locate import Located
from firmware_host.config.board import Board, CircleShape
from firmware_host.games.dropit.rules.geometry import outline_reach
from firmware_host.games.dropit.rules.pieces import Pose

SLACK_MM = 0.1
"""Outlines overlapping by less than this are left as located: the fits' own scatter (and
a physics model's collision slop, which lets resting pieces overlap by 0.1 mm)."""
DEEPEST_MM = 3.0
"""A corner deeper than this in another piece is not a near miss of where they touch."""
CONTACT_SIGMA_MM = 0.15
"""How exactly two parted pieces touch (standard deviation of the zero distance): the
overlap the fits' errors leave is not all theirs: two pieces resting on each other
overlap a little in a physics model too (on the virtual camera's 1000 realistic scenes,
seed 1, the pieces' mean outline error went from 0.123 mm to 0.130, 0.110, 0.105, 0.106
and 0.111 mm at 0.05, 0.1, 0.15, 0.2 and 0.3 mm; at 0.05 mm more pieces came out worse
than better)."""
WALL_SIGMA_MM = 0.03
"""The same for a piece against the floor or a wall: the board's frame is where it is
(on the same scenes, at 0.1 mm the pieces on the floor were pushed into it, toward where
the virtual camera's physics lets them sink by its slop: their errors fell, not from
anything the camera saw; pieces within 0.5 mm 18233 against 18236 at this)."""
MAX_TURN_SIGMA_DEGREES = 10.0
"""A fit's angle deviation is capped at this for the update: a fit that left its angle
free must not spin to part."""
ITERATIONS = 4
"""Gauss-Newton steps of the update."""

FLOOR, LEFT, RIGHT = -1, -2, -3
"""The walls a piece may be measured against (in place of another piece's index)."""


Gradient = tuple[float, float, float]
"""A distance's derivatives by one piece's x, y (mm) and angle (degrees)."""


@dataclass(frozen=True)
class Contact:
    """A distance measured at zero: piece ``piece`` against piece ``against`` (a circle's
    outline, or a polygon's ``corner`` against the other's side ``side``), or corner
    ``corner`` of ``piece`` (a circle: -1, its outline) against the floor or a wall
    (``against`` :data:`FLOOR`, :data:`LEFT` or :data:`RIGHT`)."""

    piece: int
    corner: int
    against: int
    side: int = -1


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
    """The seen pieces' shapes, poses (n x 3: x, y mm, angle degrees) and own deviations."""

    def __init__(self, board: Board, located: Sequence[Located]) -> None:
        self.width = board.width
        self.poses = np.array([_pose_of(p) for p in located]).reshape(-1, 3)
        self.sigma = np.array([_own_sigma(p) for p in located]).reshape(-1, 3)
        dims = [board.shapes.of(p.known.shape) for p in located]
        self.radius = [d.radius if isinstance(d, CircleShape) else 0.0 for d in dims]
        self.vertices = [
            [] if isinstance(d, CircleShape) else [(float(x), float(y)) for x, y in d.vertices]
            for d in dims
        ]
        self.reach = [outline_reach(board, p.known.shape) for p in located]
        self.placed = [self._corners(i) for i in range(len(located))]

    def _corners(self, piece: int) -> list[tuple[float, float]]:
        """A polygon's corners where it lies (counter-clockwise); a circle's centre."""
        x, y, angle = (float(v) for v in self.poses[piece])
        if not self.vertices[piece]:
            return [(x, y)]
        turn = math.radians(angle)
        cos, sin = math.cos(turn), math.sin(turn)
        return [(x + u * cos - v * sin, y + u * sin + v * cos) for u, v in self.vertices[piece]]

    def overlapping(self) -> list[Contact]:
        """The pairs of pieces whose distance lies below -:data:`SLACK_MM` (and above
        -:data:`DEEPEST_MM`), and those pieces' contacts with the floor and walls below
        :data:`SLACK_MM` (a piece resting on the floor stays on it)."""
        centres = self.poses[:, :2]
        apart = np.hypot(*(centres[:, None, :] - centres[None, :, :]).transpose(2, 0, 1))
        reach = np.array(self.reach)
        near = np.triu(apart < reach[:, None] + reach[None, :], k=1)
        found = [
            contact
            for a, b in np.argwhere(near).tolist()
            for contact in self._touching(a, b)
        ]
        moving = {c.piece for c in found} | {c.against for c in found}
        for a in sorted(moving):
            x, y = self.poses[a, :2]
            if min(x, y, self.width - x) - self.reach[a] > SLACK_MM:
                continue
            corners = range(len(self.placed[a])) if self.vertices[a] else [-1]
            found += [
                contact
                for k in corners
                for wall in (FLOOR, LEFT, RIGHT)
                if self.measure(contact := Contact(a, k, wall))[0] < SLACK_MM
            ]
        return found

    def _touching(self, a: int, b: int) -> list[Contact]:
        """Where pieces ``a`` and ``b`` overlap by more than :data:`SLACK_MM` (and less
        than :data:`DEEPEST_MM`): a circle's outline; for two polygons, the side of either
        that parts them most (the separating axis theorem) and the corners of the other
        inside it, or, for a corner beyond the side's ends, the point of its side at that
        end (as a physics engine finds a contact's points)."""
        if not (self.vertices[a] and self.vertices[b]):
            overlap = self.measure(Contact(a, -1, b))[0]
            return [Contact(a, -1, b)] if -DEEPEST_MM < overlap < -SLACK_MM else []
        depth, side_of, side, corner_of = self._separation(a, b)
        if not -DEEPEST_MM < depth < -SLACK_MM:
            return []
        return [
            contact
            for corner in range(len(self.vertices[corner_of]))
            if self.measure(contact := Contact(corner_of, corner, side_of, side))[0] < 0.0
        ]

    def _separation(self, a: int, b: int) -> tuple[float, int, int, int]:
        """How far two polygons lie apart along the side of either that parts them most
        (negative: the depth a move along that side's normal takes them out of each
        other), that side's piece and index, and the other piece."""
        best = (-math.inf, a, 0, b)
        for side_of, corner_of in ((a, b), (b, a)):
            placed = self.placed[side_of]
            for side, ((sx, sy), (ex, ey)) in enumerate(
                zip(placed, [*placed[1:], placed[0]], strict=True)
            ):
                length = math.hypot(ex - sx, ey - sy)
                nx, ny = (ey - sy) / length, -(ex - sx) / length  # outward
                depth = min((cx - sx) * nx + (cy - sy) * ny for cx, cy in self.placed[corner_of])
                if depth > best[0]:
                    best = (depth, side_of, side, corner_of)
        return best

    def measure(self, contact: Contact) -> tuple[float, dict[int, Gradient]]:
        """The contact's signed distance (mm, negative: overlapping) and its derivatives by
        the x, y and angle (degrees) of each piece that bears on it."""
        if contact.against < 0:
            return self._to_wall(contact)
        if contact.side >= 0:
            return self._corner_to_side(contact)
        a, b = contact.piece, contact.against
        if self.vertices[a]:
            a, b = b, a  # the circle first
        centre = self.placed[a][0]
        if self.vertices[b]:
            distance, unit, nearest = _to_polygon(self.placed[b], centre)
        else:
            other = self.placed[b][0]
            gap = math.dist(centre, other)
            unit = ((centre[0] - other[0]) / gap, (centre[1] - other[1]) / gap) if gap else (0, 1)
            distance = gap - self.radius[b]
            nearest = (other[0] + unit[0] * self.radius[b], other[1] + unit[1] * self.radius[b])
        return distance - self.radius[a], {
            a: (unit[0], unit[1], 0.0), b: self._gradient(b, unit, nearest, -1.0)
        }

    def _corner_to_side(self, contact: Contact) -> tuple[float, dict[int, Gradient]]:
        """A polygon's corner's distance beyond another's side (along its outward normal,
        negative inside); a corner beyond either end of the side counts as the point of
        its own side that lies at that end (toward the neighbouring corner nearer the
        other's side)."""
        placed = self.placed[contact.against]
        (sx, sy), (ex, ey) = placed[contact.side], placed[(contact.side + 1) % len(placed)]
        length = math.hypot(ex - sx, ey - sy)
        tx, ty = (ex - sx) / length, (ey - sy) / length
        normal = (ty, -tx)  # outward
        corners = self.placed[contact.piece]
        point = corners[contact.corner]
        along = (point[0] - sx) * tx + (point[1] - sy) * ty
        if not 0.0 <= along <= length:
            end = 0.0 if along < 0.0 else length
            # the corner's side toward the other's side: the neighbour lower along the normal
            neighbours = (corners[contact.corner - 1], corners[(contact.corner + 1) % len(corners)])
            other = min(neighbours, key=lambda c: (c[0] - sx) * normal[0] + (c[1] - sy) * normal[1])
            other_along = (other[0] - sx) * tx + (other[1] - sy) * ty
            if other_along != along:
                share = min(max((end - along) / (other_along - along), 0.0), 1.0)
                point = (point[0] + share * (other[0] - point[0]),
                         point[1] + share * (other[1] - point[1]))
        distance = (point[0] - sx) * normal[0] + (point[1] - sy) * normal[1]
        return distance, {
            contact.piece: self._gradient(contact.piece, normal, point, 1.0),
            contact.against: self._gradient(contact.against, normal, point, -1.0),
        }

    def _to_wall(self, contact: Contact) -> tuple[float, dict[int, Gradient]]:
        """A corner's (a circle's outline's) distance to the floor or a wall."""
        a = contact.piece
        point = self.placed[a][max(contact.corner, 0)]
        unit, distance = {
            FLOOR: ((0.0, 1.0), point[1]),
            LEFT: ((1.0, 0.0), point[0]),
            RIGHT: ((-1.0, 0.0), self.width - point[0]),
        }[contact.against]
        return distance - self.radius[a], {a: self._gradient(a, unit, point, 1.0)}

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
            for piece in moving:
                self.placed[piece] = self._corners(piece)


_DEGREE = math.pi / 180.0
"""Radians per degree: the poses' angles are in degrees."""


def _pose_of(piece: Located) -> tuple[float, float, float]:
    assert piece.pose is not None
    return piece.pose.x, piece.pose.y, piece.pose.angle


def _own_sigma(piece: Located) -> tuple[float, float, float]:
    """The piece's own deviations (x, y mm; angle degrees), the board's share out."""
    sx, sy, sa = piece.sigma
    own = [math.sqrt(max(s * s - piece.spread * piece.spread, 0.0)) for s in (sx, sy)]
    turn = min(sa, MAX_TURN_SIGMA_DEGREES) if math.isfinite(sa) else MAX_TURN_SIGMA_DEGREES
    return own[0], own[1], turn


def _to_polygon(
    corners: Sequence[tuple[float, float]], point: tuple[float, float]
) -> tuple[float, tuple[float, float], tuple[float, float]]:
    """A point's signed distance to a convex counter-clockwise polygon (negative inside:
    the depth below its nearest side), the unit direction from the polygon's nearest
    outline point to the point (outwards), and that nearest point."""
    px, py = point
    best_inside = (-math.inf, (0.0, 0.0), (px, py))
    best_outside = (math.inf, (0.0, 0.0), (px, py))
    inside = True
    for (ax, ay), (bx, by) in zip(corners, [*corners[1:], corners[0]], strict=True):
        sx, sy = bx - ax, by - ay
        length = math.hypot(sx, sy)
        nx, ny = sy / length, -sx / length
        beyond = (px - ax) * nx + (py - ay) * ny
        if beyond > 0:
            inside = False
        if beyond > best_inside[0]:
            best_inside = (beyond, (nx, ny), (px - beyond * nx, py - beyond * ny))
        along = min(max(((px - ax) * sx + (py - ay) * sy) / (length * length), 0.0), 1.0)
        qx, qy = ax + along * sx, ay + along * sy
        gap = math.hypot(px - qx, py - qy)
        if gap < best_outside[0]:
            unit = ((px - qx) / gap, (py - qy) / gap) if gap > 0 else (nx, ny)
            best_outside = (gap, unit, (qx, qy))
    return best_inside if inside else best_outside
