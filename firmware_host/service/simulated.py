"""The simulator in the service's process: a true world the autoplay hand drops into.

:class:`SimulatedTable` is the :class:`~firmware_host.service.autoplay.Hand` of the
simulated players: each drop happens in the simulator's
:class:`~simulator.true_world.TrueWorld` (in a worker thread: physics must not stall the
event loop) and its noisy :class:`~firmware_host.sensors.drop.DropReadings` go to the
service's drop feed, exactly as the hub's assembled readings would.

A resumed game needs the true board back: :meth:`SimulatedTable.replay` drops the
journaled turns again with the autoplay players' aims. The true world is seeded and
deterministic, so it comes back bit for bit, its random streams included.

:class:`TruthReferee` referees a drop from the true world's final poses. It stands in for
the referee's eye (``firmware_host/eye``) on the simulator and never runs with a real hub.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable

from firmware_host.config.noise import NoiseProfile
from firmware_host.config.table import Table
from firmware_host.games.dropit.gamefile import piece_id
from firmware_host.games.dropit.state import Drop
from firmware_host.rules.pieces import Color, Piece, Shape
from firmware_host.sensors.drop import DropReadings
from firmware_host.service.autoplay import aim
from firmware_host.service.referee import Asked, Identity, Landed, Mishap, MishapKind, Outcome
from simulator.true_world import TrueWorld

Feed = Callable[[DropReadings], Awaitable[None]]
"""Where a drop's readings go (the service's drop feed)."""


class SimulatedTable:
    """A simulated table for ``table`` with noise ``profile``, reproducible from ``seed``."""

    def __init__(self, table: Table, profile: NoiseProfile, seed: int) -> None:
        self.world = TrueWorld(table, profile, seed)
        self.seed = seed
        self.feed: Feed | None = None

    @property
    def pieces(self) -> tuple[Piece, ...]:
        """Every piece at its true pose."""
        return self.world.pieces

    def replay(self, drops: Iterable[Drop]) -> None:
        """Drop ``drops`` (a resumed game's) again, aimed as the simulated players aimed."""
        for drop in drops:
            piece = drop.piece
            x, angle = aim(self.world.table.board, self.seed, drop.turn, piece.shape)
            self.world.drop(piece.color, piece.shape, x, angle, piece.id)

    async def drop(self, turn: int, color: Color, shape: Shape, x: float, angle: float) -> None:
        """Drop the piece of ``turn`` in the true world and feed its readings."""
        done = await asyncio.to_thread(self.world.drop, color, shape, x, angle, piece_id(turn))
        if self.feed is not None:
            await self.feed(done.readings)

    def board(self) -> tuple[Piece, ...]:
        """Every piece at its true pose (already named as the game names them)."""
        return self.world.pieces

    def truth(self, question: Asked) -> bool:
        """The truth referee never asks; an honest player says yes to a resting piece."""
        return True


class TruthReferee:
    """Referees from the simulated table's true poses (a stand-in for the eye)."""

    def __init__(self, table: SimulatedTable) -> None:
        self.table = table

    def look(
        self,
        pieces: tuple[Piece, ...],
        identity: Identity | None,
        readings: DropReadings,
        piece_id: str,
        options: tuple[Identity, ...] = (),
    ) -> Outcome:
        """The true board, the dropped piece last."""
        truth = self.table.pieces
        if not truth or truth[-1].id != piece_id:
            return Mishap(MishapKind.DISAGREES, f"the simulator has no piece {piece_id}")
        return Landed(truth)

    def answer(self, yes: bool) -> Outcome:
        """Never asked."""
        return Mishap(MishapKind.DISAGREES, "the truth referee asks no questions")

    def choose(self, color: Color, shape: Shape) -> Outcome:
        """Never asked."""
        return Mishap(MishapKind.DISAGREES, "the truth referee asks no questions")
