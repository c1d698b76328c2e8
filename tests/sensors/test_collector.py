"""The drop collector tells when a drop's piece has gone through the entry gate
(:meth:`DropCollector.entered`), once per drop, so that the eye can start early."""

from __future__ import annotations

from firmware_host.config.table import load_table
from firmware_host.link.session import HubEvent
from firmware_host.sensors.collector import ENTRY_QUIET_S, DropCollector, Outcome
from firmware_host.sensors.drop import DropEntry
from firmware_host.sensors.entry_gate import BeamCut

TABLE = load_table()
QUIET = TABLE.config.settle.quiet


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def at(collector: DropCollector, clock: Clock, seconds: float, **message: object) -> list:
    """Feed one event arriving at ``seconds`` (its hub time the same, in µs)."""
    clock.now = seconds
    t_us = round(seconds * 1e6)
    return collector.feed(HubEvent(0, {**message, "t_us": t_us}, t_us, None))


def gate(collector: DropCollector, clock: Clock, seconds: float, beam: int, cut: bool) -> None:
    at(collector, clock, seconds, type="gate", gate=0, beam=beam, cut=cut)


def test_the_entry_is_told_once_the_gate_was_quiet_after_every_beam_cleared() -> None:
    clock = Clock()
    collector = DropCollector(TABLE, clock)
    at(collector, clock, 1.0, type="piece", tag=b"red-square")
    assert collector.entered() is None  # nothing went through yet
    gate(collector, clock, 1.05, 3, True)
    gate(collector, clock, 1.06, 4, True)
    gate(collector, clock, 1.09, 3, False)
    clock.now = 1.09 + ENTRY_QUIET_S
    assert collector.entered() is None  # beam 4 still cut
    gate(collector, clock, 1.10, 4, False)
    clock.now = 1.10 + ENTRY_QUIET_S * 0.9
    assert collector.entered() is None
    clock.now = 1.10 + ENTRY_QUIET_S
    cuts = (BeamCut(3, 1_050_000, 1_090_000), BeamCut(4, 1_060_000, 1_100_000))
    assert collector.entered() == DropEntry("red-square", 1_000_000, cuts)
    assert collector.entered() is None  # once per drop
    clock.now = 1.10 + QUIET
    [done] = collector.poll()
    assert done.outcome is Outcome.SETTLED and done.readings.entered.entry == cuts


def test_a_beam_that_stays_cut_holds_the_entry_back_for_the_quiet_window() -> None:
    clock = Clock()
    collector = DropCollector(TABLE, clock)
    at(collector, clock, 0.0, type="piece", tag=b"blue-circle")
    gate(collector, clock, 0.05, 7, True)
    clock.now = 0.05 + QUIET * 0.9
    assert collector.entered() is None
    clock.now = 0.05 + QUIET
    entry = collector.entered()
    assert entry is not None and entry.entry == (BeamCut(7, 50_000, None),)


def test_a_beam_stuck_before_the_drop_does_not_hold_the_entry_back() -> None:
    clock = Clock()
    collector = DropCollector(TABLE, clock)
    gate(collector, clock, 0.0, 20, True)  # stuck: cut before the piece was released
    at(collector, clock, 1.0, type="piece", tag=b"green-triangle")
    gate(collector, clock, 1.05, 2, True)
    gate(collector, clock, 1.08, 2, False)
    clock.now = 1.08 + ENTRY_QUIET_S
    entry = collector.entered()
    assert entry is not None
    assert entry.entry == (BeamCut(20, 1_000_000, None), BeamCut(2, 1_050_000, 1_080_000))


def test_a_drop_that_ends_first_is_never_told_as_entered() -> None:
    clock = Clock()
    collector = DropCollector(TABLE, clock)
    at(collector, clock, 0.0, type="piece", tag=b"red-circle")
    gate(collector, clock, 0.01, 3, True)
    done = at(collector, clock, 0.02, type="piece", tag=b"blue-circle")
    assert [d.outcome for d in done] == [Outcome.SECOND_PIECE]
    assert collector.entered() is None  # the new drop: nothing went through yet
