"""The dice games the table hosts, by the name ``tabletop run --game`` takes."""

from __future__ import annotations

from firmware_host.tables.clack import ClackTable
from firmware_host.tables.clever import CleverTable
from firmware_host.tables.game import TableGame
from firmware_host.tables.gotta2 import Gotta2Table

GAMES: dict[str, type[TableGame]] = {
    ClackTable.KIND: ClackTable,
    CleverTable.KIND: CleverTable,
    Gotta2Table.KIND: Gotta2Table,
}
"""Each dice game's :class:`~firmware_host.tables.game.TableGame` class, by its ``KIND``."""
