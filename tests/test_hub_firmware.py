"""The hub firmware's logic under CPython, with the MicroPython stand-ins (tests/hub_standin)."""

import json
from pathlib import Path

import machine
import pytest
import utime
from engine import CAPACITY, RESERVE, RETRANSMIT_US, WINDOW
from hypothesis import given, settings
from hypothesis import strategies as st
from inputs import Debouncer, Scanner, ValueDebouncer, bits_to_bytes
from main import Clock, Hub, field, load_config

from firmware_host.link import wire

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "hardware" / "hub" / "hub_config.json"
VECTORS = json.loads((ROOT / "hardware" / "test_vectors.json").read_text())


class BytesPort:
    """The USB port as two byte buffers (the pty tests use a real pty)."""

    def __init__(self):
        self.incoming = b""
        self.outgoing = wire.Decoder()
        self.frames = []

    def read_available(self):
        data, self.incoming = self.incoming, b""
        return data

    def write(self, data):
        self.frames += self.outgoing.feed(data)

    def take(self):
        out = [(seq, wire.decode_payload(kind, payload)) for seq, kind, payload in self.frames]
        self.frames = []
        return out


def chain_bytes(cfg, entry=0, top=0, curtain=0, edge=0):
    """Raw shift-register bytes for the given logical (1 = cut) input bits."""
    bits = 0
    for name, value in (
        ("entry_gate", entry),
        ("top_gate", top),
        ("curtain", curtain),
        ("edge", edge),
    ):
        spec = cfg["inputs"][name]
        mask = (1 << spec["count"]) - 1
        raw = (value ^ mask) if spec["active_low"] else value
        bits |= (raw & mask) << spec["first_bit"]
    return bits.to_bytes(35, "little")


@pytest.fixture
def hub():
    cfg = load_config(str(CONFIG))
    machine.SPI.wires = chain_bytes(cfg)
    machine.UART.incoming = b""
    port = BytesPort()
    h = Hub(cfg, port, boot_id=0xB007)
    h.port_ = port
    return h


def host_send(hub, seq, msg):
    hub.port_.incoming += wire.encode_message(seq, msg)
    hub.step()


def connect(hub, first_seq=0):
    host_send(
        hub,
        0,
        {
            "type": "connect",
            "protocol": wire.PROTOCOL_VERSION,
            "first_seq": first_seq,
            "host_us": 42,
        },
    )
    return hub.port_.take()


def run_scans(hub, n, period_us=1000):
    for _ in range(n):
        utime.advance(period_us)
        hub.step()


def test_vectors_decode_with_the_deployed_codec():
    import engine

    for vector in VECTORS["frames"]:
        [(seq, kind, payload)] = engine.wire.Decoder().feed(bytes.fromhex(vector["hex"]))
        msg = engine.wire.decode_payload(kind, payload)
        assert msg["type"] == vector["message"]["type"]
        assert seq == vector["seq"]
    for vector in VECTORS["rejected"]:
        assert engine.wire.Decoder().feed(bytes.fromhex(vector["hex"])) == []


