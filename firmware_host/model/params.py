"""The physical parameters of a drop-zone world, read from ``config/physics/*.yaml``.

A :class:`PhysicsParams` is a frozen value handed to every :class:`~firmware_host.model.World`;
the host's model uses ``config/physics/host.yaml`` and the simulator's "true world" the same
code with other values. Units in the file: mm, seconds, grams, degrees.

>>> params = load_params()
>>> params.gravity, params.settle.cap
(9810.0, 10.0)
"""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field

from firmware_host.config.loader import CONFIG_DIR, StrictModel, load_model

HOST_PARAMS = CONFIG_DIR / "physics" / "host.yaml"
"""The host model's parameters, shipped with the project."""

Positive = Annotated[float, Field(gt=0)]
NonNegative = Annotated[float, Field(ge=0)]


class PairValues(StrictModel):
    """A coefficient for each pair of surfaces: piece on piece, piece on wall or floor.

    Chipmunk multiplies the two shapes' values, so the piece-on-piece value must be > 0 for
    the piece-on-wall value to be reachable.
    """

    piece_piece: Positive
    piece_wall: NonNegative


class PaneDrag(StrictModel):
    """The panes' rub: a drag deceleration against sliding (mm/s^2) and turning (deg/s^2)."""

    linear: NonNegative
    angular: NonNegative


class Settle(StrictModel):
    """Settled: at most ``speed`` (mm/s) for ``time`` (s); give up after ``cap`` (s)."""

    speed: Positive
    time: Positive
    cap: Positive


SPREAD_FLOOR = 0.1
"""A coefficient drawn by :meth:`PhysicsParams.spread` never falls below this fraction of
its value, however wide the spread."""


class PhysicsParams(StrictModel):
    """Every physical value of a world (units in the names' docs and in the file)."""

    version: Literal[1]
    gravity: Positive
    """mm/s^2."""
    density: Positive
    """g/mm^3."""
    thickness: Positive
    """mm between the panes."""
    friction: PairValues
    elasticity: PairValues
    pane_drag: PaneDrag
    rolling_resistance: NonNegative
    """Dimensionless: circles meet a torque of this x weight x radius."""
    time_step: Annotated[float, Field(gt=0, le=0.02)]
    """s."""
    iterations: Annotated[int, Field(ge=1, le=100)]
    collision_slop: NonNegative
    """mm."""
    collision_bias: Annotated[float, Field(gt=0, lt=1)]
    """Fraction of an overlap the solver leaves uncorrected after one second."""
    settle: Settle

    def spread(self, rng: random.Random, friction: float, elasticity: float) -> PhysicsParams:
        """These physics as one drop's wood may differ: each friction coefficient times
        ``max(SPREAD_FLOOR, 1 + N(0, friction))``, each elasticity times the same with
        ``elasticity`` (capped at 1), drawn from ``rng`` in the order friction piece/piece,
        piece/wall, elasticity piece/piece, piece/wall. The simulator's true world draws
        each drop's physics so; the eye draws its candidates' physics so."""

        def vary(value: float, sigma: float, cap: float) -> float:
            return min(cap, value * max(SPREAD_FLOOR, 1.0 + rng.gauss(0.0, sigma)))

        f, e = self.friction, self.elasticity
        return self.model_copy(
            update={
                "friction": PairValues(
                    piece_piece=vary(f.piece_piece, friction, math.inf),
                    piece_wall=vary(f.piece_wall, friction, math.inf),
                ),
                "elasticity": PairValues(
                    piece_piece=vary(e.piece_piece, elasticity, 1.0),
                    piece_wall=vary(e.piece_wall, elasticity, 1.0),
                ),
            }
        )


def load_params(path: Path | str | None = None) -> PhysicsParams:
    """Load and validate a physics file (the host's ``config/physics/host.yaml`` by default)."""
    return load_model(PhysicsParams, path if path is not None else HOST_PARAMS)
