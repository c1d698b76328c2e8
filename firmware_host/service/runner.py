"""Running the service: everything ``tabletop run`` starts, wired together, in one loop.

:class:`Service` opens the journal and resumes its unfinished game (or starts one), finds
the hub (``--port``, a plugged-in hub, or with ``--sim`` the simulator's virtual table,
:mod:`firmware_host.simulation`, its hub on a pty; with none of them it waits for a hub to
be plugged in, saying so on the page), makes the referee's eye, the controller, the LED
tracks, the buttons, the virtual table's players and the page; :meth:`Service.run`
connects the hub link and runs them all until the game is over (with autoplay and no page)
or it is told to stop (:meth:`Service.stop`, Ctrl-C, SIGTERM).

Clocks: the game's clock (``--speed``: the players' pauses, the LED animations) is the
injected one. The virtual hub paces its events at ``speed`` times real time (as fast as
it can above :data:`PACED_UP_TO`). The drop collector runs on the hub's clock (the
events' ``t_us``), never on the host's: the virtual hub tells its time in the event
stream after every drop, so a seeded game is the same game at any speed and load; with a
real hub the link's clock sync says how far the hub's time has gone between events
(:func:`hub_time`, less :data:`IN_FLIGHT_S`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import uvicorn
from gpiozero.exc import GPIOZeroError
from gpiozero.pins import Factory
from gpiozero.pins.mock import MockFactory
from starlette.applications import Starlette

from firmware_host.camera.calibration import effective_colors
from firmware_host.camera.feed import CameraFeed
from firmware_host.camera.kept import FrameKeeper, frame_path, frames_folder
from firmware_host.camera.sight import Sight
from firmware_host.camera.sources import open_source
from firmware_host.config.board import EdgeFace
from firmware_host.config.panel import load_panel
from firmware_host.config.table import REFERENCE_TABLE, Table, load_table
from firmware_host.errors import InputError
from firmware_host.eye import Eye, load_eye_config
from firmware_host.games.dropit.events import GameStarted
from firmware_host.games.dropit.lineup import Competitor, Variants, deal_colors
from firmware_host.games.dropit.state import GameState
from firmware_host.games.registry import DEFAULT_GAME
from firmware_host.i18n import Text, lazy
from firmware_host.journal.dropit import DropItRecord, resume
from firmware_host.journal.store import Journal
from firmware_host.link.finding import HubChoice, find_hub
from firmware_host.link.ports import find_hub_port
from firmware_host.link.transport import HubLink
from firmware_host.logs import event
from firmware_host.model.params import load_params
from firmware_host.outputs.backends import track_display
from firmware_host.outputs.clock import Clock
from firmware_host.outputs.hub_tracks import HubTracks
from firmware_host.outputs.track_display import TrackDisplay
from firmware_host.panel.buttons import PanelButtons
from firmware_host.sensors.collector import DropCollector
from firmware_host.service.clock import ScaledClock
from firmware_host.service.controller import DropItController
from firmware_host.service.eye_referee import EyeReferee
from firmware_host.service.hub_feed import HubFeed
from firmware_host.service.link_watch import LinkWatch
from firmware_host.service.notify import Notifier
from firmware_host.service.track_log import LoggedTracks
from firmware_host.simulation import Hand, Players
from firmware_host.web.access import Access
from firmware_host.web.config import WebConfig, load_web_config
from firmware_host.web.frontend import DROP_IT
from firmware_host.web.game_feed import PageView, Views
from firmware_host.web.look import NO_CAMERA, LastLook
from firmware_host.web.server import MAX_WS_BYTES, bind, create_app

log = logging.getLogger("firmware_host.service")

PACED_UP_TO = 50.0
"""Above this speed-up the virtual hub sends its events as fast as it can."""

IN_FLIGHT_S = 0.1
"""With a real hub, how long an event may take from the hub's clock to the collector (the
line, the host's queues): the collector takes the hub's time between events as the clock
sync's estimate less this, so that no event still on its way is ruled out."""


def hub_time(link: HubLink) -> float:
    """The hub's time now (seconds) as the link's clock sync tells it, less
    :data:`IN_FLIGHT_S` and the sync's uncertainty (0 before the first sample)."""
    session = link.session
    origin = session.sync.to_host(0) if session is not None else None
    if session is None or origin is None:
        return 0.0
    return session.clock() - origin - (session.sync.uncertainty or 0.0) - IN_FLIGHT_S

THINK_SECONDS = 3.0
"""How long a simulated player takes between selecting and dropping (clock seconds)."""

DEFAULT_PLAYERS = ("Ann", "Ben", "Cleo", "Dev")
"""The players of a game nobody set up (four, as autoplay shows a newcomer)."""


