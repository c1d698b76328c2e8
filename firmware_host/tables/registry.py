"""The dice games the table hosts, by the name ``tabletop run --game`` takes."""

from __future__ import annotations

from firmware_host.tables.clever import CleverTable
from firmware_host.tables.game import TableGame

GAMES: dict[str, type[TableGame]] = {CleverTable.KIND: CleverTable}
"""Each dice game's :class:`~firmware_host.tables.game.TableGame` class, by its ``KIND``."""
