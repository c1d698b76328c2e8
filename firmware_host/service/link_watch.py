"""Pausing the game while the hub is away: the hub link's state, brought to the controller.

:class:`~firmware_host.link.transport.HubLink` reports ``up`` (after every hello),
``down`` (link lost, port gone) and ``error`` (say, a protocol version mismatch) on its
reader thread. :class:`LinkWatch` hands each report to the event loop, where the
controller pauses the game (``down``/``error``: a clear message in the log, on the page
and in the status) or carries on where it was (``up``; the LED tracks are drawn again,
since the hub may have put its strips to idle while it was away).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, Protocol

from firmware_host.config.table import Table
from firmware_host.i18n import Text
from firmware_host.link.inventory import inventory_mismatch
from firmware_host.logs import event

log = logging.getLogger("firmware_host.service")


Hello = Callable[[], dict[str, Any] | None]
"""The hub's latest ``hello`` (the link's :attr:`~firmware_host.link.transport.HubLink.hello`)."""


class LinkListener(Protocol):
    """What a link watch drives: Drop It's controller, or a dice game's."""

    def link_changed(self, up: bool, message: str = "", why: Text | None = None) -> None:
        """The link went up or down (``why``: what keeps it unusable though up)."""
        ...

    def redraw(self) -> None:
        """Show the game's state again."""
        ...


class LinkWatch:
    """``on_state`` for a HubLink driving ``controller`` (create it inside the loop).

    With ``table`` and ``hello``, a hub whose inventory differs from the table file keeps
    the game paused, with the one line saying what to change.
    """

    def __init__(
        self,
        controller: LinkListener,
        table: Table | None = None,
        hello: Hello | None = None,
        loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        self.controller = controller
        self.table = table
        self.hello = hello
        self._loop = loop or asyncio.get_running_loop()

    def __call__(self, state: str, reason: str) -> None:
        """The link's report (any thread)."""
        if not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._apply, state, reason)

    def _apply(self, state: str, reason: str) -> None:
        event(log, "hub link", state=state, reason=reason)
        if state == "up":
            hello = self.hello() if self.hello is not None else None
            if hello is not None and self.table is not None:
                mismatch = inventory_mismatch(hello, self.table)
                if mismatch is not None:
                    self.controller.link_changed(False, reason, why=mismatch)
                    return
            self.controller.link_changed(True, reason)
            self.controller.redraw()
        else:
            self.controller.link_changed(False, reason)
