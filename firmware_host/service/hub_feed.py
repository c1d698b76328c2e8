"""The drop feed: the hub's events, through the collector, to Drop It's controller.

The link delivers the hub's events in order on an asyncio queue; the
:class:`~firmware_host.sensors.collector.DropCollector` turns them into one outcome per
drop (settled readings, a second piece, a jam), and :class:`HubFeed` hands each to the
controller: settled readings go to the referee, the others are mishaps (nothing counts,
staff or the player put it right and the turn is played again). Once a drop's piece has
gone through the entry gate, its entry goes to the controller first
(:meth:`~firmware_host.service.controller.DropItController.entered`), so that the
referee can start on it while the piece falls and settles. Between events the
collector is polled every :data:`POLL_SECONDS`, so a drop settles once the sensors are
quiet even when no further event comes.
"""

from __future__ import annotations

import asyncio

from firmware_host.i18n import lazy
from firmware_host.link.session import HubEvent
from firmware_host.sensors.collector import DropCollector, DropOutcome, Outcome
from firmware_host.service.controller import DropItController
from firmware_host.service.referee import Mishap, MishapKind

POLL_SECONDS = 0.01
"""How often (real seconds) the collector is asked whether the drop has settled."""


class HubFeed:
    """Feeds ``controller`` the drops ``collector`` assembles from ``events``."""

    def __init__(
        self,
        events: asyncio.Queue[HubEvent],
        collector: DropCollector,
        controller: DropItController,
    ) -> None:
        self.events = events
        self.collector = collector
        self.controller = controller

    async def run(self) -> None:
        """Follow the hub's events until cancelled."""
        task = asyncio.current_task()
        while True:
            if task is not None and task.cancelling():
                # asyncio.wait_for (3.11) swallows a cancel that comes as an event does
                raise asyncio.CancelledError
            try:
                event = await asyncio.wait_for(self.events.get(), POLL_SECONDS)
            except TimeoutError:
                done = self.collector.poll()
            else:
                done = self.collector.feed(event)
            entry = self.collector.entered()
            if entry is not None:
                self.controller.entered(entry)
            for outcome in done:
                await self.deliver(outcome)

    async def deliver(self, outcome: DropOutcome) -> None:
        """Hand one drop's outcome to the controller."""
        if outcome.outcome is Outcome.SETTLED:
            await self.controller.dropped(outcome.readings)
        elif outcome.outcome is Outcome.SECOND_PIECE:
            self.controller.mishap(
                Mishap(
                    MishapKind.SECOND_DROP,
                    lazy(
                        "a second piece went in before the first came to rest: take both out "
                        "and drop again"
                    ),
                )
            )
        else:
            self.controller.mishap(
                Mishap(MishapKind.JAM, lazy("the piece never came to rest: free it and drop again"))
            )
