"""The host's link against the virtual hub, over a pty and over a socket, same assertions."""

from __future__ import annotations

import asyncio
import itertools
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace

import pytest

from firmware_host.config.noise import NoiseProfile, load_profile
from firmware_host.config.table import load_table
from firmware_host.games.dropit.rules.pieces import Color, Shape
from firmware_host.link import messages
from firmware_host.link.inventory import inventory_mismatch
from firmware_host.link.session import HubEvent
from firmware_host.link.transport import HubLink
from firmware_host.sensors.collector import DropCollector, Outcome
from simulator.hub import DropHandle, VirtualHub
from simulator.line import SocketLine

TABLE = load_table()
DEADLINE = 10.0
DROPS = ((Color.RED, Shape.SQUARE, 150.0, 0.0), (Color.BLUE, Shape.TRIANGLE, 60.0, 30.0))


def fast_backoff() -> Iterator[float]:
    return itertools.repeat(0.05)


class Host:
    """A HubLink to the hub collecting every event, with bounded waits."""

    def __init__(self, url: str) -> None:
        self.events: list[HubEvent] = []
        self.arrivals: list[float] = []
        self.changed = threading.Condition()
        self.link = HubLink(url, on_event=self._event, on_state=self._state, backoff=fast_backoff)

    def _state(self, state: str, reason: str) -> None:
        with self.changed:
            self.changed.notify_all()

    def _event(self, event: HubEvent) -> None:
        with self.changed:
            self.events.append(event)
            self.arrivals.append(time.monotonic())
            self.changed.notify_all()

    def wait(self, ready: Callable[[], bool], what: str) -> None:
        with self.changed:
            assert self.changed.wait_for(ready, DEADLINE), f"timed out waiting for {what}"

    def wait_drop(self, handle: DropHandle) -> list[HubEvent]:
        """The events up to the end of ``handle``'s drop (the reader emptied at settle)."""
        def ended() -> bool:
            return any(e.kind == "piece" and e.hub_us == handle.last_us for e in self.events)

        self.wait(ended, "the drop's events")
        return list(self.events)

    def command(self, message: dict) -> None:
        done = threading.Event()
        errors = []
        self.link.send(message, lambda error: (errors.append(error), done.set()))
        assert done.wait(DEADLINE) and errors == [None]


def profile(name: str = "clean", **link: object) -> NoiseProfile:
    data = load_profile(name).model_dump()
    data["link"].update(link)
    return NoiseProfile.model_validate(data)


@pytest.fixture(params=["pty", "socket"])
def line(request: pytest.FixtureRequest) -> str:
    return request.param


def run_drops(line: str, noise: NoiseProfile, seed: int = 5) -> tuple[list, list[HubEvent], Host]:
    with VirtualHub(TABLE, noise, seed=seed, line=line) as hub:
        host = Host(hub.url)
        with host.link:
            handles = [hub.drop(*drop) for drop in DROPS]
            events = host.wait_drop(handles[-1])
        return handles, events, host


def same_drops(collected: list, handles: list[DropHandle]) -> bool:
    """The host assembled what the hub reported, and (clean profile) that is what is
    there: the exact readings, settled at the last change the sensors saw, which may come
    before the physics stopped."""
    return [c.readings for c in collected] == [h.reported for h in handles] and all(
        h.reported == replace(h.true.exact, settled_us=h.reported.settled_us)
        and h.true.exact.released_us < h.reported.settled_us <= h.true.exact.settled_us
        for h in handles
    )


def collect(events: list[HubEvent]) -> list:
    """Feed ``events`` to a collector as if each arrived at its hub time (a paced hub)."""
    now = [0.0]
    collector = DropCollector(TABLE, clock=lambda: now[0])
    outcomes = []
    for event in events:
        now[0] = event.hub_us / 1e6
        outcomes += collector.feed(event)
    now[0] += 2 * TABLE.config.settle.quiet
    return outcomes + collector.poll()


def test_hello_carries_the_table_inventory(line: str) -> None:
    hub = VirtualHub(TABLE, load_profile("clean"), seed=1, line=line)
    with hub, HubLink(hub.url) as link:
        assert link.wait_up(DEADLINE)
        assert link.hello is not None and link.hello["protocol"] == 1
        assert link.hello["firmware"] == [1, 0, 0]
        assert inventory_mismatch(link.hello, TABLE) is None


def test_clean_drops_assemble_into_the_exact_readings(line: str) -> None:
    handles, events, _ = run_drops(line, load_profile("clean"))
    outcomes = collect(events)
    assert [o.outcome for o in outcomes] == [Outcome.SETTLED] * len(DROPS)
    assert same_drops(outcomes, handles)
    assert [e.seq for e in events] == list(range(len(events)))


def test_noisy_drops_assemble_into_what_the_hub_read(line: str) -> None:
    handles, events, _ = run_drops(line, load_profile("harsh"), seed=11)
    outcomes = collect(events)
    assert [o.readings for o in outcomes] == [h.reported for h in handles]
    assert [h.reported.strips for h in handles] == [h.readings.strips for h in handles]
    assert any(h.readings.strips != h.true.exact.strips for h in handles)


