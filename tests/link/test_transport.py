"""HubLink (pyserial, reader thread) against the hub engine over real pty pairs.

A relay thread between two pty pairs drops or corrupts chosen frames; the host opens a
symlink to its pty's slave, as it opens /dev/serial/by-id/... on a table. Waits are on
conditions with deadlines, never sleeps.
"""

import asyncio
import threading

import pytest

from firmware_host.link import wire
from firmware_host.link.session import CommandFailed, LinkError
from firmware_host.link.transport import HubLink, backoff_delays
from tests.link_harness import Faults, PtyHub

DEADLINE = 20.0


class Received:
    """Events collected from the reader thread, with a condition to wait on."""

    def __init__(self):
        self.events = []
        self.cond = threading.Condition()

    def __call__(self, event):
        with self.cond:
            self.events.append(event)
            self.cond.notify_all()

    def wait_count(self, n, timeout=DEADLINE):
        with self.cond:
            assert self.cond.wait_for(lambda: len(self.events) >= n, timeout), (
                f"{len(self.events)} of {n} events after {timeout} s"
            )

    def messages(self):
        with self.cond:
            return [e.message for e in self.events]


def gate(i):
    return {"type": "gate", "gate": i % 2, "beam": i % 30, "cut": i % 3 == 0, "t_us": 10 * i}


def fast_backoff():
    return backoff_delays(0.01, 2.0, 0.05)


@pytest.fixture
def make_link():
    links = []

    def make(path, received, **options):
        link = HubLink(path, on_event=received, backoff=fast_backoff, **options)
        links.append(link)
        return link.start()

    yield make
    for link in links:
        link.stop()


def test_events_in_order_none_lost_when_frames_dropped_or_corrupted(tmp_path, make_link):
    faults = Faults(seed=5, drop=0.1, corrupt=0.1)
    received = Received()
    with PtyHub(tmp_path, faults) as hub:
        link = make_link(hub.path, received)
        assert link.wait_up(DEADLINE)
        for i in range(100):
            hub.emit(gate(i))
        received.wait_count(100)
        assert received.messages() == [gate(i) for i in range(100)]
        assert faults.dropped > 10 and faults.corrupted > 10
        assert [e.seq for e in received.events] == [i % 256 for i in range(100)]


def test_a_restarted_hub_is_asked_for_its_whole_state(tmp_path, make_link):
    from tests.link_harness import make_hub_engine

    received = Received()
    with PtyHub(tmp_path) as hub:
        link = make_link(hub.path, received)
        assert link.wait_up(DEADLINE)
        hub.emit(gate(0))
        received.wait_count(1)
        with hub.lock:  # the hub restarts: a new boot id, no session, numbering from 0
            hub.engine = make_hub_engine(hub.clock_us, hub._hub_write, boot_id=0xBEEF)
        received.wait_count(1 + 12)  # its nak (no session), a reconnect, then the snapshot
        kinds = [e.kind for e in received.events[1:]]
        assert kinds == ["bitmap"] * 4 + ["die"] * 6 + ["piece", "snapshot_done"]
        assert [e.seq for e in received.events[1:]] == list(range(12))
        assert link.session is not None and link.session.stats.restarts == 1
        assert (0, wire.SNAPSHOT_REQUEST) in hub.frames_to_hub


def test_command_retransmitted_and_acknowledged(tmp_path, make_link):
    faults = Faults(drop_first={wire.LEDS: 2})
    with PtyHub(tmp_path, faults) as hub:
        link = make_link(hub.path, Received())
        assert link.wait_up(DEADLINE)
        rgb = bytes([200, 100, 0] * 3)

        async def light():
            await asyncio.wait_for(
                link.command({"type": "leds", "strip": 3, "start": 0, "rgb": rgb}), DEADLINE
            )

        asyncio.run(light())
        assert [k for _, k in hub.frames_to_hub].count(wire.LEDS) == 3
        assert hub.engine.device.strips[3].shown[:3] == [(200, 100, 0)] * 3


