"""Seeded random Clack! players for the tests: they choose among the moves the engine offers."""

from __future__ import annotations

import random

from firmware_host.games.clack.arbiter import Arbiter
from firmware_host.games.clack.dice import VirtualDice
from firmware_host.games.clack.discs import DiscSet
from firmware_host.games.clack.events import DiscClaimed, GameStarted


def play_game(discs: DiscSet, started: GameStarted, blunder: float = 0.1) -> Arbiter:
    """Play a whole game through an arbiter; now and then a player grabs a wrong disc."""
    table = Arbiter(discs, started)
    dice = VirtualDice(discs, started.seed)
    choose = random.Random(started.seed + 1)
    for _ in range(10_000):
        game = table.game
        if game.over:
            return table
        if game.awaiting_roll:
            assert table.submit(dice.roll(game.round + 1)).accepted
            continue
        player = choose.choice(game.players)
        pool = game.table if choose.random() < blunder else game.legal_claims()
        decision = table.submit(DiscClaimed(game.round, player, choose.choice(pool)))
        assert decision.accepted, decision.message
    raise AssertionError("the game did not end in 10 000 moves")
