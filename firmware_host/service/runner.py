"""Running the service: everything ``tabletop run`` starts, wired together, in one loop.

:class:`Service` runs whichever game the registry names (:mod:`firmware_host.games.registry`):
it checks the settings, finds the hub (``--port``, a plugged-in hub, or with ``--sim`` the
simulator's virtual table, :mod:`firmware_host.simulation`, its hub on a pty; with none of
them it waits for a hub to be plugged in, saying so on the page), opens the journal, and
runs the game's :class:`~firmware_host.service.play.Play` (a board game's or a dice game's,
as the registry's entry says it is played), the hub link, the simulated players and the
page until the game is over (with autoplay and no page) or it is told to stop
(:meth:`Service.stop`, Ctrl-C, SIGTERM).

Clocks: the game's clock (``--speed``: the players' pauses, the LED animations) is the
injected one. The virtual hub paces its events at ``speed`` times real time (as fast as
it can above :data:`PACED_UP_TO`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import uvicorn
from gpiozero.pins import Factory
from starlette.applications import Starlette

from firmware_host.config.table import Table, load_table
from firmware_host.errors import InputError
from firmware_host.games.registry import GAMES, BoardGame, DiceGame, RegisteredGame
from firmware_host.i18n import lazy
from firmware_host.journal.store import Journal
from firmware_host.link.finding import HubChoice, find_hub
from firmware_host.link.ports import find_hub_port
from firmware_host.link.transport import HubLink
from firmware_host.logs import event
from firmware_host.outputs.clock import Clock
from firmware_host.service.board_play import BoardPlay
from firmware_host.service.clock import ScaledClock
from firmware_host.service.dice_play import DicePlay
from firmware_host.service.link_watch import LinkListener, LinkWatch
from firmware_host.service.notify import Notifier
from firmware_host.service.options import Options
from firmware_host.service.play import Controller, Opener, Play, StatusView, cancel, run_all
from firmware_host.simulation import Players
from firmware_host.web.access import Access
from firmware_host.web.config import WebConfig, load_web_config
from firmware_host.web.game_feed import Views
from firmware_host.web.server import MAX_WS_BYTES, bind

log = logging.getLogger("firmware_host.service")

PACED_UP_TO = 50.0
"""Above this speed-up the virtual hub sends its events as fast as it can."""

HUB_POLL_SECONDS = 2.0
"""How often a service waiting for its hub looks for it again (real seconds)."""

WAITING_FOR_HUB = lazy(
    "waiting for the sensor hub: none is connected (check its USB cable); "
    "the game starts when it is found"
)
"""What the page says while the service waits for a hub."""


def service_hub(
    options: Options,
    table: Table,
    announce: Callable[[str], None],
    finder: Callable[[], str | None] = find_hub_port,
) -> HubChoice | None:
    """The hub ``options`` ask for: ``--port``, else the one ``finder`` finds plugged in;
    with ``--sim`` the simulator's virtual hub (paced for ``options.speed``, said in one
    line). None when no hub is there: the service waits for one, it never plays on the
    simulator unasked. Refuses ``--autoplay`` without ``--sim``."""
    if not options.sim:
        if options.autoplay:
            raise InputError(
                "tabletop run", "--autoplay", "simulated players need the simulator (--sim)"
            )
        url = options.port or finder()
        return HubChoice(url) if url is not None else None
    hub = find_hub(
        None,
        True,
        table=table,
        noise=options.noise,
        seed=options.seed,
        speed=options.speed if options.speed <= PACED_UP_TO else None,
    )
    announce(f"tabletop run: the simulator's virtual hub at {hub.url}")
    return hub


async def wait_for_hub(
    table: LinkListener,
    announce: Callable[[str], None],
    finder: Callable[[], str | None],
    wait: Callable[[float], Awaitable[None]],
) -> HubChoice:
    """Look for a plugged-in hub every :data:`HUB_POLL_SECONDS` until ``finder`` finds one;
    meanwhile ``table``'s page and the log say the table waits for it."""
    table.link_changed(False, "no hub", why=WAITING_FOR_HUB)
    announce(
        "tabletop run: no hub found (no --port, none in /dev/serial/by-id): waiting for one "
        "(--sim plays on the simulator instead)"
    )
    event(log, "waiting for the hub", logging.WARNING, every_s=HUB_POLL_SECONDS)
    while (url := finder()) is None:
        await wait(HUB_POLL_SECONDS)
    event(log, "hub found", port=url)
    announce(f"tabletop run: hub found at {url}")
    return HubChoice(url)


