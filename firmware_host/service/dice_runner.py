"""Running a dice game at the table: what ``tabletop run --game KIND`` starts.

:class:`DiceService` opens the journal and resumes its unfinished game of that kind (or
starts one), finds the hub (``--port``, a plugged-in hub, or with ``--sim`` the simulator's
virtual hub; with none it waits for a hub, saying so on the page), and runs, in one loop:
the hub link, the tray's dice reports into the
:class:`~firmware_host.service.dice_controller.DiceController`, the simulated players
(``--autoplay``) and the page (:data:`~firmware_host.web.frontend.DICE_GAMES`). Ctrl-C, SIGTERM or
:meth:`DiceService.stop` end it; with autoplay and no page, so does the game's end.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from firmware_host.config.table import load_table
from firmware_host.errors import InputError
from firmware_host.games.table_game import Setup, TableGame
from firmware_host.link.finding import HubChoice
from firmware_host.link.ports import find_hub_port
from firmware_host.link.session import HubEvent
from firmware_host.link.transport import HubLink
from firmware_host.logs import event
from firmware_host.outputs.clock import Clock
from firmware_host.sensors import DieReading
from firmware_host.service.clock import ScaledClock
from firmware_host.service.dice_controller import DiceController
from firmware_host.service.link_watch import LinkWatch
from firmware_host.service.notify import Notifier
from firmware_host.service.runner import (
    Options,
    PageServer,
    page_and_journal,
    run_until,
    service_hub,
    stop_on_signals,
    wait_for_hub,
)
from firmware_host.simulation import Players
from firmware_host.web.access import Access
from firmware_host.web.config import load_web_config
from firmware_host.web.frontend import DICE_GAMES
from firmware_host.web.server import create_app

log = logging.getLogger("firmware_host.service")


class DiceService:
    """One run of the service for a dice game of ``kind`` (build it, then ``await run()``)."""

    def __init__(
        self,
        options: Options,
        kind: type[TableGame],
        *,
        clock: Clock | None = None,
        announce: Callable[[str], None] = print,
        notifier: Notifier | None = None,
        hub_finder: Callable[[], str | None] = find_hub_port,
        hub_wait: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.options = options
        self._hub_finder = hub_finder
        self._hub_wait = hub_wait
        self.clock = clock or ScaledClock(options.speed)
        self.announce = announce
        self.notifier = notifier or Notifier()
        self._stopping = asyncio.Event()
        self.page_url: str | None = None
        self.config = load_table(options.table)
        self.web = load_web_config(options.web)
        setup = Setup(tuple(options.players), options.seed, options.variant)
        try:
            kind.first_event(setup)
        except ValueError as exc:
            raise InputError("tabletop run", "--players/--variant", str(exc)) from None
        self.hub: HubChoice | None = service_hub(options, self.config, announce, hub_finder)
        self.simulated = self.hub is not None and self.hub.virtual is not None
        thrower = self._throw if self.simulated else None
        dice = self.config.config.dice.count
        self._page_socket, self.journal = page_and_journal(options, self.web, self.hub)
        try:
            table = DiceController.resume(self.journal, kind, dice=dice, thrower=thrower)
            if table is None:
                table = DiceController.start(self.journal, kind, setup, dice=dice, thrower=thrower)
            else:
                announce(f"tabletop run: resuming {kind.TITLE} game {table.game_id}")
        except BaseException:
            self.close()
            raise
        self.table = table
        self.link: HubLink | None = None
        if self.hub is not None:
            self.table.link_changed(False, f"connecting to {self.hub.url}")

    def _throw(self, dice: tuple[int, ...]) -> None:
        """Throw the virtual hub's ``dice``, seeded by the game's position (so a resumed
        game throws what the uninterrupted one would have)."""
        assert self.hub is not None and self.hub.virtual is not None
        self.hub.virtual.roll(dice, f"{self.options.seed}:{self.table.game_id}:{self.table.events}")

    def stop(self) -> None:
        """Ask the service to stop (safe from a signal handler)."""
        self._stopping.set()

    async def run(self) -> int:
        """Run until stopped (or, with autoplay and no page, until the game is over)."""
        loop = asyncio.get_running_loop()
        stop_on_signals(self.stop)
        tasks = [loop.create_task(self._feed())]
        if self.options.autoplay and self.hub is not None and self.hub.virtual is not None:
            players = self.hub.virtual.dice_players(
                self.table, self.options.seed, self.clock, self.options.think
            )
            tasks.append(loop.create_task(self._autoplay(players)))
        page = None
        if self.options.http:
            app = create_app(
                self.table,
                Access(self.web),
                DICE_GAMES,
                simulated=self.simulated,
                language=self.config.config.language,
            )
            page = PageServer(self.options, self.web, app, self._page_socket)
            self.page_url = page.url
            self.announce(f"tabletop run: the page: {page.url}")
        try:
            await run_until(self._stopping, tasks, page, self.notifier, self.table)
        finally:
            self.close()
        return 0

    async def _feed(self) -> None:
        """Connect the hub (waiting for one to be plugged in if need be), then hand the
        tray's dice reports to the table (other sensors are Drop It's)."""
        if self.hub is None:
            self.hub = await wait_for_hub(
                self.table, self.announce, self._hub_finder, self._hub_wait
            )
            self.table.link_changed(False, f"connecting to {self.hub.url}")
        watch = LinkWatch(self.table, self.config, lambda: self.link.hello if self.link else None)
        self.link = HubLink(self.hub.url, on_state=watch).start()
        events: asyncio.Queue[HubEvent] = self.link.event_queue()
        while True:
            message = (await events.get()).message
            if message["type"] == "die":
                reading = DieReading(message["die"], not message["stable"], message["face"])
                self.table.die(reading)

    async def _autoplay(self, players: Players) -> None:
        await players.play()
        if self.options.http:
            event(log, "autoplay done: the page shows the result until the service stops")
        else:
            event(log, "autoplay done")
            self.stop()

    def close(self) -> None:
        """Release the hub link, the hub (and the virtual one) and the journal."""
        if self.link is not None:
            self.link.stop()
        if self.hub is not None:
            self.hub.close()
        self.journal.close()
