"""Forward model of the entry gate: which beams a falling piece cuts, and when.

Each beam of the gate goes through the panes, front to back, so in the board's plane it is
a point: ``(x, row)`` with the table's ``entry_beams`` and ``entry_row``. It is cut while
the falling piece covers that point. Times come from the piece's trajectory, a
:class:`Trajectory` recorded by :meth:`~firmware_host.model.World.drop` (it is a
:data:`~firmware_host.model.world.StepObserver`). Between two recorded steps the pose is
interpolated linearly, and the moment a beam is cut or cleared is found by bisection, to
:data:`TIME_RESOLUTION_S`. A beam covered at neither of two steps may still be covered in
between (a fast piece moves ~5 mm per step, and a beam near a circle's side is covered for
less): where the row crosses the piece's bounds, such beams are looked at every
:data:`SWEEP_RESOLUTION_MM` of travel.

>>> from firmware_host.config.table import load_table
>>> from firmware_host.model import Drop, World, load_params
>>> from firmware_host.games.dropit.rules.pieces import Color, Shape
>>> table = load_table()
>>> trajectory = Trajectory()
>>> world = World(table.board, load_params())
>>> result = world.drop(Drop(Color.RED, Shape.SQUARE, 150.0, table.entry_row + 27.0),
...                     observer=trajectory.record)
>>> cuts = EntryGate(table).cuts(Shape.SQUARE, trajectory)
>>> [cut.beam for cut in cuts]
[13, 14, 15, 16]
>>> cuts[0].cut_us, cuts[0].clear_us   # 10 mm, then 44 mm of fall
(47781, 97938)

Falling 10 mm at g less the panes' drag takes 45.7 ms; Chipmunk moves a body before it
speeds it up, which makes a fall start half a step (2.1 ms) late.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import pairwise

from firmware_host.config.table import Table
from firmware_host.games.dropit.rules.pieces import Shape
from firmware_host.model.space import BodyState
from firmware_host.sensors.outlines import Outlines

TIME_RESOLUTION_S = 1e-6
"""Cut and clear times are found to within this (the hub's clock ticks in microseconds)."""

SWEEP_RESOLUTION_MM = 0.25
"""Near the row, the piece is looked at every this much travel of any of its points: a beam
covered for a shorter stretch of the fall may be missed."""


@dataclass(frozen=True, slots=True)
class Sample:
    """The falling piece at time ``t`` (s since release): centroid (mm), angle (degrees CCW)."""

    t: float
    x: float
    y: float
    angle: float


@dataclass
class Trajectory:
    """The falling piece's samples, in time order; :meth:`record` is a step observer."""

    samples: list[Sample] = field(default_factory=list)

    def record(self, t: float, state: BodyState) -> None:
        """Add the dropped piece's ``state`` at ``t`` seconds after release."""
        self.samples.append(Sample(t, state.x, state.y, math.degrees(state.angle)))


@dataclass(frozen=True, slots=True)
class BeamCut:
    """Beam ``beam`` was cut at ``cut_us`` and cleared at ``clear_us`` (None: still cut at
    the end of the trajectory), in microseconds on the caller's clock."""

    beam: int
    cut_us: int
    clear_us: int | None


class EntryGate:
    """The entry gate of ``table``: from a falling piece's trajectory to beam cuts."""

    def __init__(self, table: Table) -> None:
        gate = table.config.entry_gate
        self.beams = table.entry_beams
        self.row = table.entry_row
        self.outlines = Outlines(table.board)
        self._first, self._pitch = gate.first, gate.pitch

    def _beams_between(self, low: float, high: float) -> range:
        """The beams with low <= x <= high."""
        return range(
            max(0, math.ceil((low - self._first) / self._pitch)),
            min(len(self.beams), math.floor((high - self._first) / self._pitch) + 1),
        )

    def _covers(self, shape: Shape, sample: Sample, beam: int) -> bool:
        return self.outlines.covers(
            shape, sample.x, sample.y, sample.angle, self.beams[beam], self.row
        )

    def covered(self, shape: Shape, sample: Sample) -> frozenset[int]:
        """The beams ``shape`` covers at ``sample``'s pose."""
        reach = self.outlines.reach(shape)
        if abs(sample.y - self.row) > reach:
            return frozenset()
        return frozenset(
            beam
            for beam in self._beams_between(sample.x - reach, sample.x + reach)
            if self._covers(shape, sample, beam)
        )

    def cuts(self, shape: Shape, trajectory: Trajectory, start_us: int = 0) -> tuple[BeamCut, ...]:
        """Every cut of every beam by ``shape`` along ``trajectory``, ordered by cut time then
        beam; times are ``start_us`` + microseconds since the trajectory's time 0."""
        samples = trajectory.samples
        if not samples:
            return ()
        open_cuts = dict.fromkeys(self.covered(shape, samples[0]), start_us + _micros(samples[0].t))
        done: list[BeamCut] = []
        before = frozenset(open_cuts)
        for a, b in pairwise(samples):
            if not self._may_cover_row(shape, a, b):
                before = frozenset()
                continue
            after = self.covered(shape, b)
            for beam in after - before:
                open_cuts[beam] = start_us + self._crossing(shape, a, b, beam, True)
            for beam in before - after:
                cleared = start_us + self._crossing(shape, a, b, beam, False)
                done.append(BeamCut(beam, open_cuts.pop(beam), cleared))
            for beam, inside in self._brief_covers(shape, a, b, before | after):
                cut = start_us + self._crossing(shape, a, inside, beam, True)
                done.append(
                    BeamCut(beam, cut, start_us + self._crossing(shape, inside, b, beam, False))
                )
            before = after
        done.extend(BeamCut(beam, cut, None) for beam, cut in open_cuts.items())
        return tuple(sorted(done, key=lambda c: (c.cut_us, c.beam)))

    def _may_cover_row(self, shape: Shape, a: Sample, b: Sample) -> bool:
        """Whether the piece may touch the row anywhere between samples ``a`` and ``b``."""
        reach = self.outlines.reach(shape)
        return min(a.y, b.y) - reach <= self.row <= max(a.y, b.y) + reach

    def _brief_covers(
        self, shape: Shape, a: Sample, b: Sample, seen: frozenset[int] | set[int]
    ) -> list[tuple[int, Sample]]:
        """Beams covered at neither ``a`` nor ``b`` but in between (a short chord passing
        within one step), each with a moment it is covered. The piece is looked at every
        :data:`SWEEP_RESOLUTION_MM` of travel, only where the row meets its swept bounds."""
        la, ba, ra, ta = self.outlines.bounds(shape, a.x, a.y, a.angle)
        lb, bb, rb, tb = self.outlines.bounds(shape, b.x, b.y, b.angle)
        turn = self.outlines.reach(shape) * math.radians(abs(b.angle - a.angle))
        if not min(ba, bb) - turn <= self.row <= max(ta, tb) + turn:
            return []
        unseen = [
            beam
            for beam in self._beams_between(min(la, lb) - turn, max(ra, rb) + turn)
            if beam not in seen
        ]
        if not unseen:
            return []
        travel = math.hypot(b.x - a.x, b.y - a.y) + turn
        parts = math.ceil(travel / SWEEP_RESOLUTION_MM)
        found = []
        for k in range(1, parts):
            inside = _between(a, b, k / parts)
            for beam in [beam for beam in unseen if self._covers(shape, inside, beam)]:
                found.append((beam, inside))
                unseen.remove(beam)
        return found

    def _crossing(self, shape: Shape, a: Sample, b: Sample, beam: int, entering: bool) -> int:
        """When, between samples ``a`` and ``b``, the beam became covered (or uncovered)."""
        low, high = 0.0, 1.0
        while (high - low) * (b.t - a.t) > TIME_RESOLUTION_S:
            mid = (low + high) / 2
            if self._covers(shape, _between(a, b, mid), beam) == entering:
                high = mid
            else:
                low = mid
        return _micros(a.t + (b.t - a.t) * high)


def _between(a: Sample, b: Sample, f: float) -> Sample:
    """The pose a fraction ``f`` of the way from ``a`` to ``b`` (linear in every value)."""
    return Sample(
        a.t + (b.t - a.t) * f,
        a.x + (b.x - a.x) * f,
        a.y + (b.y - a.y) * f,
        a.angle + (b.angle - a.angle) * f,
    )


def _micros(seconds: float) -> int:
    return round(seconds * 1_000_000)
