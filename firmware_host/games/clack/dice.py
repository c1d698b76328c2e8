"""Clack!'s two dice as events: from the hub's face indices, or thrown by seeded virtual dice.

The hub reports each die as (die id, stable, face index); once both are stable the face
indices become a :class:`~firmware_host.games.clack.events.DiceRolled` through the faces
listed in the disc set.

>>> from firmware_host.games.clack.discs import load_disc_set
>>> discs = load_disc_set()
>>> roll_from_faces(discs, 1, shape_index=5, color_index=3)
DiceRolled(round=1, shape='white', color='blue')
>>> VirtualDice(discs, seed=7).roll(1) == VirtualDice(discs, seed=7).roll(1)
True
"""

from __future__ import annotations

import random

from firmware_host.errors import InputError
from firmware_host.games.clack.discs import DiscSet
from firmware_host.games.clack.events import DiceRolled


def roll_from_faces(discs: DiscSet, round: int, shape_index: int, color_index: int) -> DiceRolled:
    """The roll the two dice show, given each die's face index (0-based, as the hub reports)."""
    for die, index, faces in (
        ("shape die", shape_index, discs.shape_die),
        ("colour die", color_index, discs.color_die),
    ):
        if not 0 <= index < len(faces):
            raise InputError(die, "face index", f"expected 0..{len(faces) - 1}, got {index}")
    return DiceRolled(
        round=round, shape=discs.shape_die[shape_index], color=discs.color_die[color_index]
    )


class VirtualDice:
    """Both dice thrown by a seeded random generator: the same seed gives the same rolls."""

    def __init__(self, discs: DiscSet, seed: int) -> None:
        self._discs = discs
        self._random = random.Random(seed)

    def roll(self, round: int) -> DiceRolled:
        """Throw both dice for round ``round``."""
        return roll_from_faces(
            self._discs,
            round,
            shape_index=self._random.randrange(len(self._discs.shape_die)),
            color_index=self._random.randrange(len(self._discs.color_die)),
        )
