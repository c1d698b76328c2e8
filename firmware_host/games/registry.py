"""Every game the table hosts, by the name ``tabletop run --game`` takes, and what plays it.

A :class:`BoardGame` is played by dropping pieces on the board, seen by the sensors and
the camera and judged by the referee: the service of :mod:`firmware_host.service.runner`
runs it. A :class:`DiceGame` is played with the dice tray and the page: the service of
:mod:`firmware_host.service.dice_runner` runs its
:class:`~firmware_host.games.table_game.TableGame`, and the page server serves the
``page/`` folder of the game's package (its script and CSS) at ``/static/games/``.

>>> sorted(GAMES)
['clack', 'clever', 'dropit', 'gotta2']
>>> GAMES["clever"].page
('firmware_host.games.clever', 'page')
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware_host.games.clack.table import ClackTable
from firmware_host.games.clever.table import CleverTable
from firmware_host.games.gotta2.table import Gotta2Table
from firmware_host.games.table_game import TableGame


@dataclass(frozen=True)
class BoardGame:
    """A game of pieces dropped on the board, judged by the referee from the sensors and
    the camera (the Drop It service, :class:`firmware_host.service.runner.Service`)."""

    name: str
    """``tabletop run --game NAME`` and the journal's game kind."""
    title: str
    """The game's name as players read it."""


@dataclass(frozen=True)
class DiceGame:
    """A dice game: its ``table`` binding, run by the dice service
    (:class:`firmware_host.service.dice_runner.DiceService`)."""

    table: type[TableGame]

    @property
    def name(self) -> str:
        """``tabletop run --game NAME`` and the journal's game kind: the binding's ``KIND``."""
        return self.table.KIND

    @property
    def title(self) -> str:
        """The game's name as players read it: the binding's ``TITLE``."""
        return self.table.TITLE

    @property
    def page(self) -> tuple[str, str]:
        """The package and folder holding the page's ``NAME.js`` and ``NAME.css``: the
        ``page/`` folder beside the binding's module."""
        return self.table.__module__.rpartition(".")[0], "page"


RegisteredGame = BoardGame | DiceGame
"""A game of the registry."""

DEFAULT_GAME = "dropit"
"""The game ``tabletop run`` plays when ``--game`` names none."""

GAMES: dict[str, RegisteredGame] = {
    game.name: game
    for game in (
        BoardGame(DEFAULT_GAME, "Drop It"),
        DiceGame(ClackTable),
        DiceGame(CleverTable),
        DiceGame(Gotta2Table),
    )
}
"""Every game, by its name."""


def dice_pages() -> list[tuple[str, str]]:
    """Every dice game's page folder (package, folder), as the page server mounts them."""
    return [game.page for game in GAMES.values() if isinstance(game, DiceGame)]
