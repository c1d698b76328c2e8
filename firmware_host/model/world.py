"""A drop zone with pieces at rest, into which pieces are dropped and left to settle.

Between drops a :class:`World` is the list of its bodies' states (:class:`BodyState`,
pymunk's unrounded numbers). Every drop builds a fresh pymunk space from that list (bodies
at rest start asleep pile by pile, their contacts primed), drops the piece and steps until
everything sleeps again. So the
world's whole state is that list: a :class:`Snapshot` is it, and a restored snapshot
continues bit-for-bit like the original, in this process or another
(docs/physics.md measures this against pymunk's ``Space.copy``).

>>> from firmware_host.config.board import load_board
>>> from firmware_host.model.params import load_params
>>> world = World(load_board(), load_params())
>>> result = world.drop(Drop(Color.RED, Shape.SQUARE, x=150.0, y=340.0))
>>> result.settled, round(result.piece.pose.y)  # half the square's 34 mm side
(True, 17)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import pymunk

from firmware_host.config.board import Board
from firmware_host.errors import InputError
from firmware_host.games.dropit.rules.geometry import piece_shape
from firmware_host.games.dropit.rules.pieces import Color, Piece, Pose, Shape
from firmware_host.model.params import PhysicsParams
from firmware_host.model.space import (
    BodyState,
    add_piece,
    reach,
    run_until_settled,
    space_of,
    state_of,
)

FIT_TOLERANCE_MM = 1e-6
"""A dropped piece may touch the walls' inner faces to within floating-point noise."""


@dataclass(frozen=True, slots=True)
class Drop:
    """How a piece is let go: centroid ``x``, ``y`` (mm), ``angle`` (degrees CCW),
    velocity ``vx``, ``vy`` (mm/s) and ``spin`` (degrees/s, CCW)."""

    color: Color
    shape: Shape
    x: float
    y: float
    angle: float = 0.0
    vx: float = 0.0
    vy: float = 0.0
    spin: float = 0.0


@dataclass(frozen=True, slots=True)
class DropResult:
    """What a drop came to: the dropped piece's pose, whether it settled, simulated time."""

    piece: Piece
    settled: bool
    sim_time_s: float


StepObserver = Callable[[float, BodyState], None]
"""Called by :meth:`World.drop` with the simulated time (s) and the dropped piece's state:
once at release (time 0), then after every step."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A world's whole state between drops; restore it with :meth:`World.restore`."""

    bodies: tuple[BodyState, ...]


