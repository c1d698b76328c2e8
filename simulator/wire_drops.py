"""The readings source of ``tabletop sim eval``: drops refereed from the virtual hub's wire.

:func:`wire_drops` runs an in-process :class:`~simulator.hub.VirtualHub` (its noise
profile's sensor noise and link faults included) and a
:class:`~firmware_host.link.transport.HubLink` to it over a pty, and plays the same
seeded turns as :func:`simulator.evaluate.in_process_drops`. The host side is what the
service runs: the link's events, in order, go through a
:class:`~firmware_host.sensors.collector.DropCollector`, and each drop it assembles
becomes an :class:`~simulator.evaluate.EvalDrop` (identity from the piece tag, the
collected readings). Only the evaluator's side reads the truth: the
:class:`~simulator.hub.DropHandle`'s true final poses make the oracle.

Drops go as fast as the line allows: the hub sends each drop's events at once
(``speed=None``) and the next drop is made once the host acknowledged them all. The
collector's clock is the hub time of the event it is given (a paced hub's events arrive
at their hub time), so its quiet and jam windows mean what they mean at the table; once a
drop's last event is in, the clock moves on by the quiet window and one poll
(:data:`~firmware_host.service.hub_feed.POLL_SECONDS`), as the service waits.

The host asks the collector for the drop's entry after every event and poll
(:meth:`~firmware_host.sensors.collector.DropCollector.entered`), as the service does to
start the eye early; each :class:`~simulator.evaluate.EvalDrop` carries that entry and
the hub time from it to the settle signal (``lead_s``).
"""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator
from dataclasses import replace

from firmware_host.config.noise import NoiseProfile
from firmware_host.config.table import Table
from firmware_host.errors import TabletopError
from firmware_host.games.dropit.rules.pieces import Piece
from firmware_host.link.session import HubEvent
from firmware_host.link.transport import HubLink
from firmware_host.model.supply import GAME_DROPS
from firmware_host.sensors.collector import DropCollector, DropOutcome
from firmware_host.sensors.drop import DropEntry
from firmware_host.service.hub_feed import POLL_SECONDS
from simulator.evaluate import EvalDrop, identity_of, oracle_of, turns
from simulator.hub import DropHandle, VirtualHub

DEADLINE_S = 30.0
"""Longest real wait for the hub to answer or for one drop's events (an unplug included)."""

WAIT_S = 0.01
"""How often a wait for the next event re-checks whether the drop is all in."""


class WireStalled(TabletopError):
    """The virtual hub's events for a drop did not reach the host in time."""


class HostSide:
    """The host's side: the link's events (put on :attr:`events`) through a collector
    whose clock is hub time. It sees nothing but the events.

    ``entry`` is the open drop's entry and the hub time (s) the collector reported it;
    ``ended_at`` the hub time the last drop ended."""

    def __init__(self, table: Table) -> None:
        self.events: queue.Queue[HubEvent] = queue.Queue()
        self.now = 0.0
        self.quiet = table.config.settle.quiet
        self.collector = DropCollector(table, clock=lambda: self.now)
        self.entry: tuple[DropEntry, float] | None = None
        self.ended_at = 0.0

    def take(self, event: HubEvent) -> list[DropOutcome]:
        """Feed one event, the clock at its hub time; the drops it ended. The hub's
        clock reports (its idle piece reader) are left out: :meth:`wait_out` moves the
        clock on as the hub's reports would, and how many of them went out before the
        next drop depends on real time."""
        if event.kind == "piece" and not event.message["tag"]:
            return []
        self.now = max(self.now, event.hub_us / 1e6)
        return self._ended(self.collector.feed(event))

    def wait_out(self) -> list[DropOutcome]:
        """The host waits out the quiet window after the last event (its next poll),
        asking for the drop's entry at each poll meanwhile."""
        end = self.now + self.quiet + POLL_SECONDS
        while self.entry is None and self.collector.collecting and self.now + POLL_SECONDS < end:
            self.now += POLL_SECONDS
            self._look_for_entry()
        self.now = end
        return self._ended(self.collector.poll())

    def _look_for_entry(self) -> None:
        entered = self.collector.entered()
        if entered is not None:
            self.entry = (entered, self.now)

    def _ended(self, done: list[DropOutcome]) -> list[DropOutcome]:
        if done:
            self.ended_at = self.now
        self._look_for_entry()
        return done


def collect_drop(hub: VirtualHub, handle: DropHandle, host: HostSide, number: int) -> DropOutcome:
    """Feed ``host`` the events until ``handle``'s drop is all in (sent by the hub and
    acknowledged by the host); the one drop they tell."""
    host.entry = None
    deadline = time.monotonic() + DEADLINE_S
    done: list[DropOutcome] = []
    while True:
        try:
            done += host.take(host.events.get(timeout=WAIT_S))
            continue
        except queue.Empty:
            if handle.sent.is_set() and not hub.engine.buffer and host.events.empty():
                break
        if time.monotonic() > deadline:
            raise WireStalled(f"drop {number}: its events did not reach the host in {DEADLINE_S} s")
    done += host.wait_out()
    if len(done) != 1:
        raise WireStalled(f"drop {number}: the host collected {len(done)} drops, not one")
    return done[0]


def _numbered(pieces: tuple[Piece, ...], first: int) -> tuple[Piece, ...]:
    """The true world's ``p<k>`` (k-th on this board) as the evaluation's drop number."""
    return tuple(replace(p, id=f"p{first + int(p.id.removeprefix('p')) - 1}") for p in pieces)


def wire_drops(table: Table, profile: NoiseProfile, drops: int, seed: int) -> Iterator[EvalDrop]:
    """Play ``drops`` drops on a virtual hub, reproducibly from ``seed``; the host side
    gets them over a pty through the collector."""
    host = HostSide(table)
    with (
        VirtualHub(table, profile, seed) as hub,
        HubLink(hub.url, on_event=host.events.put) as link,
    ):
        if not link.wait_up(DEADLINE_S):
            raise WireStalled(f"the virtual hub did not answer on {hub.url} in {DEADLINE_S} s")
        first = 1
        for number, color, shape, x, angle in turns(table, drops, seed):
            new_game = (number - 1) % GAME_DROPS == 0
            if new_game and number > 1:
                hub.clear_board()
                first = number
            handle = hub.drop(color, shape, x, angle)
            readings = collect_drop(hub, handle, host, number).readings
            oracle = oracle_of(table, _numbered(handle.true.pieces, first))
            entered, at = host.entry or (None, host.ended_at)
            identity = identity_of(readings)
            lead = host.ended_at - at
            yield EvalDrop(number, new_game, identity, readings, oracle, entered, lead)