@dataclass
class Options:
    """What ``tabletop run`` was asked for (see ``docs/service.md``)."""

    journal: Path
    port: str | None = None
    sim: bool = True
    autoplay: bool = False
    speed: float = 1.0
    http: bool = True
    page_host: str | None = None
    page_port: int | None = None
    seed: int = 1
    noise: str = "realistic"
    players: Sequence[str] = DEFAULT_PLAYERS
    jokers: bool = True
    edges: EdgeFace = EdgeFace.COLOR
    table: str | None = None
    panel: str | None = None
    web: str | None = None
    think: float = THINK_SECONDS
    autoplay_answers: bool = True
    game: str = DEFAULT_GAME
    variant: str | None = None


def game_start(options: Options) -> GameStarted:
    """The set-up event of a new game for ``options.players``."""
    colors = deal_colors([None] * len(options.players))
    competitors = tuple(
        Competitor(name, (name,), dealt)
        for name, dealt in zip(options.players, colors, strict=True)
    )
    return GameStarted(competitors, False, Variants(options.edges, options.jokers))


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
    table: Any,
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


def service_camera(
    table: Table, table_file: str | None, hub: HubChoice | None, seed: int
) -> CameraFeed | None:
    """The table's camera (None for ``camera: none``): the virtual table's camera, showing
    its true board, when the hub is a virtual table's, else the table file's source (opened
    at the first look)."""
    setup = table.camera
    if setup is None:
        return None
    folder = Path(table_file).resolve().parent if table_file else REFERENCE_TABLE.parent
    sight = Sight(table.board, setup, load_params(), effective_colors(setup, folder))
    virtual = hub.virtual if hub is not None else None
    if virtual is not None:
        return CameraFeed(virtual.camera(seed), sight, setup.frames_per_look)
    return CameraFeed(lambda: open_source(setup, folder), sight, setup.frames_per_look)


