"""Drop It at the table: the pure half of its binding, what the table's service asks of the game.

The service of :mod:`firmware_host.service.board_play` runs it with the sensors, the camera,
the referee, the LED tracks, the panel's buttons and the page; everything here is pure
(the game's events, state and view, no hardware): :class:`DropItTable` names the game and
starts it.

>>> from firmware_host.config.board import EdgeFace
>>> started = DropItTable.first_event(("Ann", "Ben"), EdgeFace.COLOR, jokers=True)
>>> [c.name for c in started.competitors], started.teams
(['Ann', 'Ben'], False)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from firmware_host.config.board import EdgeFace
from firmware_host.games.dropit.events import GameStarted
from firmware_host.games.dropit.lineup import Competitor, Variants, deal_colors


class DropItTable:
    """Drop It as the registry and the service know it (see the module's docstring)."""

    KIND: ClassVar[str] = "dropit"
    """``tabletop run --game KIND`` and the journal's game kind."""

    TITLE: ClassVar[str] = "Drop It"
    """The game's printed name."""

    @staticmethod
    def first_event(players: Sequence[str], edges: EdgeFace, jokers: bool) -> GameStarted:
        """The set-up event of a new game of ``players`` (one each, colours dealt), played
        with the ``edges`` face and with or without jokers."""
        colors = deal_colors([None] * len(players))
        competitors = tuple(
            Competitor(name, (name,), dealt) for name, dealt in zip(players, colors, strict=True)
        )
        return GameStarted(competitors, False, Variants(edges, jokers))
