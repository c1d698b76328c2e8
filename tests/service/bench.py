"""A bench for the turn flow's tests: the simulator's true world in the test's process,
with no hub, no link and no eye between the drop and the controller.

:class:`SimulatedTable` is a :class:`~simulator.autoplay.Hand`: each drop happens in the
simulator's :class:`~simulator.true_world.TrueWorld` (in a worker thread) and its readings
go straight to the controller. :class:`Bench` holds a journaled game on
it, refereed by :class:`TruthReferee` from the true poses.

A resumed game needs the true board back: :meth:`SimulatedTable.replay` drops the
journaled turns again with the autoplay players' aims. The true world is seeded and
deterministic, so it comes back bit for bit, its random streams included.

The service itself runs the virtual hub and the eye (tests/service/test_whole_game.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path

from firmware_host.config.noise import NoiseProfile, load_profile
from firmware_host.config.table import Table, load_table
from firmware_host.games.dropit.actions import Select
from firmware_host.games.dropit.gamefile import piece_id
from firmware_host.games.dropit.rules.pieces import Color, Piece, Shape
from firmware_host.games.dropit.state import Drop
from firmware_host.journal.dropit import DropItRecord, resume
from firmware_host.journal.store import Journal
from firmware_host.outputs.clock import Clock
from firmware_host.panel.buttons import Action as Button
from firmware_host.sensors.drop import DropReadings
from firmware_host.service.clock import SimulatedClock
from firmware_host.service.controller import DropItController, Phase
from firmware_host.service.options import Options
from firmware_host.service.referee import Asked, Identity, Landed, Mishap, MishapKind, Outcome
from firmware_host.service.track_log import LoggedTracks
from simulator.autoplay import AutoPlayers, aim
from simulator.true_world import TrueWorld
from tests.service.support import first_event

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


class Bench:
    """A game journaled in ``journal`` (resumed if unfinished), played on a
    :class:`SimulatedTable` with clean noise from ``seed``, refereed from the truth."""

    def __init__(self, journal: Path, seed: int = 5, clock: Clock | None = None) -> None:
        table = load_table()
        self.seed = seed
        self.clock = clock or SimulatedClock()
        self.journal = Journal(journal)
        self.resumed = resume(self.journal)
        game = self.resumed or DropItRecord.start(self.journal, first_event(Options(journal)))
        self.simulator = SimulatedTable(table, load_profile("clean"), seed)
        self.simulator.replay(game.state.drops)
        self.tracks = LoggedTracks(len(game.state.standings), self.clock)
        self.controller = DropItController(
            table.board, game, TruthReferee(self.simulator), tracks=self.tracks
        )
        self.simulator.feed = self.controller.dropped

    async def drop_turn(self) -> None:
        """The current player (declining a joker on offer) selects, confirms and drops."""
        table = self.controller
        if table.phase is Phase.JOKER:
            await table.press(Button.ANSWER_NO)
        turn = table.state.current
        color, shape = AutoPlayers(table, self.simulator, self.seed, self.clock).choose()
        await table.act(Select(type="select", color=color, shape=shape), turn.player)
        await table.press(Button.CONFIRM)
        x, angle = aim(table.board, self.seed, turn.number, shape)
        await self.simulator.drop(turn.number, color, shape, x, angle)

    def close(self) -> None:
        """Close the journal."""
        self.journal.close()