class Service:
    """One run of the service (build it, then ``await run()``; ``stop()`` ends it)."""

    def __init__(
        self,
        options: Options,
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
        self._pin_factory = pin_factory
        self._hub_finder = hub_finder
        self._hub_wait = hub_wait
        self._stopping = asyncio.Event()
        self.page_url: str | None = None
        table = load_table(options.table)
        self.board = table.board
        self.panel = load_panel(options.panel)
        self.web = load_web_config(options.web)
        self.table = table
        params = load_params()
        eye_config = load_eye_config()
        # every setting is checked, and the hub chosen, before anything is journaled
        first_event = game_start(options)
        GameState.start(first_event)  # a set-up the rules refuse is refused now
        self.hub: HubChoice | None = service_hub(options, table, announce, hub_finder)
        self.simulated = self.hub is not None and self.hub.virtual is not None
        self._page_socket, self.journal = page_and_journal(options, self.web, self.hub)
        game = resume(self.journal)
        if game is None:
            game = DropItRecord.start(self.journal, first_event)
            event(log, "game started", game=game.game_id, players=",".join(options.players))
        else:
            event(
                log,
                "game resumed",
                game=game.game_id,
                turn=game.state.next_turn,
                events=game.events,
            )
            announce(f"tabletop run: resuming game {game.game_id} at turn {game.state.next_turn}")
        edges = game.state.started.variants.edges
        virtual = self.hub.virtual if self.hub is not None else None
        self.hand: Hand | None = virtual.hand(options.seed, edges) if virtual is not None else None
        if self.hand is not None:
            self.hand.replay(game.state.drops)
        self.eye = eye = Eye(table, params, eye_config, edges=edges, seed=options.seed)
        self.tracks: TrackDisplay | None = None
        self.buttons: PanelButtons | None = None
        self.link: HubLink | None = None
        self.camera = service_camera(table, options.table, self.hub, options.seed)
        self.keeper = (
            FrameKeeper(frames_folder(Path(options.journal)), self.board, table.camera.markers)
            if table.camera is not None
            else None
        )
        self.controller = DropItController(
            self.board,
            game,
            EyeReferee(eye, self.board, params, self.camera),
            new_game=self._new_game,
            keep_frame=self._keep_frame if self.camera is not None else None,
        )
        if self.hub is not None:
            self.controller.link_changed(False, f"connecting to {self.hub.url}")
        else:
            self.controller.link_changed(False, "no hub", why=WAITING_FOR_HUB)

    def _keep_frame(self, game_id: int, turn: int) -> Path | None:
        """Keep the frame the verdict of ``turn`` came from (None: judged without the
        camera); a frame that cannot be written is logged, never a fault of the game."""
        assert self.camera is not None and self.keeper is not None
        last = self.camera.take_last()
        if last is None:
            return None
        try:
            return self.keeper.save(game_id, turn, *last)
        except OSError as exc:
            event(log, "frame not kept", logging.WARNING, turn=turn, problem=str(exc))
            return None

    def last_look(self) -> LastLook:
        """The staff view's last look: the latest verdict and its kept frame, if any."""
        game_id = str(self.controller.game.game_id)
        if self.keeper is None:
            return LastLook(NO_CAMERA, game_id)
        camera = self.controller.camera_status
        drops = self.controller.state.drops
        if not drops:
            return LastLook(camera, game_id)
        drop = drops[-1]
        frame = frame_path(self.keeper.folder, self.controller.game.game_id, drop.turn)
        return LastLook(camera, game_id, drop.turn, drop.player, drop.piece.describe(), frame)

    def _new_game(self, started: GameStarted) -> DropItRecord:
        """Journal a new game set up as ``started`` (the virtual hub's board is emptied; the
        eye and the simulated hand judge with its edge face)."""
        if self.hub is not None and self.hub.virtual is not None:
            self.hub.virtual.clear_board()
        self.eye.edges = started.variants.edges
        if self.hand is not None:
            self.hand.edges = started.variants.edges
        return DropItRecord.start(self.journal, started)

    def stop(self) -> None:
        """Ask the service to stop (safe from a signal handler)."""
        self._stopping.set()

    async def run(self) -> int:
        """Run until stopped (or, with autoplay, until the game is over); the exit status."""
        loop = asyncio.get_running_loop()
        stop_on_signals(self.stop)
        tasks = [loop.create_task(self._play())]
        page = None
        if self.options.http:
            app = create_app(
                self.controller,
                Access(self.web),
                DROP_IT,
                simulated=self.simulated,
                look=self.last_look,
                language=self.table.config.language,
            )
            page = PageServer(self.options, self.web, app, self._page_socket)
            self.page_url = page.url
            self.announce(f"tabletop run: the page: {page.url}")
        try:
            await run_until(self._stopping, tasks, page, self.notifier, self.controller)
        finally:
            self.close()
        return 0

    async def _play(self) -> None:
        """Connect the hub (waiting for one to be plugged in if need be), then feed its
        drops to the game, with the panel's buttons and the simulated players."""
        if self.hub is None:
            self.hub = await wait_for_hub(
                self.controller, self.announce, self._hub_finder, self._hub_wait
            )
            self.controller.link_changed(False, f"connecting to {self.hub.url}")
        loop = asyncio.get_running_loop()
        watch = LinkWatch(
            self.controller, self.table, lambda: self.link.hello if self.link else None
        )
        self.link = HubLink(self.hub.url, on_state=watch).start()
        link = self.link
        collector = DropCollector(
            self.table, clock=None if self.hub.virtual else lambda: hub_time(link)
        )
        feed = HubFeed(self.link.event_queue(), collector, self.controller)
        self._start_outputs()
        tasks = [loop.create_task(feed.run())]
        if self.buttons:
            tasks.append(loop.create_task(self._buttons_loop()))
        if self.options.autoplay and self.hand is not None:
            players = self.hand.players(
                self.controller,
                self.clock,
                self.options.think,
                answers=self.options.autoplay_answers,
            )
            tasks.append(loop.create_task(self._autoplay(players)))
        try:
            await asyncio.gather(*tasks)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _autoplay(self, players: Players) -> None:
        await players.play()
        if self.options.http:
            event(log, "autoplay done: the page shows the result until the service stops")
        else:
            event(log, "autoplay done")
            self.stop()

    async def _buttons_loop(self) -> None:
        assert self.buttons is not None
        while True:
            await self.controller.press(await self.buttons.next())

    def _start_outputs(self) -> None:
        seats = len(self.controller.state.standings)
        factory = self._pin_factory or (MockFactory() if self.simulated else None)
        try:
            if self.tracks is None:
                self.tracks = track_display(
                    self.panel, self.clock, link=self.link, pin_factory=factory
                )
            if self.panel.buttons is not None:
                self.buttons = PanelButtons(self.panel.buttons, pin_factory=factory)
        except GPIOZeroError as exc:
            event(
                log,
                "no GPIO: the panel's buttons and GPIO tracks are off",
                logging.WARNING,
                problem=str(exc),
            )
        if self.tracks is None:
            self.tracks = LoggedTracks(seats, self.clock)
        self.controller.tracks = self.tracks
        self.controller.redraw()

    def close(self) -> None:
        """Release the pins, the camera, the hub (and the virtual one) and the journal."""
        if self.camera is not None:
            self.camera.close()
        if self.tracks is not None and not isinstance(self.tracks, HubTracks):
            self.tracks.close()  # the hub's strips go idle by themselves once we are gone
        if self.buttons is not None:
            self.buttons.close()
        if self.link is not None:
            self.link.stop()
        if self.hub is not None:
            self.hub.close()
        self.journal.close()


class StatusView(PageView, Protocol):
    """A view that says the game's state in one line: Drop It's and a dice game's."""

    @property
    def status(self) -> Text:
        """The game's state in one line (systemd's status)."""
        ...


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
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
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
