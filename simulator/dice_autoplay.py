"""Simulated players for a dice game: they throw the simulator's dice and make legal moves.

Each pause lasts about ``think`` seconds of the injected clock (drawn from the seed): then
the roller throws if the game waits for dice, or the waiting players move in a random order,
each choosing with :meth:`~firmware_host.games.table_game.TableGame.auto_move`. With several
players waiting at once (a race), they move in the order the seed draws, as if one were
quicker than the others. Each choice is a function of the seed and the game's position (its
journal id and event count), not of a running random stream: the same seed makes the same
choices however long the dice took to land, and a game resumed after a power cut goes on
as it would have.
"""

from __future__ import annotations

import logging
import random

from firmware_host.errors import IllegalMove, InputError
from firmware_host.logs import event
from firmware_host.outputs.clock import Clock
from firmware_host.service.dice_controller import DiceController

log = logging.getLogger("firmware_host.service")

THINK_SECONDS = 1.5
"""A simulated player's usual pause before a move or a throw (seconds)."""


class DicePlayers:
    """The players of ``table``'s game, all simulated (the table must have virtual dice)."""

    def __init__(
        self, table: DiceController, seed: int, clock: Clock, think: float = THINK_SECONDS
    ) -> None:
        if table.thrower is None:
            raise ValueError("simulated players need the simulator's dice")
        self.table = table
        self.clock = clock
        self.think = think
        self.seed = seed
        self._pauses = random.Random(seed)
        self._thrown_at: tuple[int, int] | None = None

    async def play(self) -> None:
        """Play until the game is over (a new game after a staff abort is played too)."""
        while not self.table.finished:
            await self.clock.sleep(self.think * self._pauses.uniform(0.5, 1.5))
            self.step()

    def step(self) -> None:
        """One round of decisions: throw the dice, or let each waiting player move."""
        table = self.table
        if not table.snapshot().link_up:
            return  # like players at a paused table: wait for the hub
        if table.game.roll() is not None:
            at = (table.game_id, table.events)
            if at != self._thrown_at:  # once: the hub resends its reports until acked
                self._thrown_at = at
                table.throw()
            return
        # each move is decided from the position alone (never from what this round of
        # decisions did before it): a game resumed after a power cut in the middle of one
        # goes on exactly as the uninterrupted game did
        for _ in range(len(table.snapshot().waiting_for)):
            waiting = list(table.snapshot().waiting_for)
            moved = False
            for player in self._drawn(table).sample(waiting, len(waiting)):
                move = table.game.auto_move(player, self._drawn(table, player))
                if move is None:
                    continue
                try:
                    table.play(player, move)
                except (IllegalMove, InputError) as exc:
                    event(
                        log,
                        "simulated move refused",
                        logging.WARNING,
                        player=player,
                        problem=str(exc),
                    )
                    continue
                moved = True
                break
            if not moved:
                return

    def _drawn(self, table: DiceController, player: str = "") -> random.Random:
        """The generator of a decision: a function of the seed and the game's position, so
        a game resumed after a power cut goes on as it would have."""
        return random.Random(f"{self.seed}:{table.game_id}:{table.events}:{player}")
