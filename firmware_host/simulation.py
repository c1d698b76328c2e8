"""The seam the simulator plugs into: ``firmware_host`` never imports it.

As a hub is found through its port and a camera through its source, the simulator is found
through the entry points of :data:`GROUP` (the installed package's metadata, declared in
``pyproject.toml``), as pytest finds its plugins:

* ``sim``: the module of the ``tabletop sim`` command group (``register(subparsers)``);
* ``virtual_table``: a :class:`VirtualTableFactory`, what ``tabletop run --sim`` plays on:
  a virtual hub at a URL, the camera showing its true board, the hand and the players.

Without the simulator installed, :func:`plugged` says so in one line (exit status 2).

>>> plugged("no such part", "tabletop run")
Traceback (most recent call last):
...
firmware_host.errors.InputError: tabletop run: the simulator is not installed ...
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any, Protocol

from firmware_host.errors import InputError

if TYPE_CHECKING:
    from firmware_host.camera.sources import FrameSource
    from firmware_host.config.board import EdgeFace
    from firmware_host.config.noise import NoiseProfile
    from firmware_host.config.table import Table
    from firmware_host.games.dropit.state import Drop
    from firmware_host.outputs.clock import Clock
    from firmware_host.service.controller import DropItController
    from firmware_host.service.dice_controller import DiceController

GROUP = "tabletop.simulator"
"""The entry point group the simulator registers its parts in."""


def plugged(name: str, asked_by: str) -> Any:
    """The simulator's part ``name``, loaded; a missing one raises :class:`InputError`
    naming ``asked_by`` (the command or option that needs it)."""
    found = entry_points(group=GROUP, name=name)
    if not found:
        problem = f"the simulator is not installed (no {name!r} in the {GROUP!r} entry points)"
        raise InputError(asked_by, "", problem)
    return next(iter(found)).load()


class Players(Protocol):
    """Simulated players at a table."""

    async def play(self) -> None:
        """Play until the game is over."""
        ...


class Hand(Protocol):
    """The simulated players' hand: lets their pieces go into the virtual table's world."""

    edges: EdgeFace
    """The game's edges face (the hand judges its honest answers with it)."""

    def replay(self, drops: Iterable[Drop]) -> None:
        """Drop a resumed game's ``drops`` into the world again, as they were aimed."""
        ...

    def players(
        self, table: DropItController, clock: Clock, think: float, *, answers: bool
    ) -> Players:
        """Players of every seat of ``table``'s game, dropping with this hand, pausing
        ``think`` seconds of ``clock``; ``answers``: they answer the referee's questions."""
        ...


class VirtualTable(Protocol):
    """A simulated table: a virtual hub serving at :attr:`url`, and what plays at it."""

    @property
    def url(self) -> str:
        """Where the host connects, as to any hub."""
        ...

    def start(self) -> VirtualTable:
        """Start serving the hub."""
        ...

    def stop(self) -> None:
        """Stop serving the hub."""
        ...

    def clear_board(self) -> None:
        """Empty the board (a new game)."""
        ...

    def roll(self, dice: Iterable[int] | None = None, seed: str | None = None) -> object:
        """Throw the tray's ``dice`` (all by default), seeded by ``seed``."""
        ...

    def camera(self, seed: int) -> Callable[[], FrameSource]:
        """What opens the camera showing the true board, seeded by ``seed``."""
        ...

    def hand(self, seed: int, edges: EdgeFace) -> Hand:
        """The players' hand, aiming from ``seed``, for a game with ``edges``."""
        ...

    def dice_players(self, table: DiceController, seed: int, clock: Clock, think: float) -> Players:
        """Players of ``table``'s dice game, throwing this table's dice."""
        ...


class VirtualTableFactory(Protocol):
    """The ``virtual_table`` entry point: a virtual table for ``table`` with noise
    ``profile`` from ``seed``, its events paced at ``speed`` times real time (None: at
    once)."""

    def __call__(
        self, table: Table, profile: NoiseProfile, seed: int, *, speed: float | None
    ) -> VirtualTable: ...
