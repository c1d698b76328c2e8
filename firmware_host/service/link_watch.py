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

from firmware_host.logs import event
from firmware_host.service.controller import TableController

log = logging.getLogger("firmware_host.service")


class LinkWatch:
    """``on_state`` for a HubLink driving ``controller`` (create it inside the loop)."""

    def __init__(
        self, controller: TableController, loop: asyncio.AbstractEventLoop | None = None
    ) -> None:
        self.controller = controller
        self._loop = loop or asyncio.get_running_loop()

    def __call__(self, state: str, reason: str) -> None:
        """The link's report (any thread)."""
        if not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._apply, state, reason)

    def _apply(self, state: str, reason: str) -> None:
        event(log, "hub link", state=state, reason=reason)
        if state == "up":
            self.controller.link_changed(True, reason)
            self.controller.redraw()
        else:
            self.controller.link_changed(False, reason)
