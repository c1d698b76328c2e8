"""The interface between the page and the game: a feed of views and an action sink.

The service (``tabletop run``) implements :class:`GameFeed`: Drop It's controller, or a dice
game's :class:`~firmware_host.service.dice_controller.DiceController`; so does
:class:`~firmware_host.web.demo.DemoFeed`, replaying a recorded game. A feed is of the
game's actions and views, the ones its :class:`~firmware_host.web.frontend.Frontend` reads,
checks and draws; the web server only ever calls these three methods, reads only a
:class:`PageView` of each view, and only hands :meth:`GameFeed.act` actions that the
frontend's check (or the join code / staff PIN) allowed.

:class:`ViewChannel` is the feed half, ready to use: publish each new view, and every
subscriber sees the latest one (a slow client skips views, never lags behind).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Generic, Protocol, TypeVar

from firmware_host.web.actions import Staff

V = TypeVar("V")


class PageView(Protocol):
    """What the web server reads of any game's view (Drop It's
    :class:`~firmware_host.games.dropit.view.DropItView`, a dice game's
    :class:`~firmware_host.web.dice_view.DiceView`): the rest is the
    game's :class:`~firmware_host.web.frontend.Frontend`'s to read."""

    @property
    def game_id(self) -> str:
        """The game the view is of (a join token is for one game)."""
        ...

    @property
    def players(self) -> tuple[str, ...]:
        """The seats a phone may join."""
        ...


ViewT = TypeVar("ViewT", bound=PageView, covariant=True)
ActionT = TypeVar("ActionT", contravariant=True)


class Views(Protocol[ViewT]):
    """A feed of a game's views."""

    def snapshot(self) -> ViewT:
        """The view as it is now."""
        ...

    def updates(self) -> AsyncIterator[ViewT]:
        """Each new view, as it is published (the latest one when several came at once)."""
        ...


class GameFeed(Views[ViewT], Protocol[ActionT, ViewT]):
    """What the web server needs from the running game: its views, and a sink for its
    seats' actions of type ``ActionT`` (the game's :class:`~firmware_host.web.frontend.Frontend`
    reads and checks them) and the staff's."""

    async def act(self, action: ActionT | Staff, seat: str) -> None:
        """Carry out a checked action from ``seat`` (a player's name, or
        :data:`~firmware_host.web.actions.TABLE_SEAT`); raise
        :class:`~firmware_host.errors.IllegalMove` to refuse it (nothing changes)."""
        ...


class ViewChannel(Generic[V]):
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

    def __init__(self, view: V) -> None:
        self._view = view
        self._published = 0
        self._changed = asyncio.Event()

    @property
    def view(self) -> V:
        """The latest view."""
        return self._view

    def publish(self, view: V) -> None:
        """Make ``view`` the latest and wake every subscriber."""
        self._view = view
        self._published += 1
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    def updates(self) -> AsyncIterator[V]:
        """Every view published from now on (the latest, when several came at once)."""
        return self._follow(self._published)

    async def _follow(self, seen: int) -> AsyncIterator[V]:
        while True:
            if self._published == seen:
                await self._changed.wait()
            seen = self._published
            yield self._view
