"""The simulator's true world: the board as it really is, and what its sensors read.

A :class:`TrueWorld` is the physics model (:class:`~firmware_host.model.World`) with its
own parameters (``config/physics/true.yaml``: a real board differs from any model), a
player's hand that never drops exactly where it means to, physics that vary a little from
drop to drop, and the table's sensors seen through a noise layer. Everything random comes
from one seed, so a run is reproduced exactly from it.

For each drop it draws, in this order, from ``random.Random(seed)``: the angle, x and spin
jitter (normal, the profile's standard deviations; x then moved the least so the piece
fits between the walls), the release height (uniform), then the friction and elasticity
spread (a normal relative change of each of the four coefficients). The noise layer draws
from its own ``random.Random(f"{seed}:noise")``. Hub time (microseconds) starts at 0; each
drop is released :data:`PAUSE_US` after the previous one settled.

>>> from firmware_host.config.noise import load_profile
>>> from firmware_host.config.table import load_table
>>> world = TrueWorld(load_table(), load_profile("clean"), seed=7)
>>> drop = world.drop(Color.RED, Shape.SQUARE, x=150.0, angle=0.0)
>>> round(drop.pieces[-1].pose.y), drop.readings.strips.curtain.indices()
(17, (0, 1, 2, 3, 4, 5, 6))
>>> drop.readings == drop.exact   # the clean profile reads exactly what is there
True
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from firmware_host.config.loader import CONFIG_DIR
from firmware_host.config.noise import NoiseProfile
from firmware_host.config.table import Table
from firmware_host.games.dropit.rules.pieces import Color, Piece, Shape
from firmware_host.model import Drop, DropResult, PhysicsParams, World, load_params
from firmware_host.model.space import reach
from firmware_host.sensors import (
    DropReadings,
    EntryGate,
    PieceReader,
    StripModel,
    Trajectory,
)
from simulator.noise import NoiseLayer
from simulator.scene import Scene, watched_drop

TRUE_PARAMS = CONFIG_DIR / "physics" / "true.yaml"
"""The true world's physics, shipped with the project."""

PAUSE_US = 2_000_000
"""Hub time between one drop settling and the next one's release (the next player's turn)."""


@dataclass(frozen=True, slots=True)
class TrueDrop:
    """One drop of the true world: the intended drop, what the hand really did, the
    physics of that drop, the outcome, every piece's true final pose, the sensors'
    exact and noisy readings, the dropped piece's path (release to settle) and every
    piece's pose as the physics ran (:class:`~simulator.scene.Scene`)."""

    intended: Drop
    actual: Drop
    params: PhysicsParams
    result: DropResult
    pieces: tuple[Piece, ...]
    exact: DropReadings
    readings: DropReadings
    trajectory: Trajectory
    scene: Scene


class TrueWorld:
    """The true drop zone of ``table`` with noise ``profile``, reproducible from ``seed``.

    ``params`` defaults to ``config/physics/true.yaml``.
    """

    def __init__(
        self,
        table: Table,
        profile: NoiseProfile,
        seed: int,
        params: PhysicsParams | None = None,
    ) -> None:
        self.table = table
        self.profile = profile
        self.params = params or load_params(TRUE_PARAMS)
        self.world = World(table.board, self.params)
        self.clock_us = 0
        self.drops = 0
        """Drops made so far (across new games): a replayed game restores it."""
        self._rng = random.Random(seed)
        self.noise = NoiseLayer(table, profile.sensors, random.Random(f"{seed}:noise"))
        self._strips = StripModel(table)
        self._gate = EntryGate(table)
        self._reader = PieceReader(table)

    @property
    def pieces(self) -> tuple[Piece, ...]:
        """Every piece on the board, at its true pose."""
        return self.world.pieces

    def clear(self) -> None:
        """Empty the board (a new game); the clocks and random streams carry on."""
        self.world = World(self.table.board, self.params)

    def drop(
        self, color: Color, shape: Shape, x: float, angle: float, piece_id: str | None = None
    ) -> TrueDrop:
        """The player means to drop ``color`` ``shape`` at ``x`` (mm), turned ``angle``
        degrees: the hand jitters, the piece falls and settles, the sensors read it."""
        self.drops += 1
        hand = self.profile.drop
        angle_true = angle + self._rng.gauss(0.0, hand.angle)
        x_true = self._fit(shape, angle_true, x + self._rng.gauss(0.0, hand.x))
        spin = self._rng.gauss(0.0, hand.spin)
        gap = self._rng.uniform(*hand.release_height)
        params = self._spread()
        bottom = reach(self.table.board, shape, math.radians(angle_true))[1]
        base = max(self.table.entry_row, self.world.top())
        intended = Drop(color, shape, x, base + gap - bottom, angle)
        actual = Drop(color, shape, x_true, base + gap - bottom, angle_true, spin=spin)
        result, trajectory, scene = watched_drop(self.world, actual, piece_id, params)
        released = self.clock_us + PAUSE_US
        settled = released + round(result.sim_time_s * 1_000_000)
        self.clock_us = settled
        pieces = self.world.pieces
        exact = DropReadings(
            self._reader.read((color, shape)),
            released,
            self._gate.cuts(shape, trajectory, released),
            settled,
            self._strips.snapshot(pieces),
        )
        readings = DropReadings(
            exact.tag,
            released,
            self.noise.entry(exact.entry, len(self.table.entry_beams), released, settled),
            settled,
            self.noise.snapshot(exact.strips),
        )
        return TrueDrop(
            intended, actual, params, result, pieces, exact, readings, trajectory, scene
        )

    def _fit(self, shape: Shape, angle: float, x: float) -> float:
        """``x`` moved the least so that ``shape`` at ``angle`` fits between the walls."""
        left, _, right, _ = reach(self.table.board, shape, math.radians(angle))
        return min(max(x, -left), self.table.board.width - right)

    def _spread(self) -> PhysicsParams:
        """This drop's physics: the true parameters with the profile's spread drawn."""
        spread = self.profile.physics_spread
        return self.params.spread(self._rng, spread.friction, spread.elasticity)