class World:
    """The drop zone of ``board`` with physics ``params``, empty or holding ``snapshot``."""

    def __init__(
        self, board: Board, params: PhysicsParams, snapshot: Snapshot | None = None
    ) -> None:
        self.board = board
        self.params = params
        self._bodies: tuple[BodyState, ...] = snapshot.bodies if snapshot else ()

    @classmethod
    def at_rest(cls, board: Board, params: PhysicsParams, pieces: Iterable[Piece]) -> World:
        """A world holding ``pieces`` at their poses, at rest (e.g. poses the referee saw)."""
        bodies = tuple(
            BodyState(p.id, p.color, p.shape, p.pose.x, p.pose.y, math.radians(p.pose.angle))
            for p in pieces
        )
        return cls(board, params, Snapshot(bodies))

    def seated(self) -> World:
        """This world with its pieces brought to rest in the model: the piles primed, every
        body woken and the space stepped until everything sleeps (or the cap).

        Poses that someone saw (the camera's, a confirmed board's) are not a state the
        physics made: a piece on the floor or against a wall is located touching it, not
        ``collision_slop`` into it, and a neighbour a tenth of a millimetre off. Such a
        piece has no contact to prime, so it sleeps alone, hovering, and the pile around it
        is primed without the support it really has; a drop that wakes it lands elsewhere
        than on the board (docs/physics.md, "Boards from poses"). Seated, each piece sits
        in its contacts as in a state the physics made. A board the physics made moves
        by a few hundredths of a millimetre at most.
        """
        if not self._bodies:
            return World(self.board, self.params)
        space, bodies = space_of(self.board, self.params, self._bodies)
        for body in bodies:
            body.activate()
        settled, _ = run_until_settled(space, bodies, self.params)
        states = tuple(
            state_of(template, body, settled)
            for template, body in zip(self._bodies, bodies, strict=True)
        )
        return World(self.board, self.params, Snapshot(states))

    @property
    def pieces(self) -> tuple[Piece, ...]:
        """Every piece in the drop zone, in the order dropped, in the judge's frame."""
        return tuple(body.piece() for body in self._bodies)

    @property
    def bodies(self) -> tuple[BodyState, ...]:
        """Every piece's body state, unrounded (pymunk units)."""
        return self._bodies

    def snapshot(self) -> Snapshot:
        """The whole state, to try other drops from it later."""
        return Snapshot(self._bodies)

    def restore(self, snapshot: Snapshot) -> None:
        """Go back to ``snapshot`` (taken from a world of the same board and params)."""
        self._bodies = snapshot.bodies

    def top(self) -> float:
        """The highest point of any piece, in mm (0 for an empty board)."""
        return max(
            (body.y + reach(self.board, body.shape, body.angle)[3] for body in self._bodies),
            default=0.0,
        )

    def drop(
        self,
        drop: Drop,
        piece_id: str | None = None,
        *,
        params: PhysicsParams | None = None,
        observer: StepObserver | None = None,
    ) -> DropResult:
        """Drop a piece and step until every piece has settled (or the cap).

        ``piece_id`` defaults to ``p<n>`` for the n-th piece. ``params`` replaces the
        world's physics for this drop only (the simulator's per-drop spread); ``observer``
        sees the dropped piece at release and after every step (its trajectory), without
        changing the run. Raises :class:`InputError` when the id is taken, or the piece
        would not fit between the walls or would start inside another piece.
        """
        params = params or self.params
        piece_id = piece_id or f"p{len(self._bodies) + 1}"
        if any(body.id == piece_id for body in self._bodies):
            raise InputError("drop", piece_id, f"id {piece_id!r} is used by another piece")
        angle = math.radians(drop.angle)
        self._check_fits(drop, piece_id, angle)
        space, bodies = space_of(self.board, params, self._bodies)
        self._check_free(space, drop, piece_id, params)
        new = BodyState(
            piece_id,
            drop.color,
            drop.shape,
            drop.x,
            drop.y,
            angle,
            drop.vx,
            drop.vy,
            math.radians(drop.spin),
        )
        dropped = add_piece(space, self.board, params, new)
        on_step = None
        if observer is not None:
            observer(0.0, new)
            on_step = _watcher(observer, new, dropped, params.time_step)
        settled, steps = run_until_settled(space, [dropped, *reversed(bodies)], params, on_step)
        self._bodies = tuple(
            state_of(template, body, settled)
            for template, body in zip((*self._bodies, new), (*bodies, dropped), strict=True)
        )
        return DropResult(self._bodies[-1].piece(), settled, steps * params.time_step)

    def _check_fits(self, drop: Drop, piece_id: str, angle: float) -> None:
        left, _, right, _ = reach(self.board, drop.shape, angle)
        if (
            drop.x + left < -FIT_TOLERANCE_MM
            or drop.x + right > self.board.width + FIT_TOLERANCE_MM
        ):
            raise InputError(
                "drop",
                piece_id,
                f"a {drop.shape} at x={drop.x:g}, angle {drop.angle:g} reaches from "
                f"x={drop.x + left:g} to x={drop.x + right:g}: it does not fit between "
                f"the walls (0..{self.board.width:g})",
            )

    def _check_free(
        self, space: pymunk.Space, drop: Drop, piece_id: str, params: PhysicsParams
    ) -> None:
        shape = piece_shape(self.board, drop.shape, Pose(drop.x, drop.y, drop.angle))
        for info in space.shape_query(shape):
            depth = max((abs(p.distance) for p in info.contact_point_set.points), default=0.0)
            if depth > params.collision_slop:
                raise InputError(
                    "drop",
                    piece_id,
                    f"a {drop.shape} at ({drop.x:g}, {drop.y:g}) would start {depth:.1f} mm "
                    f"inside a piece or a wall: drop it from higher up",
                )


def _watcher(
    observer: StepObserver, template: BodyState, body: pymunk.Body, time_step: float
) -> Callable[[int], None]:
    """A per-step callback that shows ``observer`` the dropped ``body`` after each step."""

    def on_step(step: int) -> None:
        observer(step * time_step, state_of(template, body, at_rest=False))

    return on_step
