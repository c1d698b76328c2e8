"""Reading a throw from the dice tray: only dice that were thrown and have come to rest.

The hub reports each die as rolling, or at rest on a face (:class:`DieReading`). A game
waiting for a throw (:class:`~firmware_host.games.table_game.Roll`) gets its faces once every die
it names has come to rest after the game asked: a die still rolling is never read, and a
die that was already lying still when the game asked counts only once it is thrown again.

>>> from firmware_host.games.table_game import Roll
>>> tray = DiceTray(2)
>>> tray.want(Roll((0, 1), "Ann"))
>>> tray.see(DieReading(0, True, None)), tray.see(DieReading(1, True, None))
(None, None)
>>> tray.see(DieReading(0, False, 4))
>>> tray.see(DieReading(1, False, 2))
(4, 2)
"""

from __future__ import annotations

from firmware_host.games.table_game import Roll
from firmware_host.sensors import DieReading


class DiceTray:
    """The tray's ``count`` dice, and the throw the game waits for."""

    def __init__(self, count: int) -> None:
        self.count = count
        self._faces: list[int | None] = [None] * count
        self._thrown: list[bool] = [False] * count
        self._wanted: Roll | None = None

    @property
    def wanted(self) -> Roll | None:
        """The throw being waited for, or ``None``."""
        return self._wanted

    def rolling(self) -> tuple[int, ...]:
        """The dice rolling now (their faces are unknown)."""
        return tuple(d for d in range(self.count) if self._thrown[d] and self._faces[d] is None)

    def want(self, roll: Roll | None) -> None:
        """Wait for ``roll`` (``None``: for no throw). Dice already at rest must be thrown
        again to count; dice rolling now count when they land."""
        if roll is not None:
            for die in roll.dice:
                if not 0 <= die < self.count:
                    raise ValueError(f"the game wants die {die}; the tray has {self.count}")
        if roll != self._wanted:
            self._thrown = [self._faces[d] is None and self._thrown[d] for d in range(self.count)]
        self._wanted = roll

    def see(self, reading: DieReading) -> tuple[int, ...] | None:
        """Take one report from the tray; the faces of the wanted throw (in the order the
        roll names its dice) once it is complete, else ``None``. A report of a die the tray
        does not have raises :class:`ValueError`."""
        if not 0 <= reading.die < self.count:
            raise ValueError(f"a report of die {reading.die}; the tray has {self.count}")
        self._faces[reading.die] = reading.face
        if reading.rolling:
            self._thrown[reading.die] = True
        return self._complete()

    def _complete(self) -> tuple[int, ...] | None:
        roll = self._wanted
        if roll is None or not roll.dice:
            return None
        faces: list[int] = []
        for d in roll.dice:
            face = self._faces[d]
            if not self._thrown[d] or face is None:
                return None
            faces.append(face)
        for die in roll.dice:
            self._thrown[die] = False
        self._wanted = None
        return tuple(faces)
