"""The host's link session against the hub engine, in memory, on a simulated clock."""

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from firmware_host.link import wire
from firmware_host.link.clock_sync import ClockSync
from firmware_host.link.rtt import RttEstimator
from firmware_host.link.session import MAX_RETRIES, CommandFailed, LinkSession, VersionMismatch
from tests.link_harness import Faults, make_hub_engine


class Clock:
    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


class Bench:
    """A session and a hub engine joined by a frame-level line with faults; one clock."""

    LATENCY = 0.001

    def __init__(self, faults=None, boot_id=0xB007, reconnect=True, **options):
        self.reconnect = reconnect
        self.clock = Clock()
        self.faults = faults or Faults()
        self.in_transit = []  # (arrival time, direction, bytes)
        self.events = []
        self.faults_seen = []
        self.hub = make_hub_engine(
            lambda: int(self.clock() * 1e6) - 7_000_000, self._to_host, boot_id
        )
        self.session = self.new_session(**options)

    def new_session(self, **options):
        return LinkSession(
            self.clock,
            self._to_hub,
            on_event=self.events.append,
            on_fault=self.faults_seen.append,
            **options,
        )

    def _line(self, direction, data):
        [(_seq, kind, _payload)] = wire.Decoder().feed(data)
        data = self.faults.apply(direction, data, kind)
        if data:
            self.in_transit.append((self.clock() + self.LATENCY, direction, data))

    def _to_host(self, data):
        self._line("to_host", data)

    def _to_hub(self, data):
        self._line("to_hub", data)

    def run(self, seconds, step=0.0005, until=None):
        end = self.clock() + seconds
        while self.clock() < end:
            self.clock.t += step
            due = [m for m in self.in_transit if m[0] <= self.clock()]
            self.in_transit = [m for m in self.in_transit if m[0] > self.clock()]
            for _, direction, data in due:
                (self.hub.feed if direction == "to_hub" else self.session.receive)(data)
            self.hub.tick()
            self.session.poll()
            if self.session.dead and self.reconnect:  # what HubLink does after a fault
                old = self.session
                self.session = self.new_session()
                self.session.carry_over(old)
            if until and until():
                return True
        return False

    def connect(self):
        assert self.run(20.0, until=lambda: self.session.up)


def gate(i):
    return {"type": "gate", "gate": 0, "beam": i % 30, "cut": i % 2 == 0, "t_us": 1000 * i}


def test_connect_hello_and_clock_sync():
    bench = Bench()
    bench.connect()
    assert bench.session.hello["led_strips"] == [27, 27, 27, 27]
    assert bench.session.sync.uncertainty == pytest.approx(0.001, abs=0.0006)  # from the hello
    bench.run(0.5)
    # The hub clock runs 7 s behind; pongs map it back to the host clock within half an RTT.
    bench.hub.emit(
        {"type": "gate", "gate": 0, "beam": 1, "cut": True, "t_us": bench.hub.clock_us()}
    )
    now = bench.clock()
    bench.run(0.05, until=lambda: bench.events)
    [event] = bench.events
    assert event.host_time == pytest.approx(now, abs=bench.session.sync.uncertainty + 1e-6)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.floats(0, 0.3), st.floats(0, 0.15))
def test_events_exactly_once_in_order_through_a_bad_line(seed, drop, corrupt):
    bench = Bench(Faults(seed=seed, drop=drop, corrupt=corrupt))
    bench.connect()
    for i in range(60):
        bench.hub.emit(gate(i))
        bench.run(0.002)
    # Up to 44 % of frames lost each way: go-back-N gets there, slowly (simulated time).
    assert bench.run(60.0, step=0.001, until=lambda: len(bench.events) >= 60)
    bench.run(0.3)
    assert [e.message for e in bench.events] == [gate(i) for i in range(60)]