def test_command_reported_failed_after_its_retry_limit(tmp_path, make_link):
    faults = Faults(drop_kinds={wire.SAMPLING})
    with PtyHub(tmp_path, faults) as hub:
        link = make_link(hub.path, Received(), session_options={"max_retries": 3})
        assert link.wait_up(DEADLINE)

        async def change_sampling():
            await asyncio.wait_for(link.command({"type": "sampling", "period_us": 900}), DEADLINE)

        with pytest.raises(CommandFailed, match="not acknowledged after 3 retransmissions"):
            asyncio.run(change_sampling())
        assert [k for _, k in hub.frames_to_hub].count(wire.SAMPLING) == 4
        # The link starts over by itself and carries on.
        received = Received()
        link.add_listener(received)
        hub.emit(gate(1))
        received.wait_count(1)


def test_unplug_and_replug_resumes_the_link(tmp_path, make_link):
    received = Received()
    states = []
    with PtyHub(tmp_path) as hub:
        link = make_link(hub.path, received, on_state=lambda s, r: states.append(s))
        assert link.wait_up(DEADLINE)
        for i in range(10):
            hub.emit(gate(i))
        received.wait_count(10)
        hub.unplug()
        for i in range(10, 30):  # sensor events while the cable is out are kept on the hub
            hub.emit(gate(i))
        hub.replug()
        received.wait_count(30)
        assert link.wait_up(DEADLINE) and link.is_up
        assert received.messages() == [gate(i) for i in range(30)]
        assert link.connections == 2
        assert states[:3] == ["up", "down", "up"]


def test_events_reach_an_asyncio_queue_with_host_times(tmp_path, make_link):
    with PtyHub(tmp_path) as hub:
        link = make_link(hub.path, None)
        assert link.wait_up(DEADLINE)

        async def consume():
            queue = link.event_queue()
            await asyncio.wait_for(link.command({"type": "snapshot_request"}), DEADLINE)
            kinds = []
            while not kinds or kinds[-1] != "snapshot_done":
                event = await asyncio.wait_for(queue.get(), DEADLINE)
                kinds.append(event.kind)
                assert event.host_time is not None
            return kinds

        kinds = asyncio.run(consume())
        assert kinds == ["bitmap"] * 4 + ["die"] * 6 + ["piece", "snapshot_done"]


def test_unreachable_port_keeps_trying_without_blocking(tmp_path):
    link = HubLink(str(tmp_path / "no-such-hub"), backoff=fast_backoff).start()
    try:
        results = []
        link.send({"type": "reset"}, results.append)  # queued until a hub appears
        assert not link.wait_up(0.2)
        assert results == []
    finally:
        link.stop()
    assert len(results) == 1 and "stopped" in str(results[0])


def test_socket_url_reaches_a_virtual_hub(make_link):
    """socket:// works as well: the simulator's virtual hub can sit behind TCP."""
    import socket
    import time

    from tests.link_harness import make_hub_engine

    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    stop = threading.Event()
    start = time.monotonic()

    def serve():
        conn, _ = server.accept()
        conn.settimeout(0.005)
        engine = make_hub_engine(lambda: int((time.monotonic() - start) * 1e6), conn.sendall)
        engine.emit(gate(3))
        while not stop.is_set():
            try:
                data = conn.recv(4096)
            except TimeoutError:
                data = b""
            if data:
                engine.feed(data)
            engine.tick()
        conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    received = Received()
    try:
        link = make_link(f"socket://127.0.0.1:{port}", received)
        assert link.wait_up(DEADLINE)
        received.wait_count(1)
        assert received.messages() == [gate(3)]
    finally:
        stop.set()
        thread.join(2)
        server.close()


def test_commands_after_stop_fail_at_once(tmp_path):
    link = HubLink(str(tmp_path / "no-such-hub"), backoff=fast_backoff).start()
    link.stop()

    async def late():
        await asyncio.wait_for(link.command({"type": "reset"}), DEADLINE)

    with pytest.raises(LinkError, match="stopped"):
        asyncio.run(late())


def test_a_second_link_on_the_same_port_is_refused(tmp_path, make_link):
    states = []
    with PtyHub(tmp_path) as hub:
        first = make_link(hub.path, Received())
        assert first.wait_up(DEADLINE)
        second = make_link(hub.path, Received(), on_state=lambda s, r: states.append((s, r)))
        assert not second.wait_up(0.3)
        assert first.is_up
    assert states and states[0][0] == "down" and "lock" in states[0][1]
