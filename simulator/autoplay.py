"""Simulated players: they play the game through the same actions as the page.

Each player selects a shape (``act(Select)``), confirms it (``act(Confirm)``), thinks for
a moment on the service's clock and lets the piece go through a :class:`Hand` (the
simulator's). A joker is spent when it saves at least :data:`JOKER_WORTH` points; a
question from the referee is answered honestly (the hand knows the truth). After a drop
the referee could not judge, simulated staff confirm the board as it truly lies.

Every choice is a function of the seed and the turn, not of a running random stream: a
game resumed after a power cut plays on exactly as it would have without the cut.

* the shape: the four-player order of :mod:`firmware_host.model.supply` when the player
  has that shape, else the first shape left in their supply;
* the angle (uniform in [0, 360)) and then x (uniform where the turned shape fits
  between the walls), from ``random.Random(f"{seed}:{turn}")``.

>>> from firmware_host.config.board import load_board
>>> from firmware_host.games.dropit.rules.pieces import Shape
>>> aim(load_board(), 7, 1, Shape.SQUARE) == aim(load_board(), 7, 1, Shape.SQUARE)
True
"""

from __future__ import annotations

import logging
import math
import random
from typing import Protocol

from firmware_host.config.board import Board
from firmware_host.errors import IllegalMove
from firmware_host.games.dropit.actions import Answer, Confirm, Joker, Select
from firmware_host.games.dropit.rules.pieces import Color, Piece, Shape
from firmware_host.logs import event
from firmware_host.model.space import reach
from firmware_host.model.supply import supply_piece
from firmware_host.outputs.clock import Clock
from firmware_host.service.controller import DropItController, Phase
from firmware_host.service.options import THINK_SECONDS
from firmware_host.service.referee import Asked

log = logging.getLogger("firmware_host.service.autoplay")

JOKER_WORTH = 2
"""A simulated player spends a joker on a drop worth at least this many points."""


class Hand(Protocol):
    """What lets a simulated piece go, and knows the truth about the board."""

    async def drop(self, turn: int, color: Color, shape: Shape, x: float, angle: float) -> None:
        """Let ``color`` ``shape`` go at ``x`` (mm), turned ``angle`` degrees, in ``turn``."""
        ...

    def truth(self, question: Asked) -> bool:
        """The honest answer to the referee's yes/no ``question`` about the last drop."""
        ...

    def board(self) -> tuple[Piece, ...]:
        """Every piece as it truly lies, named as the game names them, the latest drop
        last (what staff confirm after a drop the referee could not judge)."""
        ...


def aim(board: Board, seed: int, turn: int, shape: Shape) -> tuple[float, float]:
    """The ``x`` and angle a simulated player aims ``shape`` at in ``turn``."""
    rng = random.Random(f"{seed}:{turn}")
    angle = rng.uniform(0.0, 360.0)
    left, _, right, _ = reach(board, shape, math.radians(angle))
    return rng.uniform(-left, board.width - right), angle


class AutoPlayers:
    """Plays every seat of ``table``'s game with ``hand``, pausing ``think`` clock seconds."""

    def __init__(
        self,
        table: DropItController,
        hand: Hand,
        seed: int,
        clock: Clock,
        think: float = THINK_SECONDS,
        *,
        answers: bool = True,
    ) -> None:
        self.table = table
        self.hand = hand
        self.seed = seed
        self.clock = clock
        self.think = think
        self.answers = answers
        """Whether the simulated players answer the referee's questions (False: people
        answer on the page or with the buttons)."""

    def choose(self) -> tuple[Color, Shape]:
        """The shape the current player drops now."""
        state = self.table.state
        turn = state.current
        if turn is None:
            raise IllegalMove("the game is over")
        supply = state.standing(turn.competitor.name).supply
        preferred = supply_piece(turn.number - 1)
        if supply.count(*preferred):
            return preferred
        color, shape, _ = next(iter(supply))
        return color, shape

    async def play(self) -> None:
        """Play until the game is over."""
        updates = self.table.updates()
        dropped: tuple[int, int] | None = None
        while not self.table.finished:
            table = self.table
            if table.paused is None:
                if table.phase is Phase.JOKER:
                    drop = table.state.drops[-1]
                    spend = drop.ruling.full_points >= JOKER_WORTH
                    await table.act(Joker(type="joker", spend=spend), drop.player)
                    continue
                asked, question = table.asked, table.question
                if self.answers and table.phase is Phase.QUESTION and asked and question:
                    await self.clock.sleep(self.think / 2)
                    if asked.options:
                        color, shape = self.choose()
                        action: Select | Answer = Select(type="select", color=color, shape=shape)
                    else:
                        yes = self.hand.truth(asked)
                        action = Answer(type="answer", question=question.id, yes=yes)
                    await table.act(action, question.player)
                    continue
                turn = table.state.current
                if table.phase is Phase.SELECT and turn is not None:
                    attempt = (turn.number, table.mishaps)
                    if attempt != dropped:
                        if dropped is not None and dropped[0] == turn.number:
                            event(log, "staff confirm the board", turn=turn.number)
                            table.confirm_board(self.hand.board())
                            continue
                        dropped = attempt
                        await self._drop(turn.number, turn.player)
                        continue
            await anext(updates)

    async def _drop(self, turn: int, player: str) -> None:
        color, shape = self.choose()
        await self.table.act(Select(type="select", color=color, shape=shape), player)
        await self.table.act(Confirm(type="confirm"), player)
        await self.clock.sleep(self.think)
        x, angle = aim(self.table.board, self.seed, turn, shape)
        event(
            log,
            "autoplay drop",
            turn=turn,
            player=player,
            piece=f"{color} {shape}",
            x=round(x, 1),
            angle=round(angle),
        )
        await self.hand.drop(turn, color, shape, x, angle)