def test_dice_roll_then_come_to_rest(line: str) -> None:
    with VirtualHub(TABLE, load_profile("clean"), seed=2, line=line) as hub:
        host = Host(hub.url)
        with host.link:
            assert host.link.wait_up(DEADLINE)
            hub.roll()
            dice = TABLE.config.dice.count

            def rested() -> bool:
                return sum(e.kind == "die" and e.message["stable"] for e in host.events) == dice

            host.wait(rested, "the dice")
            rolling = [e.message["die"] for e in host.events if not e.message["stable"]]
            faces = {
                e.message["die"]: e.message["face"] for e in host.events if e.message["stable"]
            }
            assert sorted(rolling) == list(range(dice))
            assert faces == {r.die: r.face for r in hub.dice.readings}


def test_led_frames_are_recorded(line: str) -> None:
    with VirtualHub(TABLE, load_profile("clean"), seed=2, line=line) as hub:
        host = Host(hub.url)
        with host.link:
            assert host.link.wait_up(DEADLINE)
            pixels = [(255, 0, 0), (0, 0, 9)]
            for command in messages.led_frames(1, pixels, hello=host.link.hello):
                host.command(command)
            assert hub.leds_shown == [(1, 0, bytes([255, 0, 0, 0, 0, 9]))]
            assert hub.leds[1][:6] == bytes([255, 0, 0, 0, 0, 9])


def test_a_seed_reproduces_the_run(line: str) -> None:
    noise = profile("realistic", lost_frames=0.05)
    first = run_drops(line, noise, seed=9)
    second = run_drops(line, noise, seed=9)
    assert [h.true for h in first[0]] == [h.true for h in second[0]]
    assert [e.message for e in first[1]] == [e.message for e in second[1]]


def test_lost_frames_are_retransmitted(line: str) -> None:
    handles, events, host = run_drops(line, profile(lost_frames=0.2), seed=3)
    stats = host.link.session.stats
    assert stats.gaps + stats.duplicates > 0  # the host saw the holes and got them again
    assert [e.seq for e in events] == list(range(len(events)))
    assert same_drops(collect(events), handles)


def test_corrupted_bytes_are_rejected_by_crc(line: str) -> None:
    handles, events, host = run_drops(line, profile(corrupted_bytes=0.01), seed=3)
    assert host.link.session.decoder.bad_crc > 0
    assert same_drops(collect(events), handles)


def test_latency_jitter_spreads_arrivals(line: str) -> None:
    handles, events, host = run_drops(line, profile(latency_jitter=100.0), seed=3)
    first_drop = [i for i, e in enumerate(events) if e.hub_us <= handles[0].readings.settled_us]
    spread = host.arrivals[first_drop[-1]] - host.arrivals[first_drop[0]]
    assert spread >= 0.02
    assert same_drops(collect(events), handles)


def test_unplug_events_make_the_host_reconnect(line: str) -> None:
    noise = profile(unplug={"rate": 7200.0, "duration": [0.1, 0.2]})
    with VirtualHub(TABLE, noise, seed=4, line=line) as hub:
        host = Host(hub.url)
        with host.link:
            handles = [hub.drop(*drop) for drop in DROPS]
            events = host.wait_drop(handles[-1])
            host.wait(lambda: host.link.connections >= 2, "a reconnection")
        assert hub.faults.unplugs >= 1
    assert [e.seq for e in events] == list(range(len(events)))
    assert same_drops(collect(events), handles)


def test_unplug_and_replug_by_hand(line: str) -> None:
    with VirtualHub(TABLE, load_profile("clean"), seed=4, line=line) as hub:
        host = Host(hub.url)
        with host.link:
            assert host.link.wait_up(DEADLINE)
            hub.unplug()
            handle = hub.drop(*DROPS[0])
            assert handle.sent.wait(DEADLINE)
            hub.replug()
            events = host.wait_drop(handle)
            assert host.link.connections >= 2
    assert same_drops(collect(events), [handle])


def test_the_collector_reads_the_links_asyncio_queue(line: str) -> None:
    """As the service does: events from HubLink's asyncio queue, the collector's clock the
    event's hub time (a fake clock), outcomes as they come."""

    async def service(url: str, handles: list[DropHandle]) -> list:
        now = [0.0]
        collector = DropCollector(TABLE, clock=lambda: now[0])
        outcomes: list = []
        with HubLink(url) as link:
            events = link.event_queue()
            end = handles[-1].true.readings.settled_us  # the reader empties at settle
            event = None
            while event is None or not (event.kind == "piece" and event.hub_us == end):
                event = await asyncio.wait_for(events.get(), DEADLINE)
                now[0] = event.hub_us / 1e6
                outcomes += collector.feed(event)
        now[0] += 2 * TABLE.config.settle.quiet
        return outcomes + collector.poll()

    with VirtualHub(TABLE, load_profile("realistic"), seed=8, line=line) as hub:
        handles = [hub.drop(*drop) for drop in DROPS]
        outcomes = asyncio.run(service(hub.url, handles))
    assert [o.outcome for o in outcomes] == [Outcome.SETTLED] * len(DROPS)
    assert [o.readings for o in outcomes] == [h.reported for h in handles]


def test_a_socket_line_closed_under_a_read_reads_nothing() -> None:
    """The hub's loop reads the line outside its lock: a client socket closed by another
    thread (an unplug) while a read is about to wait on it reads nothing, no crash."""
    line = SocketLine()
    port = int(line.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=DEADLINE) as client:
        deadline = time.monotonic() + DEADLINE
        while line._client is None and time.monotonic() < deadline:
            line.read(0.01)
        assert line._client is not None
        client.sendall(b"x")
        line._client.close()  # what unplug() does, between read()'s list and its select
        assert line.read(0.01) == b""
    line.close()
