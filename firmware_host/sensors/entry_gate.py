"""Forward model of the entry gate: which beams a falling piece cuts, and when.

Each beam of the gate goes through the panes, front to back, so in the board's plane it is
a point: ``(x, row)`` with the table's ``entry_beams`` and ``entry_row``. It is cut while
the falling piece covers that point. Times come from the piece's trajectory, a
:class:`Trajectory` recorded by :meth:`~firmware_host.model.World.drop` (it is a
:data:`~firmware_host.model.world.StepObserver`). Between two recorded steps the pose is
interpolated linearly; where the piece is near the row it is looked at every
:data:`SWEEP_RESOLUTION_MM` of travel (a fast piece moves ~5 mm per step, and a beam near
a circle's side is covered for less), and the moment a beam is cut or cleared is found by
bisection, to :data:`TIME_RESOLUTION_S`.

>>> from firmware_host.config.table import load_table
>>> from firmware_host.model import Drop, World, load_params
>>> from firmware_host.rules.pieces import Color, Shape
>>> table = load_table()
>>> trajectory = Trajectory()
>>> world = World(table.board, load_params())
>>> result = world.drop(Drop(Color.RED, Shape.SQUARE, 150.0, table.entry_row + 27.0),
...                     observer=trajectory.record)
>>> cuts = EntryGate(table).cuts(Shape.SQUARE, trajectory)
>>> [cut.beam for cut in cuts]
[13, 14, 15, 16]
>>> cuts[0].cut_us, cuts[0].clear_us   # 10 mm, then 44 mm of fall
(47704, 97777)

Falling 10 mm at g less the panes' drag takes 45.6 ms; Chipmunk moves a body before it
speeds it up, which makes a fall start half a step (2.1 ms) late.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import pairwise

from firmware_host.config.table import Table
from firmware_host.model.space import BodyState
from firmware_host.rules.pieces import Shape
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
        self.samples.append(Sample(t, state.x, state.y, _degrees(state.angle)))


def _degrees(radians: float) -> float:
    return math.degrees(radians)


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
        self.beams = table.entry_beams
        self.row = table.entry_row
        self.outlines = Outlines(table.board)

    def covered(self, shape: Shape, sample: Sample) -> frozenset[int]:
        """The beams ``shape`` covers at ``sample``'s pose."""
        reach = self.outlines.reach(shape)
        if abs(sample.y - self.row) > reach:
            return frozenset()
        return frozenset(
            i
            for i, x in enumerate(self.beams)
            if abs(x - sample.x) <= reach
            and self.outlines.covers(shape, sample.x, sample.y, sample.angle, x, self.row)
        )

    def cuts(self, shape: Shape, trajectory: Trajectory, start_us: int = 0) -> tuple[BeamCut, ...]:
        """Every cut of every beam by ``shape`` along ``trajectory``, ordered by cut time then
        beam; times are ``start_us`` + microseconds since the trajectory's time 0."""
        samples = self._near_row(shape, trajectory.samples)
        before = next(samples, None)
        if before is None:
            return ()
        open_cuts: dict[int, int] = {}
        done: list[BeamCut] = []
        for beam in self.covered(shape, before):
            open_cuts[beam] = start_us + _micros(before.t)
        for after in samples:
            now = self.covered(shape, after)
            for beam in now - open_cuts.keys():
                open_cuts[beam] = start_us + self._crossing(shape, before, after, beam, True)
            for beam in open_cuts.keys() - now:
                cleared = start_us + self._crossing(shape, before, after, beam, False)
                done.append(BeamCut(beam, open_cuts.pop(beam), cleared))
            before = after
        done.extend(BeamCut(beam, cut, None) for beam, cut in open_cuts.items())
        return tuple(sorted(done, key=lambda c: (c.cut_us, c.beam)))

    def _near_row(self, shape: Shape, samples: list[Sample]) -> Iterator[Sample]:
        """``samples``, with samples interpolated in between wherever the piece may cover
        the row, at most :data:`SWEEP_RESOLUTION_MM` of travel apart."""
        if not samples:
            return
        reach = self.outlines.reach(shape)
        yield samples[0]
        for a, b in pairwise(samples):
            if min(a.y, b.y) - reach <= self.row <= max(a.y, b.y) + reach:
                travel = math.hypot(b.x - a.x, b.y - a.y) + reach * math.radians(
                    abs(b.angle - a.angle)
                )
                parts = math.ceil(travel / SWEEP_RESOLUTION_MM)
                for k in range(1, parts):
                    f = k / parts
                    yield Sample(
                        a.t + (b.t - a.t) * f,
                        a.x + (b.x - a.x) * f,
                        a.y + (b.y - a.y) * f,
                        a.angle + (b.angle - a.angle) * f,
                    )
            yield b

    def _crossing(self, shape: Shape, a: Sample, b: Sample, beam: int, entering: bool) -> int:
        """When, between samples ``a`` and ``b``, the beam became covered (or uncovered)."""
        x = self.beams[beam]
        low, high = 0.0, 1.0
        while (high - low) * (b.t - a.t) > TIME_RESOLUTION_S:
            mid = (low + high) / 2
            covered = self.outlines.covers(
                shape,
                a.x + (b.x - a.x) * mid,
                a.y + (b.y - a.y) * mid,
                a.angle + (b.angle - a.angle) * mid,
                x,
                self.row,
            )
            if covered == entering:
                high = mid
            else:
                low = mid
        return _micros(a.t + (b.t - a.t) * high)


def _micros(seconds: float) -> int:
    return round(seconds * 1_000_000)
