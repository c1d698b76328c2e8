"""The drop zone as a pymunk space: walls, floor, piece bodies, and stepping until settled.

Units inside pymunk: mm, seconds, grams, radians (gravity ``-params.gravity`` mm/s^2 on y).
The two panes are the plane of the space; the floor and the side walls are thick static
boxes whose inner faces are the drop zone's edges (x = 0, x = width, y = 0). The walls rise
to twice the board's height: the top of the drop zone is open, so pieces may stick out
above it (the HEIGHT rule) and still be held between the panes.

Every piece body is held back by two constraints to the static body with no position
correction (``max_bias = 0``): a pivot whose force is capped at mass x linear pane drag, and
a gear whose torque is capped at moment x angular pane drag (+ rolling resistance x weight
x radius for circles). They act as Coulomb friction against sliding and turning, so a body
coming to rest really stops, and circles do not roll for ever.

These functions are the building blocks of :class:`~firmware_host.model.World`; they are
public so that benchmarks and the simulator can compare ways of copying a space.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pymunk
from pymunk._chipmunk_cffi import lib

from firmware_host.config.board import Board, CircleShape
from firmware_host.games.dropit.rules.geometry import piece_shape
from firmware_host.games.dropit.rules.pieces import Color, Piece, Pose, Shape
from firmware_host.model.params import PhysicsParams

WALL_THICKNESS_MM = 50.0
"""Thickness of the static floor and wall boxes (thick, so nothing tunnels through)."""

WALL_HEIGHT_FACTOR = 2.0
"""The side walls rise to this many times the board's height."""


@dataclass(frozen=True, slots=True)
class BodyState:
    """One piece's body: position (mm), angle (rad), velocity (mm/s), spin (rad/s, CCW).

    These are pymunk's own numbers, kept unrounded, so that a world rebuilt from them is
    the same world. ``x``, ``y`` are the centroid (the board's vertices are around it).
    """

    id: str
    color: Color
    shape: Shape
    x: float
    y: float
    angle: float
    vx: float = 0.0
    vy: float = 0.0
    spin: float = 0.0

    @property
    def at_rest(self) -> bool:
        """True when the body does not move (it is put to sleep, with its pile, when a space
        is built)."""
        return self.vx == 0.0 and self.vy == 0.0 and self.spin == 0.0

    def piece(self) -> Piece:
        """The piece in the judge's frame: degrees CCW normalised into [0, 360)."""
        return Piece(self.id, self.color, self.shape, Pose(self.x, self.y, judge_angle(self.angle)))


def judge_angle(radians: float) -> float:
    """An angle in radians as the judge's degrees in [0, 360).

    >>> judge_angle(-math.pi / 2)
    270.0
    """
    degrees = math.degrees(radians) % 360.0
    return 0.0 if degrees >= 360.0 else degrees


def outline(board: Board, shape: Shape, angle: float) -> list[tuple[float, float]]:
    """The polygon's vertices turned by ``angle`` (rad) around the centroid (empty for circles)."""
    dims = board.shapes.of(shape)
    if isinstance(dims, CircleShape):
        return []
    cos, sin = math.cos(angle), math.sin(angle)
    return [(x * cos - y * sin, x * sin + y * cos) for x, y in dims.vertices]


def reach(board: Board, shape: Shape, angle: float) -> tuple[float, float, float, float]:
    """How far the turned shape reaches from its centroid: ``(left, bottom, right, top)``, mm.

    ``left`` and ``bottom`` are <= 0.
    """
    dims = board.shapes.of(shape)
    if isinstance(dims, CircleShape):
        r = dims.radius
        return -r, -r, r, r
    corners = outline(board, shape, angle)
    xs = [x for x, _ in corners]
    ys = [y for _, y in corners]
    return min(xs), min(ys), max(xs), max(ys)


