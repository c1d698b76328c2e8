"""What the table's sensors report for one drop: the record the referee's eye judges from.

The simulator's true world makes these (through the forward models and the noise layer);
on the host they are assembled from the hub's events. The eye sees nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware_host.sensors.entry_gate import BeamCut
from firmware_host.sensors.strips import StripSnapshot


@dataclass(frozen=True, slots=True)
class DropEntry:
    """What the sensors report of a drop once the piece has gone through the entry gate,
    on the hub's clock (microseconds): the piece reader's ``tag`` (None without a reader),
    ``released_us`` and the entry gate's cuts so far (``clear_us`` None: still cut).

    The eye starts on it (:meth:`firmware_host.eye.Eye.begin`) while the piece still falls
    and settles; the drop's :class:`DropReadings` finish the look.
    """

    tag: str | None
    released_us: int
    entry: tuple[BeamCut, ...]


@dataclass(frozen=True, slots=True)
class DropReadings:
    """What the table's sensors report for one drop, on the hub's clock (microseconds).

    ``tag`` is the piece reader's tag of the dropped piece (None without a reader);
    ``entry`` the entry gate's cuts; ``strips`` the snapshot once everything settled at
    ``settled_us``.
    """

    tag: str | None
    released_us: int
    entry: tuple[BeamCut, ...]
    settled_us: int
    strips: StripSnapshot

    @property
    def entered(self) -> DropEntry:
        """The entry part of these readings (all of the entry gate's cuts)."""
        return DropEntry(self.tag, self.released_us, self.entry)
