"""Scanning and debouncing the hub's inputs, turned into event dicts; no hardware in it.

A change counts when two samples in a row agree: an input that reads differently from
its debounced state in one sample and the same way in the next changes state, stamped
with the time of the first of the two samples (when the change was first seen). A
one-sample glitch never produces an event.

Bit vectors are ints (bit i = beam or element i; 1 = cut, blocked or pressed). Runs under
MicroPython and CPython (see engine.py for the annotation convention).
"""

try:
    import wire
except ImportError:
    from firmware_host.link import wire


class Debouncer:
    """Debounces ``count`` binary inputs read together as one int."""

    def __init__(self, count: int) -> None:
        self.mask = (1 << count) - 1
        self.stable = 0
        self.last = 0

    def sample(self, bits: int) -> int:
        """Take one sample; return the mask of inputs whose debounced state changed."""
        bits &= self.mask
        changed = (bits ^ self.stable) & ~(bits ^ self.last) & self.mask
        self.last = bits
        self.stable ^= changed
        return changed


class ValueDebouncer:
    """Debounces one value (a die's face or rolling, a piece tag): two equal reads in a row."""

    def __init__(self, initial: object) -> None:
        self.stable = initial
        self.last = initial

    def sample(self, value: object) -> bool:
        """Take one read; True if the debounced value changed to it."""
        changed = value == self.last and value != self.stable
        self.last = value
        if changed:
            self.stable = value
        return changed


ROLLING = -1
"""A die's reading while it moves (faces are 0-5)."""


def bits_to_bytes(bits: int, count: int) -> bytes:
    """A bit vector as the protocol's bitmap bytes (element 0 = bit 0 of byte 0)."""
    out = bytearray((count + 7) // 8)
    for i in range(len(out)):
        out[i] = (bits >> (8 * i)) & 0xFF
    return bytes(out)


class Scanner:
    """The debounced state of every input, producing event dicts for the engine.

    ``counts`` gives the sizes: ``entry_beams``, ``top_beams``, ``curtain``, ``edge``,
    ``dice``. Call :meth:`sample` once per scan period with the raw readings.
    """

    def __init__(self, counts: dict) -> None:
        self.counts = counts
        self.gates = (Debouncer(counts["entry_beams"]), Debouncer(counts["top_beams"]))
        self.strips = (Debouncer(counts["curtain"]), Debouncer(counts["edge"]))
        self.dice = [ValueDebouncer(ROLLING) for _ in range(counts["dice"])]
        self.tag = ValueDebouncer(b"")
        self.previous_us = 0

    def sample(
        self, t_us: int, entry: int, top: int, curtain: int, edge: int, dice: list, tag: bytes
    ) -> list:
        """One scan's raw readings -> the events it confirms (time-ordered as read)."""
        first_seen = self.previous_us
        self.previous_us = t_us
        events = []
        for gate, (debouncer, bits) in enumerate(zip(self.gates, (entry, top))):
            changed = debouncer.sample(bits)
            beam = 0
            while changed:
                if changed & 1:
                    cut = bool((debouncer.stable >> beam) & 1)
                    events.append(
                        {"type": "gate", "gate": gate, "beam": beam, "cut": cut, "t_us": first_seen}
                    )
                changed >>= 1
                beam += 1
        for index, (debouncer, bits) in enumerate(zip(self.strips, (curtain, edge))):
            if debouncer.sample(bits):
                events.append(self._bitmap(wire.CURTAIN + index, first_seen))
        for die, (debouncer, face) in enumerate(zip(self.dice, dice)):
            if debouncer.sample(face):
                events.append(self._die(die, first_seen))
        if self.tag.sample(tag):
            events.append({"type": "piece", "t_us": first_seen, "tag": self.tag.stable})
        return events

    def _bitmap(self, source: int, t_us: int) -> dict:
        if source < wire.CURTAIN:
            debouncer, count = (
                self.gates[source],
                (self.counts["entry_beams"], self.counts["top_beams"])[source],
            )
        else:
            debouncer = self.strips[source - wire.CURTAIN]
            count = (self.counts["curtain"], self.counts["edge"])[source - wire.CURTAIN]
        return {
            "type": "bitmap",
            "source": source,
            "t_us": t_us,
            "length": count,
            "bits": bits_to_bytes(debouncer.stable, count),
        }

    def _die(self, die: int, t_us: int) -> dict:
        face = self.dice[die].stable
        stable = face != ROLLING
        return {
            "type": "die",
            "die": die,
            "stable": stable,
            "face": face if stable else None,
            "t_us": t_us,
        }

    def snapshot(self, t_us: int) -> list:
        """The whole debounced state as events: four bitmaps, every die, the tag."""
        events = [self._bitmap(source, t_us) for source in range(4)]
        events += [self._die(die, t_us) for die in range(len(self.dice))]
        events.append({"type": "piece", "t_us": t_us, "tag": self.tag.stable})
        return events
