"""What the dice tray reports: for each die, rolling or stable, and the face once stable.

Smart dice report a change when a die starts rolling and when it comes to rest on a face.
The simulator's dice (:mod:`simulator.dice`) emit these; the games read them.

>>> DieReading(2, rolling=False, face=4)
DieReading(die=2, rolling=False, face=4)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DieReading:
    """Die ``die`` (0-based) is ``rolling``, or stable with face index ``face`` (0-based)
    up; ``face`` is None while it rolls."""

    die: int
    rolling: bool
    face: int | None

    def __post_init__(self) -> None:
        if self.rolling != (self.face is None):
            raise ValueError("a rolling die has no face; a stable one has exactly one")