def test_command_retransmitted_then_acknowledged():
    faults = Faults(drop_kinds={wire.LEDS}, direction="to_hub")
    bench = Bench(faults)
    bench.connect()
    results = []
    bench.session.send(
        {"type": "leds", "strip": 0, "start": 0, "rgb": bytes([1, 2, 3])}, results.append
    )
    bench.run(0.5)
    assert results == [] and faults.dropped >= 2
    faults.drop_kinds.clear()
    assert bench.run(2.0, until=lambda: results)
    assert results == [None]
    assert bench.hub.device.strips[0].shown[0] == (1, 2, 3)
    assert bench.session.stats.retransmits >= 2


def test_command_reported_failed_after_its_retry_limit_and_link_restarts():
    bench = Bench(Faults(drop_kinds={wire.SAMPLING}, direction="to_hub"), reconnect=False)
    bench.connect()
    results = []
    bench.session.send({"type": "sampling", "period_us": 3000}, results.append)
    assert bench.run(30.0, until=lambda: results)
    [error] = results
    assert isinstance(error, CommandFailed)
    assert f"after {MAX_RETRIES} retransmissions" in str(error)
    assert bench.faults_seen and "failed" in bench.faults_seen[0]


def test_window_bounds_commands_in_flight():
    bench = Bench(Faults(drop_kinds={wire.ACK}, direction="to_host"), window=3)
    bench.connect()
    for i in range(8):
        bench.session.send({"type": "sampling", "period_us": 1000 + i}, lambda e: None)
    assert len(bench.session.in_flight) == 3 and len(bench.session.queued) == 5


def test_rtt_measured_from_acks_sets_the_timeout():
    bench = Bench()
    bench.connect()
    done = []
    for _ in range(20):
        bench.session.send({"type": "snapshot_request"}, done.append)
        bench.run(0.02)
    assert done == [None] * 20
    # Round trip on this line is 2 ms (+ a step): the timeout follows it, far under 200 ms.
    assert bench.session.rtt.srtt == pytest.approx(0.0025, abs=0.001)
    assert bench.session.rtt.timeout() < 0.02


def test_rejected_command_fails_without_retries():
    bench = Bench()
    bench.connect()
    results = []
    bench.session.send({"type": "leds", "strip": 3, "start": 26, "rgb": bytes(6)}, results.append)
    bench.run(0.1)
    [error] = results
    assert isinstance(error, CommandFailed) and "rejected" in str(error)


def test_version_mismatch_says_what_to_reflash():
    bench = Bench(reconnect=False)
    other = bytes([wire.PROTOCOL_VERSION + 1, 2, 3, 0]) + bytes(40)  # a layout we do not know
    with pytest.raises(VersionMismatch) as caught:
        bench.session.receive(wire.encode_frame(0, wire.HELLO, other))
    assert str(caught.value) == (
        f"the hub speaks link protocol {wire.PROTOCOL_VERSION + 1} (firmware 2.3.0), this host "
        f"speaks {wire.PROTOCOL_VERSION}: reflash the hub with hardware/hub/ from this release "
        "(see hardware/hub/README.md)"
    )
    assert bench.session.dead


def test_lost_link_detected_by_heartbeat():
    bench = Bench(reconnect=False)
    bench.connect()
    bench.faults.drop = 1.0
    bench.run(2.0)
    assert any("lost link" in f for f in bench.faults_seen)


def test_new_session_carries_over_and_dedupes():
    bench = Bench(Faults(drop_kinds={wire.ACK}, direction="to_hub"))
    bench.connect()
    for i in range(5):
        bench.hub.emit(gate(i))
    bench.run(0.05)
    assert len(bench.events) == 5
    old = bench.session
    bench.session = bench.new_session()
    bench.session.carry_over(old)
    bench.faults.drop_kinds.clear()
    bench.connect()  # the hub resends its 5 unacknowledged events: duplicates now
    bench.hub.emit(gate(5))
    bench.run(0.2)
    assert [e.message for e in bench.events] == [gate(i) for i in range(6)]
    assert bench.session.stats.duplicates >= 5


