"""The dice games the table hosts, by the name ``tabletop run --game`` takes.

The page server serves the ``page/`` folder of each game's package (its script and CSS) at
``/static/games/``.
"""

from __future__ import annotations

from firmware_host.games.clack.table import ClackTable
from firmware_host.games.clever.table import CleverTable
from firmware_host.games.gotta2.table import Gotta2Table
from firmware_host.games.table_game import TableGame

GAMES: dict[str, type[TableGame]] = {
    ClackTable.KIND: ClackTable,
    CleverTable.KIND: CleverTable,
    Gotta2Table.KIND: Gotta2Table,
}
"""Each dice game's :class:`~firmware_host.games.table_game.TableGame` class, by its ``KIND``."""


def dice_pages() -> list[tuple[str, str]]:
    """Every dice game's page folder (package, folder), as the page server mounts them: the
    ``page/`` folder beside the game's binding."""
    return [(game.__module__.rpartition(".")[0], "page") for game in GAMES.values()]
