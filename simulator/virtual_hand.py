"""The simulated players' hand on the virtual hub: drops go into the simulator's true
world, and the host learns of them only through the hub's events on the wire.

:class:`VirtualHand` lets a piece go through
:meth:`simulator.hub.VirtualHub.drop` and answers the referee's questions as an honest
player looking at the board would: from the true world's poses, judged like any landing
(the true world names its pieces ``p<k>``; the game names the piece of turn ``k``
``t<k>``). :meth:`VirtualHand.replay` puts a resumed game's pieces back into a fresh true
world, aimed as the simulated players aimed: the true world is seeded and deterministic,
so it comes back exactly as it was, its random streams included.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import replace

from firmware_host.config.board import EdgeFace
from firmware_host.eye.questions import features
from firmware_host.games.dropit.gamefile import piece_id
from firmware_host.games.dropit.rules.landing import judge
from firmware_host.games.dropit.rules.pieces import Color, Piece, Shape
from firmware_host.games.dropit.rules.position import Position
from firmware_host.games.dropit.state import Drop
from firmware_host.outputs.clock import Clock
from firmware_host.service.controller import DropItController
from firmware_host.service.referee import Asked
from simulator.autoplay import AutoPlayers, aim
from simulator.hub import VirtualHub


class VirtualHand:
    """Drops into ``hub``'s true world; the game's edges face is ``edges``."""

    def __init__(self, hub: VirtualHub, seed: int, edges: EdgeFace) -> None:
        self.hub = hub
        self.seed = seed
        self.edges = edges

    def replay(self, drops: Iterable[Drop]) -> None:
        """Drop a resumed game's ``drops`` into the true world again (before the host
        connects: the hub reports the board as it is once the next piece falls)."""
        for drop in drops:
            piece = drop.piece
            x, angle = aim(self.hub.table.board, self.seed, drop.turn, piece.shape)
            self.hub.world.drop(piece.color, piece.shape, x, angle)

    async def drop(self, turn: int, color: Color, shape: Shape, x: float, angle: float) -> None:
        """Let the piece of ``turn`` go (the physics runs in a worker thread)."""
        await asyncio.to_thread(self.hub.drop, color, shape, x, angle)

    def players(
        self, table: DropItController, clock: Clock, think: float, *, answers: bool
    ) -> AutoPlayers:
        """Players of every seat of ``table``'s game, dropping with this hand."""
        return AutoPlayers(table, self, self.seed, clock, think, answers=answers)

    def board(self) -> tuple[Piece, ...]:
        """Every piece at its true pose, named as the game names them."""
        return tuple(_game_named(p) for p in self.hub.world.pieces)

    def truth(self, question: Asked) -> bool:
        """The honest answer to a yes/no question about the latest drop."""
        pieces = self.board()
        if not pieces:
            return False
        dropped, others = pieces[-1], pieces[:-1]
        verdict = judge(self.hub.table.board, Position(self.edges, others, dropped))
        return features(verdict, others).get(question.key, False)


def _game_named(piece: Piece) -> Piece:
    """The true world's ``p<k>`` is the game's ``t<k>``."""
    return replace(piece, id=piece_id(int(piece.id.removeprefix("p"))))
