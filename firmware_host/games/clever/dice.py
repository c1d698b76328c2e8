"""The dice: what a roll shows, and a seeded roller for the simulator and the tests.

The engine is given dice values, never rolls them itself: the hub reports each die's face
index once the die is still, and :class:`VirtualDice` stands in for the hub when the table
plays without one. Either way a roll becomes a
:class:`~firmware_host.games.clever.events.DiceRolled` event.

>>> from firmware_host.games.clever.layout import load_layout
>>> dice = VirtualDice(load_layout(), seed=1)
>>> roll = dice.roll("Olivia")
>>> len(roll.faces), all(0 <= f < 6 for f in roll.faces)
(5, True)
>>> VirtualDice(load_layout(), seed=1).roll("Olivia") == roll
True
"""

from __future__ import annotations

import random

from firmware_host.games.clever.events import DiceRolled
from firmware_host.games.clever.layout import FACES, Face, Layout


def faces_shown(layout: Layout, faces: tuple[int, ...]) -> tuple[Face, ...]:
    """The face each die shows, from the face indices of a roll (ValueError if impossible)."""
    if len(faces) != len(layout.dice):
        raise ValueError(f"a roll has {len(layout.dice)} dice, got {len(faces)} faces")
    for d, f in enumerate(faces):
        if not 0 <= f < FACES:
            raise ValueError(f"die {d} has faces 0 to {FACES - 1}, got {f}")
    return tuple(die[f] for die, f in zip(layout.dice, faces, strict=True))


class VirtualDice:
    """Five virtual dice, fair and reproducible: the same seed gives the same rolls."""

    def __init__(self, layout: Layout, seed: int) -> None:
        self.layout = layout
        self.random = random.Random(seed)

    def roll(self, player: str) -> DiceRolled:
        """``player`` rolls all the dice."""
        return DiceRolled(player, tuple(self.random.randrange(FACES) for _ in self.layout.dice))
