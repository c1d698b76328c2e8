"""Shared set-up for the "Auch schon clever" tests: the reference sheet and short-hands."""

from __future__ import annotations

from functools import cache

from firmware_host.games.clever.events import DiceChosen, DiceRolled, GameStarted, Passed, Use
from firmware_host.games.clever.game import Game
from firmware_host.games.clever.layout import Color, load_layout
from firmware_host.games.clever.sheet import Sheet

# The reference dice (config/games/clever.yaml), face by face:
#   die 0: yellow heart, yellow blue, red candle, green present, blue cupcake, joker
#   die 1: yellow pink, yellow green, red candle, green present, blue donut, joker
#   die 2: yellow heart, red candle, red candle, green present, blue cake, joker
#   die 3: yellow blue, yellow pink, red candle, green present, blue cupcake, blue donut
#   die 4: yellow green, red candle, red candle, green present, blue cake, blue donut


@cache
def sheet() -> Sheet:
    """The reference sheet, loaded once."""
    return Sheet(load_layout())


def new_game(*players: str, first: str | None = None) -> Game:
    """A fresh game of ``players`` (the first one starts unless ``first`` says otherwise)."""
    return Game.start(sheet(), GameStarted(players, first or players[0], seed=0))


def roll(player: str, *shown: str) -> DiceRolled:
    """``player`` rolls and die d shows the face named ``shown[d]`` (e.g. ``"yellow heart"``)."""
    names = [[face.describe() for face in die] for die in sheet().layout.dice]
    return DiceRolled(player, tuple(names[d].index(name) for d, name in enumerate(shown)))


def choose(player: str, color: str, *uses: tuple[str, tuple[int, ...]], bonuses=()) -> DiceChosen:
    return DiceChosen(player, Color(color), tuple(Use(b, d) for b, d in uses), tuple(bonuses))


def passed(player: str) -> Passed:
    return Passed(player)


def play(game: Game, *events) -> Game:
    for event in events:
        game = game.apply(event)
    return game
