"""What the table service needs from a dice game: the :class:`TableGame` protocol.

A table game is immutable and event-sourced, like the engines it wraps: events are JSON
objects (the engine's ``to_json()`` form, ``"type"`` naming each) and the journal keeps
them. The service drives every game the same way:

1. ``game = Game.replay([Game.first_event(setup)])`` for a new game, or
   ``Game.replay(journaled_events)`` to resume one after a power cut;
2. when :meth:`TableGame.roll` says the game waits for dice and the tray has read every
   die it names at rest after a throw, ``event = game.dice_event(faces)``;
3. when a player's device sends a move, ``event = game.move_event(seat, move)``
   (untrusted JSON: malformed is an :class:`~firmware_host.errors.InputError` naming the
   key, not allowed is an :class:`~firmware_host.errors.IllegalMove` naming the rule);
4. ``game = game.apply(event)`` checks it once more; only then is the event journaled and
   the new :meth:`TableGame.view` published.

Simulated players (``tabletop run --autoplay``, tests) call :meth:`TableGame.auto_move`.

The view (``docs/dice-games.md``) is one JSON object that every device receives::

    {"kind": "clack", "title": "Clack!",
     "players": ["Ann", "Ben"],
     "scores": {"Ann": 3, "Ben": 5}, "score_label": "discs",
     "waiting_for": ["Ann", "Ben"],       # who may send a move now
     "roll": {"dice": [0, 1], "by": "Ann"} | null,   # the throw the game waits for
     "status": "Round 4: claim every red star!",
     "over": false, "winners": [],
     "game": {...}}                         # the game's own part, drawn by its page module

The ``game`` part carries every legal choice each waiting player has, so a page offers
only those; the server still checks every move it receives.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, Self

from firmware_host.i18n import Say

EventJson = dict[str, Any]
"""One event in its journal form: a JSON object whose ``"type"`` names the event."""


@dataclass(frozen=True)
class Setup:
    """How a new game starts: the players in clockwise order (the first one starts), the
    seed (recorded in the first event; it drives the virtual dice and simulated players)
    and the game's variant (``None``: the base game)."""

    players: tuple[str, ...]
    seed: int = 0
    variant: str | None = None


@dataclass(frozen=True)
class Roll:
    """A throw the game waits for: the game's dice ``dice`` (0-based; game die ``d`` is
    the tray's die ``d``), thrown by player ``by``."""

    dice: tuple[int, ...]
    by: str

    def to_json(self) -> dict[str, Any]:
        """``{"dice": [...], "by": name}``."""
        return {"dice": list(self.dice), "by": self.by}


class TableGame(Protocol):
    """One game in progress, as the table service drives it (see the module's docstring)."""

    KIND: ClassVar[str]
    """The game's name: ``tabletop run --game KIND`` and the journal's game kind."""

    TITLE: ClassVar[str]
    """The game's printed name, for the page."""

    VARIANTS: ClassVar[tuple[str, ...]]
    """The variants :class:`Setup` may name (empty: none)."""

    DICE: ClassVar[int]
    """How many of the tray's dice the game uses (0 for a game without dice)."""

    @classmethod
    def first_event(cls, setup: Setup) -> EventJson:
        """The event that starts a new game (raises :class:`ValueError` naming a bad setup:
        too few or too many players, an unknown variant)."""
        ...

    @classmethod
    def replay(cls, events: Sequence[EventJson]) -> Self:
        """The game after ``events`` (the first starts it); a malformed or illegal event is
        an :class:`~firmware_host.errors.InputError` / ``IllegalMove`` naming it."""
        ...

    def apply(self, event: EventJson) -> Self:
        """The game after one more event; raises like :meth:`replay`, ``self`` unchanged."""
        ...

    @property
    def players(self) -> tuple[str, ...]:
        """The players, in seating order."""
        ...

    @property
    def over(self) -> bool:
        """True once the game has ended (the view then names the winners)."""
        ...

    def roll(self) -> Roll | None:
        """The throw the game waits for now, or ``None``."""
        ...

    def dice_event(self, faces: Sequence[int]) -> EventJson:
        """The event for the throw :meth:`roll` asked for: ``faces[i]`` is the face index
        (0-based, as the hub reports it) of die ``roll().dice[i]``."""
        ...

    def move_event(self, seat: str, move: Mapping[str, Any]) -> EventJson:
        """The event for an untrusted ``move`` from player ``seat`` (see each game's docs
        for its moves)."""
        ...

    def auto_move(self, player: str, rng: random.Random) -> Mapping[str, Any] | None:
        """A legal move simulated player ``player`` makes now (the same JSON a page sends),
        or ``None`` when the game waits for no move of theirs."""
        ...

    def view(self, say: Say = str) -> dict[str, Any]:
        """The view every device draws (the module's docstring gives its keys), its words
        said by ``say`` (:meth:`firmware_host.i18n.Translator.say`; English by default)."""
        ...
