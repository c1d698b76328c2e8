"""The noise layer: a profile's sensor-level faults applied to exact readings, from a seed.

* **beam flicker** - each beam of a strip snapshot (curtain and top gate) reads the
  opposite of the truth with probability ``beam_flicker``; on the entry gate, each beam
  shows, with that probability per drop, one spurious cut of :data:`FLICKER_PULSE_US` at a
  random moment of the drop.
* **stuck beams** - ``stuck_beams.cut`` and ``stuck_beams.clear`` beams, drawn once from
  the seed among every beam of the entry gate, the top gate and the curtain, always read
  cut (resp. clear). A stuck-clear entry beam reports no cut; a stuck-cut one reports one
  cut from the drop's release that never clears. Stuck beams do not flicker.
* **missed contacts** - each pressed edge element reads unpressed with probability
  ``missed_contacts``.

The link-level faults (lost frames, corrupted bytes, latency, unplugging) belong to the
virtual hub, which applies them on the wire.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum

from firmware_host.config.noise import SensorNoise
from firmware_host.config.table import Table
from firmware_host.sensors import BeamCut, Bits, StripSnapshot

FLICKER_PULSE_US = 1000
"""How long a spurious cut of an entry beam lasts (one hub scan, 1 ms)."""


class Gate(StrEnum):
    """The beam sensors a beam can belong to."""

    ENTRY = "entry"
    TOP = "top"
    CURTAIN = "curtain"


@dataclass(frozen=True, slots=True)
class StuckBeam:
    """Beam ``beam`` of ``gate`` always reads cut (``cut``) or always clear."""

    gate: Gate
    beam: int
    cut: bool


class NoiseLayer:
    """``noise`` on the sensors of ``table``, reproducible from ``rng``.

    The stuck beams are drawn when the layer is made; every call then draws from ``rng`` in
    a fixed order, so the same seed and the same calls give the same readings.
    """

    def __init__(self, table: Table, noise: SensorNoise, rng: random.Random) -> None:
        self.noise = noise
        self._rng = rng
        sizes = {
            Gate.ENTRY: len(table.entry_beams),
            Gate.TOP: len(table.top_gate_heights),
            Gate.CURTAIN: len(table.curtain_heights),
        }
        every = [(gate, i) for gate, size in sizes.items() for i in range(size)]
        wanted = min(noise.stuck_beams.cut + noise.stuck_beams.clear, len(every))
        chosen = rng.sample(every, wanted)
        self.stuck = tuple(
            StuckBeam(gate, i, n < noise.stuck_beams.cut) for n, (gate, i) in enumerate(chosen)
        )

    def _stuck_on(self, gate: Gate) -> dict[int, bool]:
        return {s.beam: s.cut for s in self.stuck if s.gate is gate}

    def snapshot(self, exact: StripSnapshot) -> StripSnapshot:
        """``exact`` as the noisy sensors read it."""
        return StripSnapshot(
            self._beams(exact.curtain, Gate.CURTAIN),
            self._beams(exact.top_gate, Gate.TOP),
            self._contacts(exact.left),
            self._contacts(exact.bottom),
            self._contacts(exact.right),
        )

    def _beams(self, exact: Bits, gate: Gate) -> Bits:
        stuck = self._stuck_on(gate)
        value = exact.value
        flicker = self.noise.beam_flicker
        for i in range(exact.length):
            if self._rng.random() < flicker and i not in stuck:
                value ^= 1 << i
        bits = Bits(exact.length, value)
        for i, cut in stuck.items():
            bits = bits.with_bit(i, cut)
        return bits

    def _contacts(self, exact: Bits) -> Bits:
        value = exact.value
        missed = self.noise.missed_contacts
        for i in exact.indices():
            if self._rng.random() < missed:
                value &= ~(1 << i)
        return Bits(exact.length, value)

    def entry(
        self, exact: tuple[BeamCut, ...], beams: int, start_us: int, end_us: int
    ) -> tuple[BeamCut, ...]:
        """The entry gate's ``exact`` cuts of a drop released at ``start_us`` and settled at
        ``end_us``, as its ``beams`` noisy beams report them."""
        stuck = self._stuck_on(Gate.ENTRY)
        cuts = [cut for cut in exact if cut.beam not in stuck]
        cuts += [BeamCut(beam, start_us, None) for beam, cut in stuck.items() if cut]
        for beam in range(beams):
            if self._rng.random() < self.noise.beam_flicker and beam not in stuck:
                at = self._rng.randint(start_us, max(start_us, end_us - FLICKER_PULSE_US))
                cuts.append(BeamCut(beam, at, at + FLICKER_PULSE_US))
        return tuple(sorted(cuts, key=lambda c: (c.cut_us, c.beam)))
