"""How likely a strip snapshot is, given the snapshot a candidate predicts.

The sensor noise model (docs/eye.md): every curtain and top-gate beam independently reads
other than predicted with probability ``beam_error`` (flicker, a stuck beam, and the
candidate's own pose error of a millimetre or two at a beam's edge); a pressed edge
element reads unpressed with ``contact_missed``, an unpressed one pressed with
``contact_extra``. Bits are independent, so the log-likelihood is a sum per bit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from firmware_host.eye.config import Likelihood
from firmware_host.sensors.bits import Bits
from firmware_host.sensors.strips import StripSnapshot


@dataclass(frozen=True, slots=True)
class Fit:
    """A candidate's log-likelihood of the readings and how many bits it fails to explain."""

    log_likelihood: float
    mismatches: int


class StripLikelihood:
    """Weighs predicted strip snapshots against the one read, under ``model``."""

    def __init__(self, model: Likelihood) -> None:
        self.beam_hit = math.log(1 - model.beam_error)
        self.beam_miss = math.log(model.beam_error)
        self.pressed = (math.log(1 - model.contact_missed), math.log(model.contact_missed))
        self.free = (math.log(1 - model.contact_extra), math.log(model.contact_extra))

    def fit(self, predicted: StripSnapshot, read: StripSnapshot) -> Fit:
        """The log-likelihood of ``read`` when the board is as ``predicted``."""
        total, wrong = 0.0, 0
        for p, r in ((predicted.curtain, read.curtain), (predicted.top_gate, read.top_gate)):
            n = _differ(p, r)
            wrong += n
            total += n * self.beam_miss + (len(p) - n) * self.beam_hit
        for p, r in (
            (predicted.left, read.left),
            (predicted.bottom, read.bottom),
            (predicted.right, read.right),
        ):
            for want, got in zip(p, r, strict=True):
                odds = self.pressed if want else self.free
                total += odds[want != got]
                wrong += want != got
        return Fit(total, wrong)


def _differ(a: Bits, b: Bits) -> int:
    return (a.value ^ b.value).bit_count()
