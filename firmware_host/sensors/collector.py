"""The "sensor events" step: the hub's events, in order, turned into one record per drop.

A :class:`DropCollector` follows the hub's events (``HubEvent`` from the link, in the
hub's order) and the table's state, and reports each drop as a :class:`DropOutcome`:

* ``SETTLED`` - the normal case: the piece reader's tag, the entry gate's cuts, and the
  strips once nothing changed for the table's ``settle.quiet`` seconds;
* ``SECOND_PIECE`` - a second piece was tagged before the first settled: the first drop's
  readings as they stood (the next drop is collected from there);
* ``JAM`` - still changing ``settle.jam`` seconds after the piece entered: the readings
  so far.

While a drop is open, :meth:`DropCollector.entered` reports, once, its entry: the tag and
the entry gate's cuts once the piece has gone through the gate (every beam cut since the
drop opened has cleared and no entry event came for :data:`ENTRY_QUIET_S`; or no entry
event came for the ``settle.quiet`` window, a beam still cut: stuck, or the piece caught
in the gate). The eye starts on it while the piece still falls and settles
(:meth:`firmware_host.eye.Eye.begin`).

A drop opens with a piece tag (or, on a table without a reader, the first entry cut);
``released_us`` is that event's hub time; ``settled_us`` the hub time of its last strip
or gate change. Beams still cut when a drop opens (a stuck beam) count as cut from its
release.

Time is the hub's. The quiet window, the jam timeout and the entry's quiet are measured
on the events' ``t_us`` (the hub's clock is the reference, as in Klipper), never on when
frames reach the host: the same events give the same drops however busy the host is. The
collector's time is the latest hub time it knows: every event's ``t_us`` and, if given,
``clock()`` (hub seconds the caller knows have passed with every event before them
delivered, e.g. from the link's clock sync). A hub that reports its time in the event
stream when nothing else happens (the virtual hub re-reports its empty piece reader)
needs no ``clock``. Call :meth:`DropCollector.poll` now and then to let drops settle.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from firmware_host.config.table import Table
from firmware_host.link.session import HubEvent
from firmware_host.sensors.bits import Bits
from firmware_host.sensors.drop import DropEntry, DropReadings
from firmware_host.sensors.entry_gate import BeamCut
from firmware_host.sensors.strips import StripSnapshot

ENTRY_GATE, TOP_GATE, CURTAIN, EDGE = 0, 1, 2, 3
"""The protocol's sensor numbers (``gate`` and ``bitmap`` sources)."""

ENTRY_QUIET_S = 0.03
"""Seconds with no entry-gate event, every beam cut having cleared, after which the piece
has gone through the gate (a piece crosses the 10 mm beams in a few ms each; the margin
keeps a flicker before the piece arrives from passing for it)."""


class Outcome(StrEnum):
    """How a drop ended."""

    SETTLED = "settled"
    SECOND_PIECE = "second_piece"
    JAM = "jam"


@dataclass(frozen=True, slots=True)
class DropOutcome:
    """One drop's end: how, and what the sensors reported."""

    outcome: Outcome
    readings: DropReadings


@dataclass
class _Drop:
    tag: str | None
    released_us: int
    opened_at: float
    entry: list[BeamCut] = field(default_factory=list)
    changed_at: float | None = None
    settled_us: int = 0
    held: int = 0
    """How many of ``entry`` were already cut when the drop opened (stuck beams)."""
    entry_at: float | None = None
    """When the last entry-gate event came (None: none yet)."""
    entered: bool = False
    """Whether :meth:`DropCollector.entered` reported this drop's entry."""


def _bits(message: dict[str, Any], length: int) -> Bits:
    value = int.from_bytes(bytes(message["bits"]), "little") & ((1 << length) - 1)
    return Bits(length, value)