def build_space(board: Board, params: PhysicsParams) -> pymunk.Space:
    """An empty drop zone: floor and walls, gravity, solver and sleeping thresholds."""
    space = pymunk.Space()
    space.gravity = (0.0, -params.gravity)
    space.iterations = params.iterations
    space.collision_slop = params.collision_slop
    space.collision_bias = params.collision_bias
    space.idle_speed_threshold = params.settle.speed
    space.sleep_time_threshold = params.settle.time
    t, w, top = WALL_THICKNESS_MM, board.width, board.height * WALL_HEIGHT_FACTOR
    piece_friction, piece_elasticity = _piece_coefficients(params)
    for left, bottom, right, up in (
        (-t, -t, w + t, 0.0),
        (-t, 0.0, 0.0, top),
        (w, 0.0, w + t, top),
    ):
        wall = pymunk.Poly(
            space.static_body, [(left, bottom), (right, bottom), (right, up), (left, up)]
        )
        wall.friction = params.friction.piece_wall / piece_friction
        wall.elasticity = params.elasticity.piece_wall / piece_elasticity
        space.add(wall)
    return space


def _piece_coefficients(params: PhysicsParams) -> tuple[float, float]:
    """Each piece shape's friction and elasticity: Chipmunk multiplies the two shapes' values."""
    return math.sqrt(params.friction.piece_piece), math.sqrt(params.elasticity.piece_piece)


def add_piece(
    space: pymunk.Space, board: Board, params: PhysicsParams, state: BodyState
) -> pymunk.Body:
    """Add a piece's body, shape and pane-drag constraints to ``space``; return the body.

    The body is not put to sleep here (a space must hold every body before that).
    """
    body = pymunk.Body()
    dims = board.shapes.of(state.shape)
    shape: pymunk.Shape
    if isinstance(dims, CircleShape):
        shape = pymunk.Circle(body, dims.radius)
    else:
        shape = pymunk.Poly(body, [(x, y) for x, y in dims.vertices])
    # Chipmunk's setters, as pymunk's properties call them, less pymunk's bookkeeping
    friction, elasticity = _piece_coefficients(params)
    c_shape, c_body = shape._shape, body._body
    lib.cpShapeSetFriction(c_shape, friction)
    lib.cpShapeSetElasticity(c_shape, elasticity)
    lib.cpShapeSetDensity(c_shape, params.density * params.thickness)
    _set_state(c_body, state)
    space.add(body, shape)
    mass = lib.cpBodyGetMass(c_body)
    slide = pymunk.PivotJoint(space.static_body, body, (0.0, 0.0), (0.0, 0.0))
    lib.cpConstraintSetMaxBias(slide._constraint, 0.0)
    lib.cpConstraintSetMaxForce(slide._constraint, mass * params.pane_drag.linear)
    turn = pymunk.GearJoint(space.static_body, body, 0.0, 1.0)
    torque = lib.cpBodyGetMoment(c_body) * math.radians(params.pane_drag.angular)
    if isinstance(dims, CircleShape):
        torque += params.rolling_resistance * mass * params.gravity * dims.radius
    lib.cpConstraintSetMaxBias(turn._constraint, 0.0)
    lib.cpConstraintSetMaxForce(turn._constraint, torque)
    space.add(slide, turn)
    return body


def add_fixed_piece(
    space: pymunk.Space, board: Board, params: PhysicsParams, state: BodyState
) -> None:
    """Add a piece that cannot move: its shape on ``space``'s static body at ``state``'s
    pose, with a piece's friction and elasticity."""
    shape = piece_shape(board, state.shape, state.piece().pose, body=space.static_body)
    shape.friction, shape.elasticity = _piece_coefficients(params)
    space.add(shape)


PRIME_ITERATIONS = 200
"""Solver iterations of the step that primes a rebuilt space's contacts (a drop's steps run
``params.iterations``)."""


