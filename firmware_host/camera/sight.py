"""What the camera saw of one still board: every known piece located, checked by physics.

:class:`Sight` is the camera's whole pipeline for the referee, the same for
``tabletop camera look``, the service and ``tabletop sim eval``: frames of one still scene
(:class:`~firmware_host.camera.scene.LookFrames`), every known piece located from its
prior (:class:`~firmware_host.camera.locate.Locator`), pieces located into each other
moved apart (:func:`~firmware_host.camera.overlaps.part_overlaps`), the located board
checked against the pymunk model (:func:`~firmware_host.camera.reconcile.disagreements`).
A look that cannot find the board raises
:class:`~firmware_host.camera.markers.BoardNotFound`; the referee then judges from the
strips and gates alone.

>>> from firmware_host.config.table import load_table
>>> from firmware_host.model import load_params
>>> table = load_table()
>>> sight = Sight(table.board, table.camera, load_params())
>>> sight.see([], [], [])
Traceback (most recent call last):
...
firmware_host.camera.markers.BoardNotFound: no frames
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from firmware_host.camera.locate import Known, Located, Locator
from firmware_host.camera.overlaps import part_overlaps
from firmware_host.camera.reconcile import disagreements
from firmware_host.camera.scene import LookFrames
from firmware_host.camera.setup import CameraSetup
from firmware_host.config.board import Board
from firmware_host.games.dropit.rules.pieces import Color, Piece
from firmware_host.model.params import PhysicsParams


@dataclass(frozen=True)
class Seen:
    """One look's result: every known piece located or unseen (in the order asked), the
    seen pieces the physics cannot hold where the camera saw them, the marker ids found."""

    located: tuple[Located, ...]
    held_wrong: tuple[str, ...]
    markers: tuple[int, ...]

    def board(self) -> tuple[Piece, ...]:
        """Every piece at its located pose (an unseen one at its prior; one with neither is
        left out)."""
        return tuple(p.piece() for p in self.located if p.pose is not None)


class Sight:
    """The camera's eye on ``board`` for the camera ``setup``; ``params`` are the host's
    physics (to check the located board); ``colors`` a café's calibrated piece colours."""

    def __init__(
        self,
        board: Board,
        setup: CameraSetup,
        params: PhysicsParams,
        colors: Mapping[Color, tuple[float, float, float]] | None = None,
    ) -> None:
        self.board = board
        self.setup = setup
        self.params = params
        self.locator = Locator(board, setup, colors)

    def see(
        self, frames: Sequence[np.ndarray], names: Sequence[str], known: Sequence[Known]
    ) -> Seen:
        """Locate every piece of ``known`` in ``frames`` (named ``names`` in errors) of one
        still scene; :class:`~firmware_host.camera.markers.BoardNotFound` when no frame
        shows the board."""
        look = LookFrames(self.setup.markers, frames, names)
        located = tuple(part_overlaps(self.board, self.locator.locate(look, known)))
        return Seen(located, disagreements(self.board, self.params, located), look.markers)
