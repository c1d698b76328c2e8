"""Virtual dice: a roll goes rolling, then each die comes to rest on a face after a delay.

The delay and the face come from a seed; time comes from an injected clock (seconds, any
monotonic origin), so tests move a fake clock on instead of waiting. Every change is a
:class:`~firmware_host.sensors.DieReading`, what the hub reports for real dice.

>>> now = [0.0]
>>> dice = VirtualDice(count=2, faces=6, seed=1, clock=lambda: now[0])
>>> dice.roll()
[DieReading(die=0, rolling=True, face=None), DieReading(die=1, rolling=True, face=None)]
>>> now[0] = 5.0
>>> [(r.die, r.rolling) for r in dice.poll()]   # in the order they came to rest
[(1, False), (0, False)]
>>> dice.poll()
[]
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from firmware_host.config.table import Table
from firmware_host.sensors import DieReading

Clock = Callable[[], float]
"""Returns the time in seconds."""

ROLL_TIME_S = (0.6, 2.5)
"""A rolled die comes to rest after a delay uniform in this range (seconds)."""


class VirtualDice:
    """``count`` dice of ``faces`` faces, at rest on faces drawn from ``seed`` at first."""

    def __init__(
        self,
        count: int,
        faces: int,
        seed: int,
        clock: Clock,
        roll_time: tuple[float, float] = ROLL_TIME_S,
    ) -> None:
        if not 0 <= roll_time[0] <= roll_time[1]:
            raise ValueError(f"roll_time must be (low, high) with 0 <= low <= high: {roll_time}")
        self.faces = faces
        self.roll_time = roll_time
        self._clock = clock
        self._rng = random.Random(seed)
        self._state = [DieReading(die, False, self._rng.randrange(faces)) for die in range(count)]
        self._landing: dict[int, tuple[float, int]] = {}

    @classmethod
    def of_table(cls, table: Table, seed: int, clock: Clock) -> VirtualDice:
        """The dice of ``table``'s tray."""
        return cls(table.config.dice.count, table.config.dice.faces, seed, clock)

    @property
    def readings(self) -> tuple[DieReading, ...]:
        """Every die's present reading, die 0 first (as of the last :meth:`poll`)."""
        return tuple(self._state)

    def roll(self, dice: Iterable[int] | None = None, seed: str | None = None) -> list[DieReading]:
        """Throw ``dice`` (every die by default): each starts rolling now. Returns the changes.

        Each die's resting time and face are drawn now, die by die in the order given: from
        the dice's own stream, or, given ``seed``, from a generator of that seed alone (the
        same throw whatever was thrown before: a game resumed from its journal throws on as
        it would have).
        """
        rng = self._rng if seed is None else random.Random(seed)
        now = self._clock()
        changes = []
        for die in range(len(self._state)) if dice is None else dice:
            if not 0 <= die < len(self._state):
                raise ValueError(f"no die {die} (dice 0..{len(self._state) - 1})")
            rest = now + rng.uniform(*self.roll_time)
            self._landing[die] = (rest, rng.randrange(self.faces))
            self._state[die] = DieReading(die, True, None)
            changes.append(self._state[die])
        return changes

    def poll(self) -> list[DieReading]:
        """The dice that came to rest since the last poll, in the order they did."""
        now = self._clock()
        landed = sorted((at, die, face) for die, (at, face) in self._landing.items() if at <= now)
        changes = []
        for _, die, face in landed:
            del self._landing[die]
            self._state[die] = DieReading(die, False, face)
            changes.append(self._state[die])
        return changes
