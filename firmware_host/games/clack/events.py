"""What happens in a game of Clack!, as events: the game's state is a pure function of them.

Each event has a stable JSON form (``to_json()`` / ``from_json()``) for the journal:

>>> DiscClaimed(round=3, player="ana", disc=17).to_json()
{'type': 'disc_claimed', 'round': 3, 'player': 'ana', 'disc': 17}
>>> read_event({"type": "dice_rolled", "round": 1, "shape": "star", "color": "white"})
DiceRolled(round=1, shape='star', color='white')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from firmware_host.games.clack.discs import ColorFace, ShapeFace
from firmware_host.games.event_json import EventReader, JsonEvent, event_reader

Variant = Literal["race", "turns"]
"""``race``: everyone grabs at once (the base game); ``turns``: the young-children variant."""


@dataclass(frozen=True)
class GameStarted(JsonEvent):
    """A new game: the players in seating order (the first rolls first), the variant, a seed.

    The seed is the one the virtual dice were seeded with, kept so a journal says how its
    rolls came about; the rules themselves draw no random numbers.
    """

    TYPE = "game_started"
    players: tuple[str, ...]
    variant: Variant = "race"
    seed: int = 0


@dataclass(frozen=True)
class DiceRolled(JsonEvent):
    """The roller's throw that opens round ``round`` (1, 2, ...): the two faces that show."""

    TYPE = "dice_rolled"
    round: int
    shape: ShapeFace
    color: ColorFace


@dataclass(frozen=True)
class DiscClaimed(JsonEvent):
    """``player`` grabs disc ``disc`` during round ``round`` (the race only)."""

    TYPE = "disc_claimed"
    round: int
    player: str
    disc: int


ClackEvent = GameStarted | DiceRolled | DiscClaimed
"""Any event of a Clack! game."""

read_event: EventReader[ClackEvent] = event_reader([GameStarted, DiceRolled, DiscClaimed])
"""Read any Clack! event from its JSON form (an ``InputError`` names a malformed key)."""