def open_play(
    game: RegisteredGame,
    options: Options,
    table: Table,
    opener: Opener,
    *,
    clock: Clock,
    announce: Callable[[str], None],
    pin_factory: Factory | None,
) -> Play:
    """The play of ``game`` as its registry entry says it is played: on the board (the
    sensors, the camera, the referee, the LEDs and the panel) or with the dice tray. The one
    place the service tells the two apart, by how a game is played, never by its name."""
    match game:
        case BoardGame():
            return BoardPlay(
                game,
                options,
                table,
                opener,
                clock=clock,
                announce=announce,
                pin_factory=pin_factory,
            )
        case DiceGame():
            return DicePlay(game, options, table, opener, clock=clock, announce=announce)


class Service:
    """One run of the service for ``game`` (default: the registry's game ``options.game``;
    build it, then ``await run()``; ``stop()`` ends it)."""

    def __init__(
        self,
        options: Options,
        game: RegisteredGame | None = None,
        *,
        clock: Clock | None = None,
        pin_factory: Factory | None = None,
        announce: Callable[[str], None] = print,
        notifier: Notifier | None = None,
        hub_finder: Callable[[], str | None] = find_hub_port,
        hub_wait: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.options = options
        self.clock = clock or ScaledClock(options.speed)
        self.announce = announce
        self.notifier = notifier or Notifier()
        self._hub_finder = hub_finder
        self._hub_wait = hub_wait
        self._stopping = asyncio.Event()
        self.page_url: str | None = None
        self.table = load_table(options.table)
        self.web = load_web_config(options.web)
        self.hub: HubChoice | None = None
        self.link: HubLink | None = None
        self.journal: Journal | None = None
        self._page_socket: socket.socket | None = None
        # every setting is checked (the play's before it opens) before anything is journaled
        try:
            self.play = open_play(
                game or GAMES[options.game],
                options,
                self.table,
                self._open,
                clock=self.clock,
                announce=announce,
                pin_factory=pin_factory,
            )
        except BaseException:
            if self._page_socket is not None:
                self._page_socket.close()
            self._release()
            raise
        self.simulated = self.hub is not None and self.hub.virtual is not None
        if self.hub is not None:
            self.controller.link_changed(False, f"connecting to {self.hub.url}")
        else:
            self.controller.link_changed(False, "no hub", why=WAITING_FOR_HUB)

    def _open(self) -> tuple[Journal, HubChoice | None]:
        """Choose the hub and open the page's socket and the journal (the play's opener)."""
        self.hub = service_hub(self.options, self.table, self.announce, self._hub_finder)
        self._page_socket, self.journal = page_and_journal(self.options, self.web, self.hub)
        return self.journal, self.hub

    @property
    def controller(self) -> Controller:
        """The game's controller (Drop It's, or a dice game's)."""
        return self.play.controller

    def stop(self) -> None:
        """Ask the service to stop (safe from a signal handler)."""
        self._stopping.set()

    async def run(self) -> int:
        """Run until stopped (or, with autoplay and no page, until the game is over); the
        exit status."""
        loop = asyncio.get_running_loop()
        stop_on_signals(self.stop)
        tasks = [loop.create_task(self._play())]
        page = None
        if self.options.http:
            access = Access(self.web)
            app = self.play.app(access, self.simulated, self.table.config.language)
            page = PageServer(self.options, self.web, app, self._page_socket)
            self.page_url = page.url
            self.announce(f"tabletop run: the page: {page.url}")
        try:
            await run_until(self._stopping, tasks, page, self.notifier, self.play.controller)
        finally:
            self.close()
        return 0

    async def _play(self) -> None:
        """Connect the hub (waiting for one to be plugged in if need be), then play, with
        the simulated players."""
        controller = self.play.controller
        if self.hub is None:
            self.hub = await wait_for_hub(
                controller, self.announce, self._hub_finder, self._hub_wait
            )
            controller.link_changed(False, f"connecting to {self.hub.url}")
        loop = asyncio.get_running_loop()
        watch = LinkWatch(controller, self.table, lambda: self.link.hello if self.link else None)
        self.link = HubLink(self.hub.url, on_state=watch).start()
        tasks = [loop.create_task(self.play.run(self.link, self.hub))]
        players = self.play.players(self.hub) if self.options.autoplay else None
        if players is not None:
            tasks.append(loop.create_task(self._autoplay(players)))
        await run_all(tasks)

    async def _autoplay(self, players: Players) -> None:
        await players.play()
        if self.options.http:
            event(log, "autoplay done: the page shows the result until the service stops")
        else:
            event(log, "autoplay done")
            self.stop()

    def close(self) -> None:
        """Release the play's pins and camera, the hub link, the hub (and the virtual one)
        and the journal."""
        self.play.close()
        self._release()

    def _release(self) -> None:
        if self.link is not None:
            self.link.stop()
        if self.hub is not None:
            self.hub.close()
        if self.journal is not None:
            self.journal.close()


async def tell_systemd(notifier: Notifier, table: Views[StatusView]) -> None:
    """READY once running, the status line of ``table``'s every view, and the watchdog's
    pings (real time, from this loop: a hung loop stops them and systemd restarts us)."""
    notifier.ready(str(table.snapshot().status))
    updates = table.updates()

    async def follow() -> None:
        async for view in updates:
            notifier.status(str(view.status))

    follower = asyncio.get_running_loop().create_task(follow())
    try:
        interval = notifier.watchdog_seconds
        while interval is not None:
            notifier.watchdog()
            await asyncio.sleep(interval / 2)
        await follower
    finally:
        follower.cancel()


async def run_until(
    stopping: asyncio.Event,
    tasks: list[asyncio.Task[Any]],
    page: PageServer | None,
    notifier: Notifier,
    table: Views[StatusView],
) -> None:
    """Serve ``page`` beside ``tasks`` (and systemd's notifications of ``table``'s status,
    when enabled) until ``stopping`` is set; then tell systemd, cancel the tasks and let
    the page's server finish its connections."""
    loop = asyncio.get_running_loop()
    if notifier.enabled:
        tasks = [*tasks, loop.create_task(tell_systemd(notifier, table))]
    serving = loop.create_task(page.serve()) if page is not None else None
    try:
        await stopping.wait()
    finally:
        event(log, "stopping")
        notifier.stopping()
        await cancel(tasks)
        if page is not None and serving is not None:
            page.should_exit = True
            await asyncio.gather(serving, return_exceptions=True)


def stop_on_signals(stop: Callable[[], None]) -> None:
    """Call ``stop`` on Ctrl-C and SIGTERM (where the loop can handle signals)."""
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(signum, stop)


def page_and_journal(
    options: Options, web: WebConfig, hub: HubChoice | None
) -> tuple[socket.socket | None, Journal]:
    """The page's socket (None with ``--http off``) and the opened journal; when either
    fails, what was opened (the socket, the ``hub``) is closed again."""
    listening: socket.socket | None = None
    try:
        if options.http:
            listening = page_socket(options, web)
        return listening, Journal(options.journal)
    except BaseException:
        if listening is not None:
            listening.close()
        if hub is not None:
            hub.close()
        raise


def page_socket(options: Options, web: WebConfig) -> socket.socket:
    """The page's listening socket, on the port the options and web settings give (a free
    one if the settings' port is taken; a port given with ``--page-port`` must be free)."""
    host = options.page_host or web.host
    port = web.port if options.page_port is None else options.page_port
    try:
        return bind(host, port)
    except OSError as exc:
        if options.page_port is not None:
            problem = f"cannot listen there ({exc.strerror or exc})"
            raise InputError("--page-port", f"{host}:{port}", problem) from None
        event(
            log,
            "page port taken: using a free one",
            logging.WARNING,
            port=port,
            problem=str(exc),
        )
        try:
            return bind(host, 0)
        except OSError as again:
            raise InputError("web settings", f"host {host}", f"cannot listen ({again})") from None


class PageServer(uvicorn.Server):
    """uvicorn serving ``app`` inside the service's loop, on the port the options and web
    settings give (a free one if the settings' port is taken); the service, not uvicorn,
    handles the signals. :attr:`url` is the page's address; :meth:`serve` serves it."""

    def __init__(
        self,
        options: Options,
        web: WebConfig,
        app: Starlette,
        sock: socket.socket | None = None,
    ) -> None:
        super().__init__(
            uvicorn.Config(app, log_level="warning", ws_max_size=MAX_WS_BYTES, lifespan="on")
        )
        self.socket = sock or page_socket(options, web)
        host = options.page_host or web.host
        shown = "localhost" if host in ("127.0.0.1", "::1") else host
        self.url = f"http://{shown}:{self.socket.getsockname()[1]}/"

    async def serve(self, sockets: list[socket.socket] | None = None) -> None:
        """Serve the page until :attr:`should_exit`."""
        await super().serve(sockets=sockets or [self.socket])

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield
