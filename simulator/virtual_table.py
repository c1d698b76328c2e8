"""The virtual table ``tabletop run --sim`` plays on: the virtual hub, and what plays at it.

The product finds :class:`VirtualTable` through the ``virtual_table`` entry point
(:mod:`firmware_host.simulation`) and connects to its :attr:`~simulator.hub.VirtualHub.url`
as to any hub; the camera it opens shows the true board, the hand
(:class:`~simulator.virtual_hand.VirtualHand`) lets the simulated players' pieces go and
the players (:mod:`simulator.autoplay`, :mod:`simulator.dice_autoplay`) play every seat.
"""

from __future__ import annotations

from collections.abc import Callable

from firmware_host.camera.sources import FrameSource
from firmware_host.config.board import EdgeFace
from firmware_host.outputs.clock import Clock
from firmware_host.service.dice_controller import DiceController
from simulator.dice_autoplay import DicePlayers
from simulator.hub import VirtualHub
from simulator.virtual_camera import VirtualCamera, VirtualCameraSource
from simulator.virtual_hand import VirtualHand


class VirtualTable(VirtualHub):
    """A :class:`~simulator.hub.VirtualHub` with the table's camera, hand and players."""

    def camera(self, seed: int) -> Callable[[], FrameSource]:
        """What opens the virtual camera (seeded by ``seed``) on the true world as it is
        now, its looks numbered by the world's drops."""
        camera = VirtualCamera(self.table, self.profile, seed)
        world = self.world
        return lambda: VirtualCameraSource(camera, lambda: world.pieces, lambda: world.drops)

    def hand(self, seed: int, edges: EdgeFace) -> VirtualHand:
        """The simulated players' hand, aiming from ``seed``."""
        return VirtualHand(self, seed, edges)

    def dice_players(
        self, table: DiceController, seed: int, clock: Clock, think: float
    ) -> DicePlayers:
        """Players of ``table``'s dice game (its thrower throws this hub's dice)."""
        return DicePlayers(table, seed, clock, think)
