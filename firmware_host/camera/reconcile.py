"""Located poses reconciled with the pymunk model: a settled board rests on what holds it.

The camera places each piece to a tenth of a millimetre or so, which leaves hair-line gaps
and overlaps between pieces that in truth rest on each other. The located pieces are put
into the host's physics model (:mod:`firmware_host.model`) at their poses, awake, and the
model runs for :data:`SETTLE_S` of simulated time: gaps close, overlaps open, and each
piece comes to rest on what holds it. A piece the model moves by no more than
:data:`SNAP_MM` takes its settled pose; one it moves farther keeps the camera's pose (the
model's physics is not the board's: a piece friction holds on the board may slide in the
model), and one that falls farther than :data:`DISAGREE_MM` is a *disagreement*: the
camera sees it where nothing can hold it, which the referee hears about.

>>> from firmware_host.camera.locate import Known, Located
>>> from firmware_host.config.board import load_board
>>> from firmware_host.model import load_params
>>> from firmware_host.rules.pieces import Color, Pose, Shape
>>> resting = Located(Known("p1", Color.RED, Shape.SQUARE), Pose(150.0, 17.1, 0.0), True,
...                   (0.05, 0.05, 0.1))
>>> floating = Located(Known("p2", Color.BLUE, Shape.SQUARE), Pose(50.0, 40.0, 0.0), True,
...                    (0.05, 0.05, 0.1))
>>> result = reconcile(load_board(), load_params(), [resting, floating])
>>> round(result.located[0].pose.y, 1), result.located[1].pose.y, result.disagreements
(17.0, 40.0, ('p2',))
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass

from firmware_host.camera.locate import Located
from firmware_host.config.board import Board
from firmware_host.model import PhysicsParams
from firmware_host.model.space import BodyState, space_of
from firmware_host.rules.pieces import Pose

SETTLE_S = 0.12
"""Simulated seconds the model runs from the located poses (a 1 mm gap closes in 15 ms)."""
SNAP_MM = 0.15
"""A piece the model moves by at most this takes its settled pose ..."""
SNAP_DEG = 0.5
"""... and turns by at most this."""
DISAGREE_MM = 3.0
"""A piece that falls farther than this in the model is a disagreement (a piece the
model only slides sideways is a difference of physics, not of what the camera saw)."""
NUDGE_MM_S = 1e-6
"""The tiny downward speed every piece starts with: a body at rest would start asleep."""


@dataclass(frozen=True)
class Reconciled:
    """Located pieces after the model settled them (same order), and the ids of the ones
    the model could not hold where the camera saw them."""

    located: tuple[Located, ...]
    disagreements: tuple[str, ...]


def reconcile(board: Board, params: PhysicsParams, located: Sequence[Located]) -> Reconciled:
    """Settle the seen pieces of ``located`` in the model (the unseen ones at their priors
    hold up what rests on them); see the module's docstring."""
    # unseen pieces stand at their priors: what rests on them must not fall for it
    seen = [(p, p.pose) for p in located if p.pose is not None]
    states = [
        BodyState(
            p.known.id, p.known.color, p.known.shape, pose.x, pose.y,
            math.radians(pose.angle), vy=-NUDGE_MM_S,
        )
        for p, pose in seen
    ]
    if not states:
        return Reconciled(tuple(located), ())
    space, bodies = space_of(board, params, states)
    for _ in range(round(SETTLE_S / params.time_step)):
        space.step(params.time_step)
    settled: dict[str, Located] = {}
    disagreements = []
    for (piece, pose), body in zip(seen, bodies, strict=True):
        if not piece.seen:
            continue
        x, y = body.position
        angle = math.degrees(body.angle)
        moved = math.hypot(x - pose.x, y - pose.y)
        if moved <= SNAP_MM and abs(angle - pose.angle) <= SNAP_DEG:
            settled[piece.known.id] = dataclasses.replace(piece, pose=Pose(x, y, angle))
        elif pose.y - y > DISAGREE_MM:
            disagreements.append(piece.known.id)
    return Reconciled(tuple(settled.get(p.known.id, p) for p in located), tuple(disagreements))
