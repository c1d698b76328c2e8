"""A dice game at the table: the service's part for a game played with the dice tray.

:class:`DicePlay` is what the one service (:class:`firmware_host.service.runner.Service`)
runs for a :class:`~firmware_host.games.registry.DiceGame`: it resumes the journal's
unfinished game of that kind (or starts one) in a
:class:`~firmware_host.service.dice_controller.DiceController`, and once the hub link is up
hands it the tray's dice reports; on the simulator the virtual hub's dice are thrown for
it, and its simulated players play (:data:`~firmware_host.web.frontend.DICE_GAMES` is its
page).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from starlette.applications import Starlette

from firmware_host.config.table import Table
from firmware_host.errors import InputError
from firmware_host.games.registry import DiceGame
from firmware_host.games.table_game import Setup
from firmware_host.link.finding import HubChoice
from firmware_host.link.session import HubEvent
from firmware_host.link.transport import HubLink
from firmware_host.outputs.clock import Clock
from firmware_host.sensors import DieReading
from firmware_host.service.dice_controller import DiceController
from firmware_host.service.options import Options
from firmware_host.service.play import Opener
from firmware_host.simulation import Players
from firmware_host.web.access import Access
from firmware_host.web.frontend import DICE_GAMES
from firmware_host.web.server import create_app


class DicePlay:
    """A dice game of ``game``'s kind at the table (see the module's docstring): the set-up
    is checked before ``opener`` chooses the hub and opens the journal."""

    def __init__(
        self,
        game: DiceGame,
        options: Options,
        table: Table,
        opener: Opener,
        *,
        clock: Clock,
        announce: Callable[[str], None],
    ) -> None:
        kind = game.table
        self.options = options
        self.clock = clock
        setup = Setup(tuple(options.players), options.seed, options.variant)
        try:
            kind.first_event(setup)
        except ValueError as exc:
            raise InputError("tabletop run", "--players/--variant", str(exc)) from None
        journal, hub = opener()
        self.virtual = hub.virtual if hub is not None else None
        thrower = self._throw if self.virtual is not None else None
        dice = table.config.dice.count
        controller = DiceController.resume(journal, kind, dice=dice, thrower=thrower)
        if controller is None:
            controller = DiceController.start(journal, kind, setup, dice=dice, thrower=thrower)
        else:
            announce(f"tabletop run: resuming {kind.TITLE} game {controller.game_id}")
        self.controller = controller

    def _throw(self, dice: tuple[int, ...]) -> None:
        """Throw the virtual hub's ``dice``, seeded by the game's position (so a resumed
        game throws what the uninterrupted one would have)."""
        assert self.virtual is not None
        game = self.controller
        self.virtual.roll(dice, f"{self.options.seed}:{game.game_id}:{game.events}")

    def app(self, access: Access, simulated: bool, language: str) -> Starlette:
        """The dice games' page, for :func:`~firmware_host.web.server.create_app`'s options."""
        return create_app(
            self.controller, access, DICE_GAMES, simulated=simulated, language=language
        )

    def players(self, hub: HubChoice) -> Players | None:
        """The simulated players, throwing the virtual hub's dice (None without one)."""
        if hub.virtual is None:
            return None
        return hub.virtual.dice_players(
            self.controller, self.options.seed, self.clock, self.options.think
        )

    async def run(self, link: HubLink, hub: HubChoice) -> None:
        """Hand the tray's dice reports to the game (the other sensors are Drop It's)."""
        events: asyncio.Queue[HubEvent] = link.event_queue()
        while True:
            message = (await events.get()).message
            if message["type"] == "die":
                reading = DieReading(message["die"], not message["stable"], message["face"])
                self.controller.die(reading)

    def close(self) -> None:
        """Nothing beyond the journal, the link and the hub."""