def space_of(
    board: Board, params: PhysicsParams, states: Sequence[BodyState]
) -> tuple[pymunk.Space, list[pymunk.Body]]:
    """A space holding ``states`` and their bodies, in order, each where its state has it;
    the bodies at rest start asleep, pile by pile, their contacts primed.

    Priming is one step in which nothing moves: every body starts it still, the overlaps
    are not pushed apart (collision bias 1), and the solver runs :data:`PRIME_ITERATIONS`
    iterations, so the contacts come out carrying the pile's weight as a live space's
    would. A second still step lets Chipmunk put each pile (bodies whose shapes overlap)
    to sleep as one group, keeping its primed contacts. Waking any piece of a pile wakes
    all of it with those contacts: a support that moves away wakes what it held, and a
    woken pile neither falls for a step before its contacts are found nor sags while the
    solver rebuilds its impulses (a body put to sleep alone did both). The moving bodies
    are put back at their states after each step.
    """
    space = build_space(board, params)
    bodies = [add_piece(space, board, params, state) for state in states]
    if not any(state.at_rest for state in states):
        return space, bodies
    space.iterations = PRIME_ITERATIONS
    space.collision_bias = 1.0
    for sleep_time in (math.inf, 0.0):
        space.sleep_time_threshold = sleep_time
        space.step(params.time_step)
        for state, body in zip(states, bodies, strict=True):
            _put_back(body, state)
    space.iterations = params.iterations
    space.collision_bias = params.collision_bias
    space.sleep_time_threshold = params.settle.time
    return space, bodies


def _put_back(body: pymunk.Body, state: BodyState) -> None:
    """``body`` at ``state``'s pose and velocities (a sleeping body is left asleep)."""
    if not lib.cpBodyIsSleeping(body._body):
        _set_state(body._body, state)


def _set_state(c_body: object, state: BodyState) -> None:
    """Chipmunk's body ``c_body`` at ``state``'s pose and velocities (Chipmunk's setters, as
    pymunk's properties call them, less pymunk's bookkeeping)."""
    lib.cpBodySetPosition(c_body, (state.x, state.y))
    lib.cpBodySetAngle(c_body, state.angle)
    lib.cpBodySetVelocity(c_body, (state.vx, state.vy))
    lib.cpBodySetAngularVelocity(c_body, state.spin)


def run_until_settled(
    space: pymunk.Space,
    bodies: Sequence[pymunk.Body],
    params: PhysicsParams,
    on_step: Callable[[int], None] | None = None,
) -> tuple[bool, int]:
    """Step ``space`` at the fixed time step until every body in ``bodies`` sleeps, or the cap.

    Returns ``(settled, steps)``. ``bodies`` is checked in the order given: put the likely
    last sleeper (the dropped piece) first. ``on_step(n)`` is called after the n-th step
    (it must only read the space).
    """
    cap = math.ceil(params.settle.cap / params.time_step)
    dt = params.time_step
    space.step(dt)  # pymunk's step once: it checks the bodies' masses
    # then Chipmunk's step and sleep test themselves, without pymunk's per-call
    # bookkeeping (no callbacks, nothing is added or removed while stepping)
    c_step, c_sleeping, c_space = lib.cpSpaceStep, lib.cpBodyIsSleeping, space._space
    c_bodies = [body._body for body in bodies]
    for step in range(1, cap + 1):
        if step > 1:
            c_step(c_space, dt)
        if on_step is not None:
            on_step(step)
        if all(map(c_sleeping, c_bodies)):
            return True, step
    return False, cap


def state_of(template: BodyState, body: pymunk.Body, at_rest: bool) -> BodyState:
    """``template``'s piece at ``body``'s pose; with its velocities unless ``at_rest``."""
    position = body.position
    if at_rest or body.is_sleeping:
        return BodyState(
            template.id, template.color, template.shape, position.x, position.y, body.angle
        )
    velocity = body.velocity
    return BodyState(
        template.id,
        template.color,
        template.shape,
        position.x,
        position.y,
        body.angle,
        velocity.x,
        velocity.y,
        body.angular_velocity,
    )
