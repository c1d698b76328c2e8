"""Playing turns on a virtual hub, one drop after another, at the hub's pace.

>>> from firmware_host.config.noise import load_profile
>>> from firmware_host.config.table import load_table
>>> from firmware_host.games.dropit.rules.pieces import Color, Shape
>>> from simulator.players import Turn
>>> table = load_table()
>>> with VirtualHub(table, load_profile("clean"), seed=1, line="socket") as hub:
...     played = play(hub, [Turn(Color.RED, Shape.SQUARE, 150.0, 0.0)], threading.Event())
>>> [handle.true.pieces[-1].describe() for handle in played]
['red square']
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable

from simulator.hub import DropHandle, VirtualHub
from simulator.players import Roll, Turn

WAIT_S = 0.05
"""How often a wait for the hub re-checks ``stop``."""


def play(
    hub: VirtualHub,
    steps: Iterable[Turn | Roll],
    stop: threading.Event,
    on_drop: Callable[[DropHandle], None] | None = None,
) -> list[DropHandle]:
    """Make each drop and roll of ``steps`` on ``hub`` in order, each drop once the last
    one's events went out (so a paced hub plays in real time), until ``stop`` is set."""
    played: list[DropHandle] = []
    for step in steps:
        if stop.is_set():
            break
        if isinstance(step, Roll):
            hub.roll(step.dice)
            continue
        if step.new_game:
            hub.clear_board()
        handle = hub.drop(step.color, step.shape, step.x, step.angle)
        played.append(handle)
        if on_drop is not None:
            on_drop(handle)
        while not handle.sent.wait(WAIT_S):
            if stop.is_set():
                break
    return played