class DropCollector:
    """Assembles :class:`DropReadings` for ``table`` from the hub's events.

    >>> from firmware_host.config.table import load_table
    >>> collector = DropCollector(load_table())
    >>> def event(seq, **message):
    ...     return HubEvent(seq, message, message["t_us"], None)
    >>> collector.feed(event(0, type="piece", tag=b"red-square", t_us=10))
    []
    >>> collector.feed(event(1, type="gate", gate=0, beam=4, cut=True, t_us=20))
    []
    >>> collector.feed(event(2, type="gate", gate=0, beam=4, cut=False, t_us=30))
    []
    >>> collector.poll()  # the hub has told no later time: still open
    []
    >>> done = collector.feed(event(3, type="piece", tag=b"", t_us=1_000_000))
    >>> [(o.outcome, o.readings.tag, o.readings.entry) for o in done]
    [(<Outcome.SETTLED: 'settled'>, 'red-square', (BeamCut(beam=4, cut_us=20, clear_us=30),))]
    """

    def __init__(self, table: Table, clock: Callable[[], float] | None = None) -> None:
        self.table = table
        self.hub_clock = clock
        self.now = 0.0
        """The latest hub time known (seconds)."""
        self.quiet = table.config.settle.quiet
        self.jam = table.config.settle.jam
        edge = table.config.edge_strip.count
        self._sides = (edge.left, edge.bottom, edge.right)
        self.entry = Bits(len(table.entry_beams))
        self.strips = StripSnapshot(
            Bits(len(table.curtain_heights)),
            Bits(len(table.top_gate_heights)),
            Bits(edge.left),
            Bits(edge.bottom),
            Bits(edge.right),
        )
        self._drop: _Drop | None = None

    @property
    def collecting(self) -> bool:
        """True while a drop is open."""
        return self._drop is not None

    def entered(self) -> DropEntry | None:
        """The open drop's entry once the piece has gone through the entry gate by now
        (reported once per drop; None otherwise). Ask after each :meth:`feed` and
        :meth:`poll`: a drop that ends first is never reported here."""
        drop = self._drop
        if drop is None or drop.entered or drop.entry_at is None:
            return None
        quiet = self.clock() - drop.entry_at
        cleared = all(cut.clear_us is not None for cut in drop.entry[drop.held :])
        if quiet < (ENTRY_QUIET_S if cleared else self.quiet):
            return None
        drop.entered = True
        return DropEntry(drop.tag, drop.released_us, tuple(drop.entry))

    def feed(self, event: HubEvent) -> list[DropOutcome]:
        """Take the next event; returns the drops it (or the time since the last) ended."""
        self.now = max(self.now, event.hub_us / 1e6)
        done = self.poll()
        message = event.message
        kind = message["type"]
        if kind == "piece":
            done += self._piece(message)
        elif kind == "gate":
            self._gate(message)
        elif kind == "bitmap":
            self._bitmap(message)
        return done

    def clock(self) -> float:
        """The hub's time now (seconds), as far as the events and ``clock`` tell."""
        if self.hub_clock is not None:
            self.now = max(self.now, self.hub_clock())
        return self.now

    def poll(self) -> list[DropOutcome]:
        """The drop that went quiet (settled) or ran out of time (jam) by now, if any."""
        drop = self._drop
        if drop is None or drop.changed_at is None:
            return []
        now = self.clock()
        if now - drop.changed_at >= self.quiet:
            return [self._close(Outcome.SETTLED)]
        if now - drop.opened_at >= self.jam:
            return [self._close(Outcome.JAM)]
        return []

    def _close(self, outcome: Outcome) -> DropOutcome:
        drop = self._drop
        assert drop is not None
        self._drop = None
        settled = max(drop.settled_us, drop.released_us)
        readings = DropReadings(drop.tag, drop.released_us, tuple(drop.entry), settled, self.strips)
        return DropOutcome(outcome, readings)

    def _open(self, tag: str | None, t_us: int) -> None:
        drop = _Drop(tag, t_us, t_us / 1e6)
        drop.entry = [BeamCut(beam, t_us, None) for beam in self.entry.indices()]
        drop.held = len(drop.entry)
        self._drop = drop

    def _changed(self, t_us: int) -> None:
        drop = self._drop
        if drop is not None:
            drop.changed_at = t_us / 1e6
            drop.settled_us = t_us

    def _piece(self, message: dict[str, Any]) -> list[DropOutcome]:
        tag = bytes(message["tag"]).decode(errors="replace")
        if not tag:
            return []
        done = []
        if self._drop is not None:
            if self._drop.changed_at is None:  # tagged, never dropped: this one replaces it
                self._drop = None
            else:
                done.append(self._close(Outcome.SECOND_PIECE))
        self._open(tag, message["t_us"])
        return done

    def _gate(self, message: dict[str, Any]) -> None:
        beam, cut, t_us = message["beam"], bool(message["cut"]), message["t_us"]
        if message["gate"] == TOP_GATE:
            if beam < self.strips.top_gate.length:
                top = self.strips.top_gate.with_bit(beam, cut)
                self.strips = self._replace(top_gate=top)
                self._changed(t_us)
            return
        if not 0 <= beam < self.entry.length:
            return
        if cut and self._drop is None and not self.table.config.piece_reader.present:
            self._open(None, t_us)
        self.entry = self.entry.with_bit(beam, cut)
        drop = self._drop
        if drop is None:
            return
        if cut:
            drop.entry.append(BeamCut(beam, t_us, None))
        else:
            for i in range(len(drop.entry) - 1, -1, -1):
                if drop.entry[i].beam == beam and drop.entry[i].clear_us is None:
                    drop.entry[i] = BeamCut(beam, drop.entry[i].cut_us, t_us)
                    break
        drop.entry_at = t_us / 1e6
        self._changed(t_us)

    def _bitmap(self, message: dict[str, Any]) -> None:
        source = message["source"]
        if source == ENTRY_GATE:
            self.entry = _bits(message, self.entry.length)
            return
        if source == TOP_GATE:
            self.strips = self._replace(top_gate=_bits(message, self.strips.top_gate.length))
        elif source == CURTAIN:
            self.strips = self._replace(curtain=_bits(message, self.strips.curtain.length))
        elif source == EDGE:
            left, bottom, right = self._sides
            whole = _bits(message, left + bottom + right).value
            self.strips = self._replace(
                left=Bits(left, whole & ((1 << left) - 1)),
                bottom=Bits(bottom, (whole >> left) & ((1 << bottom) - 1)),
                right=Bits(right, whole >> (left + bottom)),
            )
        else:
            return
        self._changed(message["t_us"])

    def _replace(self, **changes: Bits) -> StripSnapshot:
        state = self.strips
        values = {
            "curtain": state.curtain,
            "top_gate": state.top_gate,
            "left": state.left,
            "bottom": state.bottom,
            "right": state.right,
        }
        values.update(changes)
        return StripSnapshot(**values)
