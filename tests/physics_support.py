"""Physical checks of a model state, for the tests: supports, what a drop reaches, creep."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pymunk
from pymunk._chipmunk_cffi import lib

from firmware_host.config.board import Board
from firmware_host.model import PhysicsParams
from firmware_host.model.space import (
    BodyState,
    add_piece,
    build_space,
    run_until_settled,
    space_of,
    state_of,
)

TOUCH_MM = 0.5
"""Two shapes this close touch (the solver's slop plus what 10 iterations leave)."""

STILL_MM = 0.05
"""A piece that moved no more than this has not moved."""

DOWN = 0.1
"""A touch whose normal points down onto a piece more steeply than this (its y component,
of a unit normal) only presses on it."""


def gap(a: pymunk.Shape, b: pymunk.Shape) -> tuple[float, pymunk.Vec2d]:
    """The distance between two convex shapes (< 0: overlap) and the normal between them,
    pointing from ``b`` to ``a``: Chipmunk's contact when they overlap, else their nearest
    vertex and edge (exact for the board's polygons and circles)."""
    contact = lib.cpShapesCollide(a._shape, b._shape)
    if contact.count:
        depth = min(contact.points[i].distance for i in range(contact.count))
        return depth, pymunk.Vec2d(-contact.normal.x, -contact.normal.y)

    def corners(shape: pymunk.Shape) -> tuple[list[pymunk.Vec2d], float]:
        if isinstance(shape, pymunk.Circle):
            return [shape.body.local_to_world(shape.offset)], shape.radius
        assert isinstance(shape, pymunk.Poly)
        return [shape.body.local_to_world(v) for v in shape.get_vertices()], 0.0

    points_a, radius_a = corners(a)
    points_b, radius_b = corners(b)
    best = (math.inf, pymunk.Vec2d(0.0, 0.0))
    for point in points_a:
        query = b.point_query(point)
        if query.distance - radius_a < best[0]:
            best = (query.distance - radius_a, query.gradient)
    for point in points_b:
        query = a.point_query(point)
        if query.distance - radius_b < best[0]:
            best = (query.distance - radius_b, -query.gradient)
    return best


def _near(a: pymunk.Shape, b: pymunk.Shape, margin: float = TOUCH_MM) -> bool:
    return (
        a.bb.left - margin <= b.bb.right
        and b.bb.left - margin <= a.bb.right
        and a.bb.bottom - margin <= b.bb.top
        and b.bb.bottom - margin <= a.bb.top
    )


def unsupported(
    board: Board, params: PhysicsParams, states: Sequence[BodyState]
) -> dict[str, float]:
    """Pieces touching nothing that could hold them: the id and the gap (mm) to the nearest
    floor, wall or piece that touches it from below or the side (the normal between them
    not pointing down onto it by more than :data:`DOWN`: what only lies on it holds
    nothing). A piece hanging by its corners in a notch is held; one in mid-air is not."""
    space = build_space(board, params)
    bodies = [add_piece(space, board, params, state) for state in states]
    found = {}
    for state, body in zip(states, bodies, strict=True):
        (shape,) = body.shapes
        nearest = math.inf
        for other in space.shapes:
            if other.body is body or not _near(shape, other):
                continue
            distance, normal = gap(shape, other)
            if normal.y >= -DOWN:
                nearest = min(nearest, distance)
        if nearest > TOUCH_MM:
            found[state.id] = nearest
    return found


def moved(before: Sequence[BodyState], after: Sequence[BodyState]) -> dict[str, float]:
    """How far (mm) each piece of ``before`` moved in ``after``: its centroid, or the
    farthest a point 17 mm from it went, whichever is more (a turn counts)."""
    now = {state.id: state for state in after}
    return {
        s.id: max(
            math.hypot(now[s.id].x - s.x, now[s.id].y - s.y),
            17.0 * abs(math.remainder(now[s.id].angle - s.angle, math.tau)),
        )
        for s in before
    }


def woken_creep(board: Board, params: PhysicsParams, states: Sequence[BodyState]) -> float:
    """The farthest (mm, :func:`moved`) any piece moves when the pile is rebuilt, woken
    with nothing dropped and left until it sleeps again."""
    space, bodies = space_of(board, params, states)
    for body in bodies:
        body.activate()
    run_until_settled(space, bodies, params)
    after = [state_of(s, b, True) for s, b in zip(states, bodies, strict=True)]
    return max(moved(states, after).values(), default=0.0)


@dataclass(frozen=True)
class Followed:
    """A drop run as :meth:`World.drop` runs it, and how far (mm, :func:`moved`) each piece
    moved that the drop's contacts did not reach: ``untouched``, nothing reached touched it
    (the dropped piece, then, step by step, whatever touches a reached piece); ``unpushed``,
    nothing that moved touched it (the dropped piece, then whatever touches a pushed piece
    that has moved more than :data:`STILL_MM` or is faster than ``settle.speed``)."""

    final: tuple[BodyState, ...]
    untouched: dict[str, float]
    unpushed: dict[str, float]


def follow_drop(
    board: Board, params: PhysicsParams, before: Sequence[BodyState], dropped: BodyState
) -> Followed:
    """Drop ``dropped`` onto ``before`` and follow what its contacts reach (:class:`Followed`)."""
    space, bodies = space_of(board, params, before)
    falling = add_piece(space, board, params, dropped)
    states = (*before, dropped)
    every = (*bodies, falling)
    index = {body: i for i, body in enumerate(every)}
    touched = {len(every) - 1}
    pushed = {len(every) - 1}

    def spread(found: set[int], spreads: Callable[[int], bool]) -> None:
        """Add to ``found`` whatever touches a found body that ``spreads``, and so on."""
        news: list[int] = []

        def join(arbiter: pymunk.Arbiter) -> None:
            for shape in arbiter.shapes:
                i = index.get(shape.body)
                if i is not None and i not in found:
                    found.add(i)
                    news.append(i)

        todo = [i for i in found if spreads(i)]
        while todo:
            every[todo.pop()].each_arbiter(join)
            todo.extend(i for i in news if spreads(i))
            news.clear()

    def awake(i: int) -> bool:
        return not every[i].is_sleeping

    def moving(i: int) -> bool:
        body = every[i]
        return body is falling or (
            _shift(states[i], body) > STILL_MM or _speed(body) > params.settle.speed
        )

    def on_step(_: int) -> None:
        if len(touched) < len(every):
            spread(touched, awake)
        if len(pushed) < len(every):
            spread(pushed, moving)

    settled, _ = run_until_settled(space, [falling, *reversed(bodies)], params, on_step)
    final = tuple(state_of(s, b, settled) for s, b in zip(states, every, strict=True))
    shifts = moved(before, final)
    return Followed(
        final,
        {s.id: shifts[s.id] for i, s in enumerate(before) if i not in touched},
        {s.id: shifts[s.id] for i, s in enumerate(before) if i not in pushed},
    )


def _speed(body: pymunk.Body) -> float:
    """``body``'s speed as Chipmunk's sleeping measures it (mm/s)."""
    spin = body.angular_velocity
    return math.sqrt(body.velocity.length_squared + body.moment / body.mass * spin * spin)


def _shift(state: BodyState, body: pymunk.Body) -> float:
    """How far (mm, as :func:`moved`) ``body`` is from ``state``."""
    x, y = body.position
    return max(
        math.hypot(x - state.x, y - state.y),
        17.0 * abs(math.remainder(body.angle - state.angle, math.tau)),
    )