def test_clock_survives_ticks_wrap():
    clock = Clock()
    start = clock()
    for _ in range(5):
        utime.advance(utime.TICKS_PERIOD // 3)
        clock()
    assert clock() - start == 5 * (utime.TICKS_PERIOD // 3)


def test_debounce_needs_two_agreeing_samples():
    d = Debouncer(4)
    assert d.sample(0b0001) == 0  # seen once: not yet
    assert d.sample(0b0000) == 0  # a one-sample glitch never counts
    assert d.sample(0b0010) == 0
    assert d.sample(0b0010) == 0b0010
    assert d.stable == 0b0010
    assert d.sample(0b0010) == 0
    v = ValueDebouncer(-1)
    assert not v.sample(3)
    assert v.sample(3) and v.stable == 3


def test_connect_answers_hello_with_inventory(hub):
    [(seq, hello)] = connect(hub)
    assert seq == 0
    assert hello["type"] == "hello"
    assert hello["protocol"] == wire.PROTOCOL_VERSION
    assert hello["boot_id"] == 0xB007
    assert hello["host_us"] == 42 and hello["hub_us"] == hub.clock()
    assert (hello["entry_beams"], hello["top_beams"], hello["curtain"], hello["edge"]) == (
        30,
        1,
        60,
        90,
    )
    assert hello["dice"] == 6 and hello["piece_reader"] is True
    assert hello["led_strips"] == [27, 27, 27, 27]


def test_connect_from_another_version_gets_hello_but_no_session(hub):
    host_send(
        hub, 0, {"type": "connect", "protocol": wire.PROTOCOL_VERSION, "first_seq": 0, "host_us": 1}
    )
    hub.port_.take()
    hub.port_.incoming += wire.encode_frame(0, wire.CONNECT, bytes([wire.PROTOCOL_VERSION + 1, 7]))
    hub.step()
    hub.engine.emit({"type": "gate", "gate": 0, "beam": 1, "cut": True, "t_us": 5})
    [(_, hello)] = hub.port_.take()  # the hello, and no event
    assert hello["type"] == "hello" and hello["protocol"] == wire.PROTOCOL_VERSION
    assert not hub.engine.connected


def test_gate_cut_is_an_event_stamped_when_first_seen(hub):
    connect(hub)
    run_scans(hub, 2)
    cfg = hub.cfg
    machine.SPI.wires = chain_bytes(cfg, entry=1 << 7)
    utime.advance(1000)
    hub.step()
    first_seen = hub.clock()
    assert hub.port_.take() == []
    run_scans(hub, 1)
    [(seq, event)] = hub.port_.take()
    assert event == {"type": "gate", "gate": 0, "beam": 7, "cut": True, "t_us": first_seen}
    assert seq == 0


def test_strip_change_sends_whole_bitmap_and_tray_lines_become_dice_and_tag(hub):
    connect(hub)
    machine.SPI.wires = chain_bytes(hub.cfg, curtain=0b101, edge=1 << 89)
    machine.UART.incoming = b"D 2 5\nT 04a1b2c3\nD 9 1\ngarbage\n"
    run_scans(hub, 2)
    events = [m for _, m in hub.port_.take()]
    kinds = [(e["type"], e.get("source"), e.get("die")) for e in events]
    assert kinds == [
        ("bitmap", 2, None),
        ("bitmap", 3, None),
        ("die", None, 2),
        ("piece", None, None),
    ]
    assert events[0]["bits"] == bits_to_bytes(0b101, 60)
    assert events[1]["length"] == 90 and events[1]["bits"][-1] == 0b10
    assert events[2]["face"] == 4 and events[2]["stable"]
    assert events[3]["tag"] == bytes.fromhex("04a1b2c3")


def test_events_are_held_until_acked_and_resent(hub):
    connect(hub)
    for beam in range(3):
        hub.engine.emit({"type": "gate", "gate": 1, "beam": beam, "cut": True, "t_us": beam})
    assert [s for s, _ in hub.port_.take()] == [0, 1, 2]
    host_send(hub, 0, {"type": "ack", "next_seq": 1})
    utime.advance(RETRANSMIT_US + 1)
    hub.step()
    assert [s for s, _ in hub.port_.take()] == [1, 2]  # resent after the timeout
    host_send(hub, 0, {"type": "nak", "next_seq": 2, "reason": wire.NAK_GAP})
    assert [s for s, _ in hub.port_.take()] == [2]  # go back at once on a nak
    host_send(hub, 0, {"type": "ack", "next_seq": 3})
    utime.advance(RETRANSMIT_US + 1)
    hub.step()
    assert hub.port_.take() == []


def test_no_more_than_a_window_in_flight(hub):
    connect(hub)
    for beam in range(WINDOW + 5):
        hub.engine.emit({"type": "gate", "gate": 0, "beam": beam, "cut": True, "t_us": 0})
    assert len(hub.port_.take()) == WINDOW
    host_send(hub, 0, {"type": "ack", "next_seq": 5})
    assert [s for s, _ in hub.port_.take()] == list(range(WINDOW, WINDOW + 5))


def test_events_wait_for_a_host_and_survive_reconnect(hub):
    hub.engine.emit({"type": "gate", "gate": 0, "beam": 1, "cut": True, "t_us": 5})
    assert hub.port_.take() == []  # nobody connected
    frames = connect(hub)
    assert frames[0][1]["first_seq"] == 0
    assert [m["type"] for _, m in frames[1:]] == ["gate"]


def test_commands_executed_once_and_acked(hub):
    connect(hub, first_seq=10)
    rgb = bytes([10, 20, 30, 40, 50, 60])
    host_send(hub, 10, {"type": "leds", "strip": 2, "start": 25, "rgb": rgb})
    assert hub.port_.take() == [(0, {"type": "ack", "next_seq": 11})]
    strip = hub.device.strips[2]
    assert strip.shown[25:27] == [(10, 20, 30), (40, 50, 60)]
    writes = strip.writes
    host_send(hub, 10, {"type": "leds", "strip": 2, "start": 25, "rgb": rgb})  # retransmission
    assert hub.port_.take() == [(0, {"type": "ack", "next_seq": 11})]
    assert strip.writes == writes
    host_send(hub, 12, {"type": "sampling", "period_us": 2000})  # #11 was lost
    assert hub.port_.take() == [(0, {"type": "nak", "next_seq": 11, "reason": wire.NAK_GAP})]


def test_invalid_command_is_rejected_not_executed(hub):
    connect(hub)
    host_send(hub, 0, {"type": "leds", "strip": 0, "start": 26, "rgb": bytes(6)})
    assert hub.port_.take() == [
        (0, {"type": "nak", "next_seq": 1, "reason": wire.NAK_REJECTED}),
        (0, {"type": "ack", "next_seq": 1}),
    ]
    assert hub.device.strips[0].writes == 0


def test_snapshot_sampling_and_reset_commands(hub):
    connect(hub)
    machine.SPI.wires = chain_bytes(hub.cfg, top=0b1)
    run_scans(hub, 2)
    hub.port_.take()
    host_send(hub, 0, {"type": "snapshot_request"})
    frames = [m for _, m in hub.port_.take()]
    assert frames[0] == {"type": "ack", "next_seq": 1}
    assert [m["type"] for m in frames[1:]] == ["bitmap"] * 4 + ["die"] * 6 + [
        "piece",
        "snapshot_done",
    ]
    assert frames[2]["bits"] == bits_to_bytes(0b1, 1)
    host_send(hub, 1, {"type": "sampling", "period_us": 5000})
    assert hub.device.period_us == 5000
    resets = machine.resets
    host_send(hub, 2, {"type": "reset"})
    assert hub.port_.take()[-1] == (0, {"type": "ack", "next_seq": 3})
    assert machine.resets == resets + 1


def test_leds_go_idle_after_two_seconds_of_host_silence(hub):
    connect(hub)
    host_send(hub, 0, {"type": "leds", "strip": 1, "start": 0, "rgb": bytes([9, 9, 9])})
    utime.advance(1_900_000)
    hub.step()
    assert hub.device.strips[1].shown[0] == (9, 9, 9)
    utime.advance(200_000)
    hub.step()
    assert all(s.shown == [(0, 0, 0)] * 27 for s in hub.device.strips)
    hub.port_.take()
    host_send(hub, 0, {"type": "ping", "host_us": 1})  # the session timed out with the host
    assert hub.port_.take() == [
        (0, {"type": "nak", "next_seq": 1, "reason": wire.NAK_NOT_CONNECTED})
    ]


def test_overflow_is_reported_then_a_full_snapshot(hub):
    connect(hub)
    room = CAPACITY - RESERVE
    for i in range(room + 7):
        hub.engine.emit({"type": "gate", "gate": 0, "beam": i % 30, "cut": True, "t_us": i})
    assert hub.engine.dropped == 7
    seen = []
    frames = hub.port_.take()
    while frames:  # a host acknowledging everything it receives
        seen += [m for _, m in frames]
        last = max(s for s, m in frames if m["type"] != "ack")
        host_send(hub, 0, {"type": "ack", "next_seq": wire.seq_add(last, 1)})
        frames = hub.port_.take()
    kinds = [m["type"] for m in seen if m["type"] != "ack"]
    assert kinds.count("gate") == room
    assert "overflow" in kinds
    after = kinds[kinds.index("overflow") + 1 :]
    assert after[:4] == ["bitmap"] * 4 and after[-1] == "snapshot_done"
    assert next(m for m in seen if m["type"] == "overflow")["dropped"] == 7


def test_field_extracts_and_inverts_active_low():
    spec = {"first_bit": 4, "count": 4, "active_low": True}
    assert field(0b1010_0000, spec) == 0b0101
    assert (
        Scanner({"entry_beams": 2, "top_beams": 2, "curtain": 3, "edge": 3, "dice": 1}).snapshot(0)[
            0
        ]["length"]
        == 2
    )


def test_usb_port_reads_and_writes_raw_bytes_over_a_pty(monkeypatch):
    import io
    import os
    import select
    import time
    import tty
    from types import SimpleNamespace

    import micropython
    from main import UsbPort

    master, slave = os.openpty()
    tty.setraw(slave)
    # MicroPython's stdin.buffer and stdout.buffer are unbuffered: raw FileIO is the match.
    stdin = SimpleNamespace(buffer=io.FileIO(slave, "rb", closefd=False), fileno=lambda: slave)
    stdout = SimpleNamespace(buffer=io.FileIO(slave, "wb", closefd=False))
    monkeypatch.setattr("sys.stdin", stdin)
    monkeypatch.setattr("sys.stdout", stdout)
    try:
        port = UsbPort()
        assert micropython.interrupt_char == -1  # 0x03 in a frame must not stop the firmware
        assert port.read_available() == b""
        frame = wire.encode_message(0, {"type": "ping", "host_us": 0x0303})
        os.write(master, frame)
        got = b""
        deadline = time.monotonic() + 5
        while (
            len(got) < len(frame) and select.select([slave], [], [], deadline - time.monotonic())[0]
        ):
            got += port.read_available()
        assert got == frame
        port.write(frame)
        assert os.read(master, 100) == frame
    finally:
        os.close(master)
        os.close(slave)


def _vector_message(fields):
    return {k: bytes.fromhex(v) if k in ("bits", "tag", "rgb") else v for k, v in fields.items()}


@pytest.mark.parametrize("vector", VECTORS["invalid"], ids=lambda v: v["meaning"])
def test_invalid_vectors_are_refused_by_the_deployed_codec(vector):
    import engine

    [(_seq, kind, payload)] = engine.wire.Decoder().feed(bytes.fromhex(vector["hex"]))
    with pytest.raises(engine.wire.WireError):
        engine.wire.decode_payload(kind, payload)


@pytest.mark.parametrize("exchange", VECTORS["exchanges"]["hub"], ids=lambda v: v["meaning"][:60])
def test_hub_engine_follows_the_exchange(exchange):
    from tests.link_harness import make_hub_engine

    now = [7_000_000]
    sent = []
    engine = make_hub_engine(lambda: now[0], sent.append)
    for number, step in enumerate(exchange["steps"]):
        sent.clear()
        now[0] += 1000
        if "receive" in step:
            engine.feed(b"".join(bytes.fromhex(f["hex"]) for f in step["receive"]))
        for event in step.get("emit", []):
            engine.emit(_vector_message(event))
        if "wait_ms" in step:
            now[0] += step["wait_ms"] * 1000 - 1000
            engine.tick()
        assert len(sent) == len(step["send"]), f"step {number}: {sent}"
        for got, want in zip(sent, step["send"], strict=True):
            if "hex" in want:
                assert got.hex() == want["hex"], f"step {number}"
            else:
                [(seq, kind, payload)] = wire.Decoder().feed(got)
                decoded = wire.decode_payload(kind, payload)
                assert seq == want.get("seq", 0)
                assert {k: decoded[k] for k in want["message"]} == want["message"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 9), max_size=30))
def test_commands_in_any_order_run_once_in_order_with_one_answer_each(arrivals):
    """Commands #0..#9 arrive in any order, repeated or missing, then all in order: each
    gets one answer (a nak of reason 2 at most once per expected number, else an ack with
    the expected number), and each runs once, in order."""
    from tests.link_harness import make_hub_engine

    sent = []
    engine = make_hub_engine(lambda: 1000, sent.append)
    runs = []
    engine.device.set_sampling = runs.append
    connect = {"type": "connect", "protocol": 1, "first_seq": 0, "host_us": 1}
    engine.feed(wire.encode_message(0, connect))
    naked = []
    for seq in [*arrivals, *range(10)]:
        sent.clear()
        engine.feed(wire.encode_message(seq, {"type": "sampling", "period_us": 1000 + seq}))
        [answer] = [wire.decode_payload(k, p) for s, k, p in wire.Decoder().feed(b"".join(sent))]
        assert answer["next_seq"] == engine.expected_cmd
        if answer["type"] == "nak":
            assert answer["reason"] == wire.NAK_GAP
            naked.append(answer["next_seq"])
    assert len(naked) == len(set(naked))
    assert runs == [1000 + seq for seq in range(10)]
