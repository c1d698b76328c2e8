"""Every game the table hosts, by the name ``tabletop run --game`` takes, and what plays it.

Each entry holds the game's binding to the table (its package's ``table`` module), which
names it, and says how the game is played: a :class:`BoardGame` by dropping pieces on the
board, seen by the sensors and the camera and judged by the referee; a :class:`DiceGame`
with the dice tray and the page. The one service (:mod:`firmware_host.service.runner`)
runs either, and the page server serves the ``page/`` folder of every game's package at
``/static/games/``.

>>> sorted(GAMES)
['clack', 'clever', 'dropit', 'gotta2']
>>> GAMES["clever"].page
('firmware_host.games.clever', 'page')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Generic, Protocol, TypeVar

from firmware_host.games.clack.table import ClackTable
from firmware_host.games.clever.table import CleverTable
from firmware_host.games.dropit.table import DropItTable
from firmware_host.games.gotta2.table import Gotta2Table
from firmware_host.games.table_game import TableGame


class Bound(Protocol):
    """What the registry reads of a game's binding to the table: its name and title."""

    KIND: ClassVar[str]
    TITLE: ClassVar[str]


B = TypeVar("B", bound=Bound)


@dataclass(frozen=True)
class Registered(Generic[B]):
    """A game of the registry: its ``table`` binding, which names it; its package's
    ``page/`` folder holds its page's files."""

    table: type[B]

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
        """The package and folder holding the page's files (``NAME.js``, ``NAME.css``, and a
        board game's ``NAME.html``): the ``page/`` folder beside the binding's module."""
        return self.table.__module__.rpartition(".")[0], "page"


class BoardGame(Registered[DropItTable]):
    """A game of pieces dropped on the board, judged by the referee from the sensors and
    the camera: the service plays it with :mod:`firmware_host.service.board_play`."""


class DiceGame(Registered[TableGame]):
    """A dice game, played with the dice tray and the page: the service plays its
    :class:`~firmware_host.games.table_game.TableGame` with
    :mod:`firmware_host.service.dice_play`."""


RegisteredGame = BoardGame | DiceGame
"""A game of the registry."""

DEFAULT_GAME = DropItTable.KIND
"""The game ``tabletop run`` plays when ``--game`` names none."""

GAMES: dict[str, RegisteredGame] = {
    game.name: game
    for game in (
        BoardGame(DropItTable),
        DiceGame(ClackTable),
        DiceGame(CleverTable),
        DiceGame(Gotta2Table),
    )
}
"""Every game, by its name."""


def pages() -> list[tuple[str, str]]:
    """Every game's page folder (package, folder), as the page server mounts them."""
    return [game.page for game in GAMES.values()]
