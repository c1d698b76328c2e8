"""Watching the gates while the technician passes a hand through them: every beam the
table uses should be seen cut at least once and clear at least once.

A beam never seen cut is dead, unplugged or misaligned; a beam never seen clear is
blocked (dust, a piece stuck in the gate) or its receiver is broken. The hub's snapshot
(one ``bitmap`` per gate) gives the state at the start; ``gate`` events give each change.

>>> watch = GateWatch(entry=3, top=1)
>>> watch.feed({"type": "bitmap", "source": 0, "length": 3, "bits": bytes([0b100])})
>>> watch.feed({"type": "gate", "gate": 0, "beam": 0, "cut": True, "t_us": 5})
>>> watch.feed({"type": "gate", "gate": 1, "beam": 0, "cut": True, "t_us": 6})
>>> watch.feed({"type": "gate", "gate": 1, "beam": 0, "cut": False, "t_us": 7})
>>> watch.never_cut("entry"), watch.never_clear("entry"), watch.never_cut("top")
([1], [2], [])
"""

from __future__ import annotations

from typing import Any

from firmware_host.i18n import Message, lazy_n
from firmware_host.link import wire

GATES = {wire.ENTRY_GATE: "entry", wire.TOP_GATE: "top"}
"""Gate numbers on the wire and their names."""


class GateWatch:
    """What each beam of the entry gate (``entry`` beams) and top gate (``top``) was seen
    doing; beams past those counts (the hub may have spare channels) are ignored."""

    def __init__(self, entry: int, top: int) -> None:
        self.counts = {"entry": entry, "top": top}
        self.cut: dict[str, set[int]] = {"entry": set(), "top": set()}
        self.clear: dict[str, set[int]] = {"entry": set(), "top": set()}
        self.seen = 0
        """Gate events and gate bitmaps fed so far."""

    def feed(self, message: dict[str, Any]) -> None:
        """Take one hub event (anything but a gate event or gate bitmap is ignored)."""
        kind = message.get("type")
        if kind == "gate" and message["gate"] in GATES:
            self._beam(GATES[message["gate"]], message["beam"], bool(message["cut"]))
        elif kind == "bitmap" and message["source"] in GATES:
            name = GATES[message["source"]]
            bits = int.from_bytes(message["bits"], "little")
            for beam in range(min(message["length"], self.counts[name])):
                self._beam(name, beam, bool(bits >> beam & 1))
        else:
            return
        self.seen += 1

    def never_cut(self, gate: str) -> list[int]:
        """Beams of ``gate`` (``"entry"`` or ``"top"``) never seen cut, from the left."""
        return [b for b in range(self.counts[gate]) if b not in self.cut[gate]]

    def never_clear(self, gate: str) -> list[int]:
        """Beams of ``gate`` never seen clear."""
        return [b for b in range(self.counts[gate]) if b not in self.clear[gate]]

    def _beam(self, gate: str, beam: int, cut: bool) -> None:
        if beam < self.counts[gate]:
            (self.cut if cut else self.clear)[gate].add(beam)


def beam_list(beams: list[int]) -> Message:
    """Beam numbers as people count them (from 1), runs shortened.

    >>> str(beam_list([0, 1, 2, 6, 9, 10]))
    'beams 1-3, 7, 10-11'
    >>> str(beam_list([4]))
    'beam 5'
    """
    runs: list[list[int]] = []
    for beam in beams:
        if runs and runs[-1][-1] == beam - 1:
            runs[-1].append(beam)
        else:
            runs.append([beam])
    parts = [f"{r[0] + 1}-{r[-1] + 1}" if len(r) > 1 else f"{r[0] + 1}" for r in runs]
    return lazy_n("beam {numbers}", "beams {numbers}", len(beams), numbers=", ".join(parts))
