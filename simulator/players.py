"""Who drops on the virtual hub: a script, or autoplay players.

**Script** (YAML, ``tabletop sim hub --script FILE``): the drops to make, in order, and
dice rolls between them::

    version: 1
    drops:
      - {color: red, shape: square, x: 150, angle: 0}   # x in mm, angle in degrees
      - {color: blue, shape: triangle, x: 60, angle: 30}
      - roll: all                                       # or a list of dice: [0, 2]
      - {color: yellow, shape: circle, x: 220}          # angle defaults to 0

The hand still jitters as the noise profile says (seeded): a script says what the
player meant. **Autoplay**: four players drop the whole supply in the order of
:mod:`firmware_host.model.supply` (drop ``k`` is ``supply_piece(k)``), each choosing an
angle uniform in [0, 360) and then an x uniform over where the turned piece fits between
the walls, from ``random.Random(f"{seed}:players")``; after 36 drops a new game starts on
an empty board.

>>> from firmware_host.config.table import load_table
>>> players = Autoplay(load_table(), seed=1)
>>> [(turn.color.value, turn.shape.value) for turn in itertools.islice(players, 3)]
[('red', 'circle'), ('blue', 'circle'), ('yellow', 'circle')]
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, Tag

from firmware_host.config.loader import StrictModel, load_model
from firmware_host.config.table import Table
from firmware_host.games.dropit.rules.pieces import Color, Shape
from firmware_host.model.space import reach
from firmware_host.model.supply import GAME_DROPS, supply_piece


@dataclass(frozen=True, slots=True)
class Turn:
    """A player drops ``color`` ``shape`` meaning ``x`` (mm) and ``angle`` (degrees);
    ``new_game``: the board is emptied first."""

    color: Color
    shape: Shape
    x: float
    angle: float
    new_game: bool = False


@dataclass(frozen=True, slots=True)
class Roll:
    """Someone throws ``dice`` (None: all of them)."""

    dice: tuple[int, ...] | None


class ScriptDrop(StrictModel):
    """One scripted drop."""

    color: Color = Field(strict=False)
    shape: Shape = Field(strict=False)
    x: float
    angle: float = 0.0


class ScriptRoll(StrictModel):
    """One scripted dice roll."""

    roll: Literal["all"] | list[Annotated[int, Field(ge=0)]]


def _step_kind(value: Any) -> str:
    return "roll" if isinstance(value, dict) and "roll" in value else "drop"


Step = Annotated[
    Annotated[ScriptDrop, Tag("drop")] | Annotated[ScriptRoll, Tag("roll")],
    Discriminator(_step_kind),
]


class Script(StrictModel):
    """A script file."""

    version: Literal[1]
    drops: list[Step]


def load_script(path: Path | str) -> list[Turn | Roll]:
    """The turns and rolls of the script at ``path``; bad files are one :class:`InputError`."""
    script = load_model(Script, path)
    steps: list[Turn | Roll] = []
    for step in script.drops:
        if isinstance(step, ScriptRoll):
            steps.append(Roll(None if step.roll == "all" else tuple(step.roll)))
        else:
            steps.append(Turn(step.color, step.shape, step.x, step.angle))
    return steps


class Autoplay:
    """Endless turns of four players on ``table``, from ``seed`` (an iterator of Turn)."""

    def __init__(self, table: Table, seed: int) -> None:
        self.table = table
        self._rng = random.Random(f"{seed}:players")
        self._count = itertools.count()

    def __iter__(self) -> Iterator[Turn]:
        return self

    def __next__(self) -> Turn:
        k = next(self._count)
        color, shape = supply_piece(k)
        angle = self._rng.uniform(0.0, 360.0)
        board = self.table.board
        left, _, right, _ = reach(board, shape, math.radians(angle))
        x = self._rng.uniform(-left, board.width - right)
        return Turn(color, shape, x, angle, new_game=k > 0 and k % GAME_DROPS == 0)
