"""Every piece of the true world as the physics runs: what the table's strips look at.

:meth:`~firmware_host.model.World.drop` shows its observer the dropped piece only (the
entry gate needs no more). A real table's curtain and edge strips see the whole pile all
the time, and a pile pushed by a falling piece moves while it falls, not when it has
settled. :func:`watched_drop` runs a drop exactly as ``World.drop`` does (same space, same
steps, same final state, bit for bit), from the model's public building blocks
(:mod:`firmware_host.model.space`), and records both the dropped piece's path (a
:class:`~firmware_host.sensors.Trajectory`, every step) and a :class:`Scene`: every
piece's pose every ``period_s`` of simulated time.

>>> from firmware_host.config.board import load_board
>>> from firmware_host.model import Drop, World, load_params
>>> from firmware_host.games.dropit.rules.pieces import Color, Shape
>>> world = World(load_board(), load_params())
>>> result, path, scene = watched_drop(world, Drop(Color.RED, Shape.SQUARE, 150.0, 100.0))
>>> first, last = scene.frames[0], scene.frames[-1]
>>> first.t, round(first.pieces[0].pose.y), round(last.pieces[0].pose.y)
(0.0, 100, 17)
>>> scene.frames[-1].pieces == world.pieces and result.settled
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pymunk

from firmware_host.games.dropit.rules.pieces import Piece, Pose
from firmware_host.model import Drop, DropResult, PhysicsParams, Snapshot, World
from firmware_host.model.space import (
    BodyState,
    add_piece,
    judge_angle,
    run_until_settled,
    space_of,
    state_of,
)
from firmware_host.sensors import Trajectory

PERIOD_S = 0.01
"""How often (simulated seconds) a :class:`Scene` records every piece by default."""


@dataclass(frozen=True, slots=True)
class Frame:
    """Every piece (in the order dropped, the dropped one last) ``t`` seconds after release."""

    t: float
    pieces: tuple[Piece, ...]


@dataclass
class Scene:
    """Frames of the whole drop zone during one drop: at release, about every period,
    and the final rest (the last frame is the world's state after the drop)."""

    frames: list[Frame] = field(default_factory=list)


def watched_drop(
    world: World,
    drop: Drop,
    piece_id: str | None = None,
    params: PhysicsParams | None = None,
    period_s: float = PERIOD_S,
) -> tuple[DropResult, Trajectory, Scene]:
    """Drop ``drop`` into ``world`` as ``World.drop`` would (``params`` for this drop
    only) and watch it: the result, the dropped piece's path and the scene.

    The caller makes sure the piece fits between the walls and starts above the pile (the
    true world lets go above its top): unlike ``World.drop`` this does not check it.
    """
    params = params or world.params
    before = world.bodies
    piece_id = piece_id or f"p{len(before) + 1}"
    space, bodies = space_of(world.board, params, before)
    new = BodyState(
        piece_id,
        drop.color,
        drop.shape,
        drop.x,
        drop.y,
        math.radians(drop.angle),
        drop.vx,
        drop.vy,
        math.radians(drop.spin),
    )
    dropped = add_piece(space, world.board, params, new)
    templates = (*before, new)
    watched = (*bodies, dropped)
    trajectory = Trajectory()
    trajectory.record(0.0, new)
    scene = Scene([Frame(0.0, tuple(body.piece() for body in templates))])
    shown = list(scene.frames[0].pieces)
    due = period_s

    def on_step(step: int) -> None:
        nonlocal due
        t = step * params.time_step
        trajectory.record(t, state_of(new, dropped, at_rest=False))
        if t + 1e-9 >= due:
            due = (math.floor(t / period_s + 1e-9) + 1) * period_s
            scene.frames.append(Frame(t, _seen(templates, watched, shown)))

    settled, steps = run_until_settled(space, [dropped, *reversed(bodies)], params, on_step)
    final = tuple(
        state_of(template, body, settled) for template, body in zip(templates, watched, strict=True)
    )
    world.restore(Snapshot(final))
    scene.frames.append(Frame(steps * params.time_step, world.pieces))
    return DropResult(final[-1].piece(), settled, steps * params.time_step), trajectory, scene


def _seen(
    templates: tuple[BodyState, ...], bodies: tuple[pymunk.Body, ...], shown: list[Piece]
) -> tuple[Piece, ...]:
    """Every piece's pose now (``shown`` updated; a sleeping body keeps its piece)."""
    for i, (template, body) in enumerate(zip(templates, bodies, strict=True)):
        if not body.is_sleeping:
            x, y = body.position
            pose = Pose(x, y, judge_angle(body.angle))
            shown[i] = Piece(template.id, template.color, template.shape, pose)
    return tuple(shown)
