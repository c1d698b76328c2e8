"""Physical checks of a model state, for the tests: supports, contacts, a woken pile's creep."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pymunk

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


def gap(a: pymunk.Shape, b: pymunk.Shape) -> tuple[float, pymunk.Vec2d]:
    """The distance between two convex shapes (< 0: overlap) and the nearest point on ``b``."""

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
            best = (query.distance - radius_a, query.point)
    for point in points_b:
        query = a.point_query(point)
        if query.distance - radius_b < best[0]:
            best = (query.distance - radius_b, point)
    return best


def _shapes(board: Board, params: PhysicsParams, states: Sequence[BodyState]):
    space = build_space(board, params)
    bodies = [add_piece(space, board, params, state) for state in states]
    return space, bodies


def unsupported(
    board: Board, params: PhysicsParams, states: Sequence[BodyState]
) -> dict[str, float]:
    """Pieces touching nothing that could hold them: the id and the gap (mm) to the nearest
    floor, wall or piece touching it lower than its top (not merely resting on it)."""
    space, bodies = _shapes(board, params, states)
    found = {}
    for state, body in zip(states, bodies, strict=True):
        (shape,) = body.shapes
        top = shape.bb.top
        nearest = math.inf
        for other in space.shapes:
            if other.body is body or not _near(shape, other):
                continue
            distance, point = gap(shape, other)
            if point.y < top - 1.0:
                nearest = min(nearest, distance)
        if nearest > TOUCH_MM:
            found[state.id] = nearest
    return found


def _near(a: pymunk.Shape, b: pymunk.Shape, margin: float = TOUCH_MM) -> bool:
    return (
        a.bb.left - margin <= b.bb.right
        and b.bb.left - margin <= a.bb.right
        and a.bb.bottom - margin <= b.bb.top
        and b.bb.bottom - margin <= a.bb.top
    )


def touching(
    board: Board, params: PhysicsParams, states: Sequence[BodyState]
) -> set[frozenset[str]]:
    """Every pair of pieces (by id) within :data:`TOUCH_MM` of each other."""
    _, bodies = _shapes(board, params, states)
    shapes = [next(iter(body.shapes)) for body in bodies]
    pairs = set()
    for i, a in enumerate(shapes):
        for j in range(i + 1, len(shapes)):
            b = shapes[j]
            if _near(a, b) and gap(a, b)[0] <= TOUCH_MM:
                pairs.add(frozenset((states[i].id, states[j].id)))
    return pairs


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
    """The farthest any piece moves when the pile is rebuilt, woken and left to sleep."""
    space, bodies = space_of(board, params, states)
    for body in bodies:
        body.activate()
    steps = 0
    while not all(body.is_sleeping for body in bodies) and steps < 2400:
        space.step(params.time_step)
        steps += 1
    return max(
        (
            math.hypot(b.position.x - s.x, b.position.y - s.y)
            for s, b in zip(states, bodies, strict=True)
        ),
        default=0.0,
    )


def unreached_moves(
    board: Board, params: PhysicsParams, before: Sequence[BodyState], dropped: BodyState
) -> tuple[tuple[BodyState, ...], dict[str, float]]:
    """Run a drop as :meth:`World.drop` does and follow what its contacts reach: the
    dropped piece, then, step by step, every piece in contact with a reached one (the only
    way the solver moves a body is through a contact or its own weight). Returns the final
    states and how far (mm, :func:`moved`) each piece the drop never reached moved."""
    space, bodies = space_of(board, params, before)
    falling = add_piece(space, board, params, dropped)
    states = (*before, dropped)
    every = (*bodies, falling)
    index = {body: i for i, body in enumerate(every)}
    reached = {len(every) - 1}
    fresh = [falling]

    def reach(arbiter: pymunk.Arbiter) -> None:
        for shape in arbiter.shapes:
            i = index.get(shape.body)
            if i is not None and i not in reached:
                reached.add(i)
                fresh.append(every[i])

    def on_step(_: int) -> None:
        for body in [every[i] for i in reached]:
            body.each_arbiter(reach)
        while fresh:
            fresh.pop().each_arbiter(reach)

    settled, _ = run_until_settled(space, [falling, *reversed(bodies)], params, on_step)
    assert settled
    final = tuple(state_of(s, b, True) for s, b in zip(states, every, strict=True))
    shifts = moved(before, final)
    far = {s.id: shifts[s.id] for i, s in enumerate(before) if i not in reached}
    return final, far
