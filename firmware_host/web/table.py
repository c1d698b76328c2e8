"""The interface between the page and the game: a feed of views and an action sink.

The service (``tabletop run``) implements :class:`Table`; until it exists,
:class:`~firmware_host.web.demo.DemoTable` does, replaying a recorded game. The web server
only ever calls these three methods, and only hands :meth:`Table.act` actions that
:func:`~firmware_host.web.actions.check_action` (or the join code / staff PIN) allowed.

:class:`ViewChannel` is the feed half, ready to use: publish each new view, and every
subscriber sees the latest one (a slow client skips views, never lags behind).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Protocol

from firmware_host.web.actions import SeatAction, Staff
from firmware_host.web.view import TableView


class Table(Protocol):
    """What the web server needs from the running game."""

    def snapshot(self) -> TableView:
        """The view as it is now."""
        ...

    def updates(self) -> AsyncIterator[TableView]:
        """Each new view, as it is published (the latest one when several came at once)."""
        ...

    async def act(self, action: SeatAction | Staff, seat: str) -> None:
        """Carry out a checked action from ``seat`` (a player's name, or
        :data:`~firmware_host.web.actions.TABLE_SEAT`); raise
        :class:`~firmware_host.errors.IllegalMove` to refuse it (nothing changes)."""
        ...


class ViewChannel:
    """The latest view and a way to wait for the next (use from the event loop's thread).

    >>> import asyncio
    >>> async def demo():
    ...     channel = ViewChannel("v1")
    ...     updates = channel.updates()
    ...     channel.publish("v2")
    ...     return await anext(updates)
    >>> asyncio.run(demo())
    'v2'
    """

    def __init__(self, view: TableView) -> None:
        self._view = view
        self._published = 0
        self._changed = asyncio.Event()

    @property
    def view(self) -> TableView:
        """The latest view."""
        return self._view

    def publish(self, view: TableView) -> None:
        """Make ``view`` the latest and wake every subscriber."""
        self._view = view
        self._published += 1
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    def updates(self) -> AsyncIterator[TableView]:
        """Every view published from now on (the latest, when several came at once)."""
        return self._follow(self._published)

    async def _follow(self, seen: int) -> AsyncIterator[TableView]:
        while True:
            if self._published == seen:
                await self._changed.wait()
            seen = self._published
            yield self._view
