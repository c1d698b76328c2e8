"""Players that choose at random among the legal moves, for the simulator and the tests.

A random player picks a colour area it can use, keeps crossing a random legal symbol with
its dice until none is left, then spends its bonus crosses at random. :func:`play` runs a
whole game with virtual dice and returns its journal of events.

>>> from firmware_host.games.clever.layout import load_layout
>>> from firmware_host.games.clever.sheet import Sheet
>>> sheet = Sheet(load_layout())
>>> events = play(sheet, ("Ann", "Ben"), seed=3)
>>> Game.replay(sheet, events).over
True
"""

from __future__ import annotations

import random

from firmware_host.games.clever.dice import VirtualDice
from firmware_host.games.clever.events import DiceChosen, Event, GameStarted, Passed
from firmware_host.games.clever.game import Game, Phase
from firmware_host.games.clever.sheet import Sheet

MAX_EVENTS = 10_000
"""A safety bound on a game's length: far beyond any real game."""


def choose(game: Game, player: str, rng: random.Random) -> DiceChosen | Passed:
    """A random legal choice for ``player`` (who must be among ``game.waiting_for``)."""
    colors = game.colors(player)
    if not colors:
        return Passed(player)
    draft = game.draft(player, rng.choice(colors))
    while options := draft.use_options():
        draft = draft.use(rng.choice(options))
    while bonuses := draft.bonus_options():
        draft = draft.bonus(rng.choice(bonuses))
    return draft.event()


def play(sheet: Sheet, players: tuple[str, ...], seed: int) -> list[Event]:
    """A whole game between random players with virtual dice seeded by ``seed``."""
    rng = random.Random(seed)
    start = GameStarted(players, players[0], seed)
    dice = VirtualDice(sheet.layout, seed)
    game = Game.start(sheet, start)
    events: list[Event] = [start]
    while not game.over:
        if len(events) > MAX_EVENTS:
            raise RuntimeError(f"game with seed {seed} did not end in {MAX_EVENTS} events")
        if game.phase is Phase.ROLL or game.must_reroll:
            event: Event = dice.roll(game.starter)
        else:
            event = choose(game, game.waiting_for[0], rng)
        game = game.apply(event)
        events.append(event)
    return events
