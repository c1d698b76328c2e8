"""The dice games the table hosts, by the name ``tabletop run --game`` takes."""

from __future__ import annotations

from firmware_host.dice_games.clack import ClackTable
from firmware_host.dice_games.clever import CleverTable
from firmware_host.dice_games.game import TableGame
from firmware_host.dice_games.gotta2 import Gotta2Table

GAMES: dict[str, type[TableGame]] = {
    ClackTable.KIND: ClackTable,
    CleverTable.KIND: CleverTable,
    Gotta2Table.KIND: Gotta2Table,
}
"""Each dice game's :class:`~firmware_host.dice_games.game.TableGame` class, by its ``KIND``."""
