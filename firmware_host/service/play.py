"""What the one service asks of the game it runs: a :class:`Play`.

The service (:class:`firmware_host.service.runner.Service`) does what every game needs
once: it chooses the hub, opens the journal, connects the hub link, serves the page, runs
the simulated players and tells systemd. The rest is the play's, made for the registry's
entry by how the game is played: a board game's (:mod:`.board_play`: the sensors, the
camera, the referee, the LED tracks and the panel) or a dice game's (:mod:`.dice_play`:
the dice tray).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from starlette.applications import Starlette

from firmware_host.i18n import Text
from firmware_host.journal.store import Journal
from firmware_host.link.finding import HubChoice
from firmware_host.link.transport import HubLink
from firmware_host.service.link_watch import LinkListener
from firmware_host.simulation import Players
from firmware_host.web.access import Access
from firmware_host.web.game_feed import PageView, Views

Opener = Callable[[], tuple[Journal, HubChoice | None]]
"""Chooses the hub and opens the journal: the service's, which a play calls once, when it
has checked every setting (so that nothing is opened for a set-up it refuses)."""


class StatusView(PageView, Protocol):
    """A view that says the game's state in one line: Drop It's and a dice game's."""

    @property
    def status(self) -> Text:
        """The game's state in one line (systemd's status)."""
        ...


class Controller(LinkListener, Views[StatusView], Protocol):
    """What the service drives of a play's controller: the hub link's state, and the views
    whose status line systemd is told."""


class Play(Protocol):
    """A game at the table, as the service runs it (see the module's docstring)."""

    @property
    def controller(self) -> Controller:
        """The game's controller."""
        ...

    def app(self, access: Access, simulated: bool, language: str) -> Starlette:
        """The game's page (``simulated``: the page's badge; ``language``: the table's)."""
        ...

    def players(self, hub: HubChoice) -> Players | None:
        """The simulated players at the virtual ``hub`` (None: none can play here)."""
        ...

    async def run(self, link: HubLink, hub: HubChoice) -> None:
        """Play with ``hub``'s events on ``link`` (connected), until cancelled."""
        ...

    def close(self) -> None:
        """Release what the play holds beyond the journal, the link and the hub."""
        ...


async def run_all(tasks: Sequence[asyncio.Task[Any]]) -> None:
    """Await ``tasks`` until every one has ended or one fails, then :func:`cancel` the
    others."""
    try:
        await asyncio.gather(*tasks)
    finally:
        await cancel(tasks)


async def cancel(tasks: Sequence[asyncio.Task[Any]]) -> None:
    """Cancel ``tasks`` and wait until each has ended (what they raise stays theirs)."""
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
