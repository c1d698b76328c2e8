"""The host's session replays the host side of hardware/test_vectors.json's exchanges, and
the codec refuses every 'invalid' vector's content (the firmware's side is in
tests/test_hub_firmware.py)."""

import json
from pathlib import Path
from typing import Any

import pytest

from firmware_host.link import wire
from firmware_host.link.session import HubEvent, LinkSession

ROOT = Path(__file__).resolve().parents[1]
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
