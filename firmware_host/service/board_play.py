"""Drop It at the table: the service's part for a game played on the board.

:class:`BoardPlay` is what the one service (:class:`firmware_host.service.runner.Service`)
runs for a :class:`~firmware_host.games.registry.BoardGame`: it resumes the journal's
unfinished game of Drop It (or starts one), makes the referee's eye with the table's camera,
the controller (:class:`~firmware_host.service.controller.DropItController`), the LED
tracks and the panel's buttons, and the virtual table's hand when the hub is the
simulator's; once the hub link is up it feeds the hub's drops to the game
(:class:`~firmware_host.service.hub_feed.HubFeed`).

The drop collector runs on the hub's clock (the events' ``t_us``), never on the host's: the
virtual hub tells its time in the event stream after every drop, so a seeded game is the
same game at any speed and load; with a real hub the link's clock sync says how far the
hub's time has gone between events (:func:`hub_time`, less :data:`IN_FLIGHT_S`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path

from gpiozero.exc import GPIOZeroError
from gpiozero.pins import Factory
from gpiozero.pins.mock import MockFactory
from starlette.applications import Starlette

from firmware_host.camera.calibration import effective_colors
from firmware_host.camera.feed import CameraFeed
from firmware_host.camera.kept import FrameKeeper, frame_path, frames_folder
from firmware_host.camera.sight import Sight
from firmware_host.camera.sources import open_source
from firmware_host.config.panel import load_panel
from firmware_host.config.table import REFERENCE_TABLE, Table
from firmware_host.errors import InputError
from firmware_host.eye import Eye, load_eye_config
from firmware_host.games.dropit.events import GameStarted
from firmware_host.games.dropit.state import GameState
from firmware_host.games.registry import BoardGame
from firmware_host.journal.dropit import DropItRecord, resume
from firmware_host.link.finding import HubChoice
from firmware_host.link.transport import HubLink
from firmware_host.logs import event
from firmware_host.model.params import load_params
from firmware_host.outputs.backends import track_display
from firmware_host.outputs.clock import Clock
from firmware_host.outputs.hub_tracks import HubTracks
from firmware_host.outputs.track_display import TrackDisplay
from firmware_host.panel.buttons import PanelButtons
from firmware_host.sensors.collector import DropCollector
from firmware_host.service.controller import DropItController
from firmware_host.service.eye_referee import EyeReferee
from firmware_host.service.hub_feed import HubFeed
from firmware_host.service.options import Options
from firmware_host.service.play import Opener, run_all
from firmware_host.service.track_log import LoggedTracks
from firmware_host.simulation import Hand, Players
from firmware_host.web.access import Access
from firmware_host.web.frontend import DROP_IT
from firmware_host.web.look import NO_CAMERA, LastLook
from firmware_host.web.server import create_app

log = logging.getLogger("firmware_host.service")

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


class BoardPlay:
    """Drop It at the table for the service (see the module's docstring): every setting is
    checked before ``opener`` chooses the hub and opens the journal."""

    def __init__(
        self,
        game: BoardGame,
        options: Options,
        table: Table,
        opener: Opener,
        *,
        clock: Clock,
        announce: Callable[[str], None],
        pin_factory: Factory | None = None,
    ) -> None:
        if options.variant is not None:
            raise InputError(
                "tabletop run", "--variant", f"{game.title}'s variants are --edges and --no-jokers"
            )
        self.options = options
        self.clock = clock
        self.board = table.board
        self.table = table
        self.panel = load_panel(options.panel)
        self._pin_factory = pin_factory
        params = load_params()
        eye_config = load_eye_config()
        first_event = game.table.first_event(options.players, options.edges, options.jokers)
        GameState.start(first_event)  # a set-up the rules refuse is refused now
        self.journal, hub = opener()
        self.virtual = hub.virtual if hub is not None else None
        record = resume(self.journal)
        if record is None:
            record = DropItRecord.start(self.journal, first_event)
            event(log, "game started", game=record.game_id, players=",".join(options.players))
        else:
            event(
                log,
                "game resumed",
                game=record.game_id,
                turn=record.state.next_turn,
                events=record.events,
            )
            announce(
                f"tabletop run: resuming game {record.game_id} at turn {record.state.next_turn}"
            )
        edges = record.state.started.variants.edges
        virtual = self.virtual
        self.hand: Hand | None = virtual.hand(options.seed, edges) if virtual is not None else None
        if self.hand is not None:
            self.hand.replay(record.state.drops)
        self.eye = eye = Eye(table, params, eye_config, edges=edges, seed=options.seed)
        self.tracks: TrackDisplay | None = None
        self.buttons: PanelButtons | None = None
        self.camera = service_camera(table, options.table, hub, options.seed)
        self.keeper = (
            FrameKeeper(frames_folder(Path(options.journal)), self.board, table.camera.markers)
            if table.camera is not None
            else None
        )
        self.controller = DropItController(
            self.board,
            record,
            EyeReferee(eye, self.board, params, self.camera),
            new_game=self._new_game,
            keep_frame=self._keep_frame if self.camera is not None else None,
        )

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
        if self.virtual is not None:
            self.virtual.clear_board()
        self.eye.edges = started.variants.edges
        if self.hand is not None:
            self.hand.edges = started.variants.edges
        return DropItRecord.start(self.journal, started)

    def app(self, access: Access, simulated: bool, language: str) -> Starlette:
        """Drop It's page, for :func:`~firmware_host.web.server.create_app`'s options."""
        return create_app(
            self.controller,
            access,
            DROP_IT,
            simulated=simulated,
            look=self.last_look,
            language=language,
        )

    def players(self, hub: HubChoice) -> Players | None:
        """The simulated players, dropping with the virtual table's hand (None without)."""
        if self.hand is None:
            return None
        return self.hand.players(
            self.controller, self.clock, self.options.think, answers=self.options.autoplay_answers
        )

    async def run(self, link: HubLink, hub: HubChoice) -> None:
        """Feed the hub's drops to the game, with the LED tracks and the panel's buttons."""
        loop = asyncio.get_running_loop()
        collector = DropCollector(self.table, clock=None if hub.virtual else lambda: hub_time(link))
        feed = HubFeed(link.event_queue(), collector, self.controller)
        self._start_outputs(link)
        tasks = [loop.create_task(feed.run())]
        if self.buttons:
            tasks.append(loop.create_task(self._buttons_loop()))
        await run_all(tasks)

    async def _buttons_loop(self) -> None:
        assert self.buttons is not None
        while True:
            await self.controller.press(await self.buttons.next())

    def _start_outputs(self, link: HubLink) -> None:
        seats = len(self.controller.state.standings)
        factory = self._pin_factory or (MockFactory() if self.virtual is not None else None)
        try:
            if self.tracks is None:
                self.tracks = track_display(self.panel, self.clock, link=link, pin_factory=factory)
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
        """Release the pins and the camera."""
        if self.camera is not None:
            self.camera.close()
        if self.tracks is not None and not isinstance(self.tracks, HubTracks):
            self.tracks.close()  # the hub's strips go idle by themselves once we are gone
        if self.buttons is not None:
            self.buttons.close()
