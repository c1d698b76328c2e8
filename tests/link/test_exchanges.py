"""The host's session replays the host side of hardware/test_vectors.json's exchanges, and
the codec refuses every 'invalid' vector's content (the firmware's side is in
tests/test_hub_firmware.py)."""

import json
import struct
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.link import wire
from firmware_host.link.session import HubEvent, LinkSession

ROOT = Path(__file__).resolve().parents[2]
VECTORS = json.loads((ROOT / "hardware" / "test_vectors.json").read_text())
BYTE_FIELDS = ("bits", "tag", "rgb")


def message(fields: dict[str, Any]) -> dict[str, Any]:
    return {k: bytes.fromhex(v) if k in BYTE_FIELDS else v for k, v in fields.items()}


def frames_of(entries: list[dict[str, Any]]) -> bytes:
    return b"".join(bytes.fromhex(entry["hex"]) for entry in entries)


@pytest.mark.parametrize("vector", VECTORS["invalid"], ids=lambda v: v["meaning"])
def test_invalid_vectors_pass_the_framing_and_fail_the_content(vector):
    [(_seq, kind, payload)] = wire.Decoder().feed(bytes.fromhex(vector["hex"]))
    with pytest.raises(wire.WireError):
        wire.decode_payload(kind, payload)


@pytest.mark.parametrize("exchange", VECTORS["exchanges"]["host"], ids=lambda v: v["meaning"][:60])
def test_host_follows_the_exchange(exchange):
    now = [100.0]
    sent: list[bytes] = []
    delivered: list[HubEvent] = []

    def new_session() -> LinkSession:
        return LinkSession(lambda: now[0], sent.append, delivered.append, lambda reason: None)

    session = new_session()
    for number, step in enumerate(exchange["steps"]):
        sent.clear()
        delivered.clear()
        now[0] += 0.001
        if "receive" in step:
            data = frames_of(step["receive"])
            if session.up and data[3] == wire.HELLO:  # a hello again: the link reconnected
                old, session = session, new_session()
                session.carry_over(old)
            session.receive(data)
        if "command" in step:
            session.send(message(step["command"]), lambda error: None)
        assert [f.hex() for f in sent] == [f["hex"] for f in step["send"]], f"step {number}"
        assert [e.seq for e in delivered] == step["deliver"], f"step {number}"


def test_invalid_event_is_reported_once_and_counted():
    now = [1.0]
    session = LinkSession(lambda: now[0], lambda b: None, lambda e: None, lambda r: None)
    hello = next(v for v in VECTORS["frames"] if v["message"]["type"] == "hello")
    session.receive(bytes.fromhex(hello["hex"]))  # expects #5
    bad = bytes.fromhex(VECTORS["invalid"][0]["hex"])  # gate #5, cut 2
    session.receive(bad)
    session.receive(bad)  # a repeat of it: counted as a repeat, not reported again
    assert session.stats.invalid == 1 and session.stats.duplicates == 1
    assert session.stats.problems == {
        "the hub sent an invalid gate frame: gate event with gate 0, cut 2": 1
    }


def _event_frame(seq: int) -> bytes:
    """Event #seq; numbers ending in 2 or 7 have invalid content (the same at each resend)."""
    if seq % 5 == 2:
        body = bytes([11, seq, wire.GATE, 0, 3, 2]) + seq.to_bytes(8, "little")  # cut 2
        return bytes([wire.SYNC]) + body + struct.pack(">H", wire.crc16(body))
    gate = {"type": "gate", "gate": 0, "beam": seq % 30, "cut": True, "t_us": seq}
    return wire.encode_message(seq, gate)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.integers(0, 24), min_size=1, max_size=5), max_size=25))
def test_answers_follow_the_rules_for_any_arrival_order(reads):
    """Events #5..#29 arrive in any order, repeated or missing, several to a read: every read
    gets one answer carrying the expected number, a gap nak at most once per expected
    number, and in the end every valid event is delivered once and in order."""
    now = [1.0]
    sent: list[bytes] = []
    delivered: list[HubEvent] = []
    session = LinkSession(lambda: now[0], sent.append, delivered.append, lambda r: None)
    hello = next(v for v in VECTORS["frames"] if v["message"]["type"] == "hello")
    session.receive(bytes.fromhex(hello["hex"]))  # expects #5
    naked: list[int] = []
    finish = [[n] for n in range(25)]  # then everything arrives, in order
    for read in [*reads, *finish]:
        sent.clear()
        session.receive(b"".join(_event_frame(5 + n) for n in read))
        [(seq, kind, payload)] = wire.Decoder().feed(b"".join(sent))
        answer = wire.decode_payload(kind, payload)
        assert seq == 0 and answer["next_seq"] == session.expected_event
        if answer["type"] == "nak":
            assert answer["reason"] == wire.NAK_GAP
            naked.append(answer["next_seq"])
    assert len(naked) == len(set(naked))
    assert [e.seq for e in delivered] == [n for n in range(5, 30) if n % 5 != 2]
    assert session.expected_event == 30