def test_hub_restart_is_noticed():
    bench = Bench()
    bench.connect()
    old = bench.session
    bench.hub = make_hub_engine(bench.hub.clock_us, bench._to_host, boot_id=0xBEEF)
    for i in range(3):
        bench.hub.emit(gate(i))
    bench.session = bench.new_session()
    bench.session.carry_over(old)
    bench.connect()
    bench.run(0.1)
    assert bench.session.boot_id == 0xBEEF
    assert bench.session.stats.restarts == 1
    # the new hub's events, then the whole state it was asked for (its first command)
    assert [e.message for e in bench.events[:3]] == [gate(i) for i in range(3)]
    kinds = [e.kind for e in bench.events[3:]]
    assert kinds == ["bitmap"] * 4 + ["die"] * 6 + ["piece", "snapshot_done"]


def test_rtt_estimator_and_clock_sync_units():
    rtt = RttEstimator(initial=0.2, minimum=0.01, maximum=1.0)
    assert rtt.timeout() == 0.2
    for _ in range(10):
        rtt.sample(0.05)
    assert rtt.srtt == pytest.approx(0.05)
    rtt.backoff()
    assert rtt.timeout() == pytest.approx(2 * (rtt.srtt + 4 * rtt.rttvar))
    sync = ClockSync()
    assert sync.to_host(5) is None
    sync.sample(10.0, 3_000_000, 10.010)
    sync.sample(11.0, 4_000_200, 11.0004)  # shorter round trip wins
    assert sync.to_host(4_000_200) == pytest.approx(11.0002)


def test_fault_dumps_the_last_200_frames_each_way(caplog):
    bench = Bench(reconnect=False)
    bench.connect()
    for i in range(250):
        bench.hub.emit(gate(i % 100))
        bench.run(0.001)
    bench.faults.drop = 1.0
    with caplog.at_level("ERROR", logger="firmware_host.link"):
        bench.run(2.0)
    lines = [r.getMessage() for r in caplog.records]
    assert lines[0].startswith("hub link fault: nothing from the hub for 1 s (lost link)")
    assert "last 200 frames in, 200 out follow" in lines[0]
    assert sum(line.startswith("  in ") for line in lines) == 200
    assert sum(line.startswith("  out ") for line in lines) == 200
    assert any(" gate gate=0, beam=" in line for line in lines)


def test_backoff_delays_grow_to_their_maximum():
    from itertools import islice

    from firmware_host.link.transport import backoff_delays

    assert list(islice(backoff_delays(0.1, 2.0, 0.5), 5)) == [0.1, 0.2, 0.4, 0.5, 0.5]


def test_counters_of_the_whole_run_survive_a_reconnect():
    bench = Bench()
    bench.connect()
    bench.session.receive(b"\xa5\x0b\x00\x10" + bytes(13) + b"junk")  # a bad CRC, junk
    decoder = bench.session.decoder
    counts = (decoder.bad_crc, decoder.bad_header, decoder.skipped)
    assert counts[0] == 1 and counts[2] > 0
    old = bench.session
    bench.session = bench.new_session()
    bench.session.carry_over(old)
    bench.connect()
    new = bench.session.decoder
    assert (new.bad_crc, new.bad_header, new.skipped) >= counts
    assert new.bad_crc == 1 and new.skipped >= counts[2]


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000))
@example(299)  # the last event's acknowledgement lost three times running
def test_events_with_invalid_content_never_stall_the_link(seed):
    bench = Bench(Faults(seed=seed, drop=0.1, corrupt=0.05))
    bench.connect()
    for i in range(40):
        if i % 7 == 3:  # a die resting on face 9: the frame is good, its content is not
            bench.hub.emit({"type": "die", "die": 0, "stable": True, "face": 9, "t_us": i})
        else:
            bench.hub.emit(gate(i))
        bench.run(0.002)
    assert bench.run(30.0, step=0.001, until=lambda: len(bench.events) >= 34)
    bench.run(0.3)
    assert [e.message for e in bench.events] == [gate(i) for i in range(40) if i % 7 != 3]
    assert bench.session.stats.invalid == 6
    # everything acknowledged, the invalid ones too: a lost acknowledgement is made good by
    # the hub's retransmission (every 0.1 s), which may itself be lost
    assert bench.run(5.0, step=0.001, until=lambda: not bench.hub.buffer)
