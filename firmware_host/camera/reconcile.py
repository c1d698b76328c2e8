"""Located poses checked against the pymunk model: a settled board rests on what holds it.

The located pieces are put into the host's physics model (:mod:`firmware_host.model`) at
their poses, awake (the unseen ones at their priors, to hold up what rests on them), and
the model runs for :data:`SETTLE_S` of simulated time. A piece that falls farther than
:data:`DISAGREE_MM` there, and again with every other piece fixed where the camera saw it,
is a *disagreement*: the camera sees it where nothing can hold it (floating, or through
what should carry it), which the referee hears about. (With the pile free alone, a
wedge the model lets open by a few hundredths of a millimetre drops what it held: on 400
realistic scenes, 2 of the 4 pieces located within 0.5 mm that the model could not hold;
the 2 located 3-8 mm off still disagree with the others fixed.) A newly
dropped piece (no prior, or only a guessed one) has just come to rest, so it disagrees
from :data:`NEW_PIECE_MM` on: a fit that sat on the far edge of a rim on one side while
the other side was hidden or crossed by the pane's print places it a few millimetres off
with tight residuals, and floating above what holds it is how that shows.

The poses themselves stay the camera's. Measured, not assumed: the model lets resting
shapes overlap by its collision slop (0.1 mm), so a stack settles 0.1 mm lower per level,
and its friction is not the board's, so a piece the board holds may slide in it; snapping
the located poses to the settled ones made them worse (docs/camera.md).

>>> from firmware_host.camera.locate import Known, Located
>>> from firmware_host.config.board import load_board
>>> from firmware_host.model import load_params
>>> from firmware_host.games.dropit.rules.pieces import Color, Pose, Shape
>>> resting = Located(Known("p1", Color.RED, Shape.SQUARE), Pose(150.0, 17.1, 0.0), True,
...                   (0.05, 0.05, 0.1))
>>> floating = Located(Known("p2", Color.BLUE, Shape.SQUARE), Pose(50.0, 40.0, 0.0), True,
...                    (0.05, 0.05, 0.1))
>>> disagreements(load_board(), load_params(), [resting, floating])
('p2',)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pymunk

from firmware_host.camera.locate import Located
from firmware_host.config.board import Board
from firmware_host.model import PhysicsParams
from firmware_host.model.space import BodyState, add_fixed_piece, space_of

SETTLE_S = 0.12
"""Simulated seconds the model runs from the located poses (a 1 mm gap closes in 15 ms)."""
DISAGREE_MM = 3.0
"""A piece that falls farther than this in the model is a disagreement (a piece the
model only slides sideways is a difference of physics, not of what the camera saw; a
piece inside the pile that the board's friction holds may slide down a little in the
model's)."""
NEW_PIECE_MM = 1.5
"""A newly dropped piece that falls farther than this is a disagreement. Measured on the
virtual camera (seed 1): of the dropped pieces located within 0.5 mm, 2 of 293 realistic
and 0 of 109 harsh scenes fall farther; of those located 1 mm or more off, 2 of 2 and 5
of 8 do (at :data:`DISAGREE_MM`, 1 of 2 and 2 of 8)."""
FLOOR_CONTACT_MM = 0.02
"""A piece the model brought to rest with its lowest point this close above the floor (or
into it, by up to the collision slop) rests on the floor."""
NUDGE_MM_S = 1e-6
"""The tiny downward speed every piece starts with: a body at rest would start asleep."""


def disagreements(
    board: Board, params: PhysicsParams, located: Sequence[Located]
) -> tuple[str, ...]:
    """The ids of the seen pieces the model cannot hold where the camera saw them: falling
    farther than :data:`DISAGREE_MM` (:data:`NEW_PIECE_MM` for a newly dropped piece) with
    the whole board free to move, and again with everything else held where it was seen."""
    # unseen pieces stand at their priors: what rests on them must not fall for it
    placed = [p for p in located if p.pose is not None]
    states = _states(placed)
    if not states:
        return ()
    space, bodies = space_of(board, params, states)
    _settle(space, params)
    return tuple(
        piece.known.id
        for i, (piece, state, body) in enumerate(zip(placed, states, bodies, strict=True))
        if piece.seen
        and state.y - body.position.y > _allowed_fall(piece)
        and _fall_alone(board, params, states, i) > _allowed_fall(piece)
    )


def settles_on_floor(
    board: Board, params: PhysicsParams, located: Sequence[Located], piece_id: str
) -> bool:
    """Whether the model, every other piece fixed where the camera saw it (an unseen one at
    its prior), brings piece ``piece_id`` to rest on the floor: its lowest point within
    :data:`FLOOR_CONTACT_MM` of it (nothing else holds it up).

    >>> from firmware_host.camera.locate import Known
    >>> from firmware_host.config.board import load_board
    >>> from firmware_host.model import load_params
    >>> from firmware_host.games.dropit.rules.pieces import Color, Pose, Shape
    >>> low = Located(Known("p1", Color.RED, Shape.SQUARE), Pose(150.0, 17.4, 0.0), True)
    >>> settles_on_floor(load_board(), load_params(), [low], "p1")
    True
    """
    states = _states(located)
    free = next((i for i, s in enumerate(states) if s.id == piece_id), None)
    if free is None:
        return False
    body = _settled_alone(board, params, states, free)
    bottom = min(shape.bb.bottom for shape in body.shapes)
    return bottom <= FLOOR_CONTACT_MM


def _states(located: Sequence[Located]) -> list[BodyState]:
    """The model's bodies of the pieces of ``located`` that have a pose, where the camera
    saw them (an unseen one at its prior), each nudged downwards."""
    return [
        BodyState(
            p.known.id, p.known.color, p.known.shape, p.pose.x, p.pose.y,
            math.radians(p.pose.angle), vy=-NUDGE_MM_S,
        )
        for p in located
        if p.pose is not None
    ]


def _fall_alone(
    board: Board, params: PhysicsParams, states: Sequence[BodyState], free: int
) -> float:
    """How far (mm) piece ``free`` of ``states`` falls with every other piece fixed where
    it is: the model's pile may give way where the board's friction holds it (a wedge
    opens by a few hundredths of a millimetre and what it held drops through), which is a
    difference of physics, not of what the camera saw."""
    return states[free].y - _settled_alone(board, params, states, free).position.y


def _settled_alone(
    board: Board, params: PhysicsParams, states: Sequence[BodyState], free: int
) -> pymunk.Body:
    """The free piece's body in the model with piece ``free`` of ``states`` free and every
    other fixed, run for :data:`SETTLE_S`."""
    space, (body,) = space_of(board, params, [states[free]])
    for i, state in enumerate(states):
        if i != free:
            add_fixed_piece(space, board, params, state)
    _settle(space, params)
    return body


def _settle(space: pymunk.Space, params: PhysicsParams) -> None:
    for _ in range(round(SETTLE_S / params.time_step)):
        space.step(params.time_step)


def _allowed_fall(piece: Located) -> float:
    """How far (mm) ``piece`` may fall in the model and still agree with the camera."""
    new = piece.known.prior is None or piece.known.guessed
    return NEW_PIECE_MM if new else DISAGREE_MM
