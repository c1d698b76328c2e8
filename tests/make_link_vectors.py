"""Writes the ``invalid`` and ``exchanges`` sections of ``hardware/test_vectors.json``.

Run ``.venv/bin/python -m tests.make_link_vectors`` after changing a rule of
``hardware/PROTOCOL.md``; the other sections are written by hand. Every frame is given as
hex with its decoded meaning, so a second implementation needs nothing but the JSON.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

from firmware_host.link import wire

VECTORS = Path(__file__).resolve().parents[1] / "hardware" / "test_vectors.json"

HELLO = {
    "type": "hello",
    "protocol": 1,
    "firmware": [1, 0, 0],
    "host_us": 1000,
    "hub_us": 5000,
    "entry_beams": 30,
    "top_beams": 1,
    "curtain": 60,
    "edge": 90,
    "dice": 6,
    "piece_reader": True,
    "led_strips": [27, 27, 27, 27],
}
BOOT_A = 0x0000B007
BOOT_B = 0x0000BEEF


def _jsonable(message: dict[str, Any]) -> dict[str, Any]:
    return {k: v.hex() if isinstance(v, bytes) else v for k, v in message.items()}


def frame(seq: int, message: dict[str, Any]) -> dict[str, Any]:
    """A frame with its meaning."""
    return {
        "seq": seq,
        "message": _jsonable(message),
        "hex": wire.encode_message(seq, message).hex(),
    }


def raw(data: bytes, meaning: str) -> dict[str, Any]:
    """Bytes that are not one valid frame (corrupt, or valid CRC with invalid content)."""
    return {"meaning": meaning, "hex": data.hex()}


def gate(i: int, cut: bool = True) -> dict[str, Any]:
    return {"type": "gate", "gate": 0, "beam": i % 30, "cut": cut, "t_us": 1000 + i}


def hello(first_seq: int, boot_id: int = BOOT_A) -> dict[str, Any]:
    return dict(HELLO, boot_id=boot_id, first_seq=first_seq)


def ack(n: int) -> dict[str, Any]:
    return frame(0, {"type": "ack", "next_seq": n})


def nak(n: int, reason: int) -> dict[str, Any]:
    return frame(0, {"type": "nak", "next_seq": n, "reason": reason})


def flipped(data: bytes, index: int) -> bytes:
    broken = bytearray(data)
    broken[index] ^= 0x10
    return bytes(broken)


def with_crc(body: bytes) -> bytes:
    """``SYNC`` + ``body`` (``LEN SEQ TYPE PAYLOAD``) + its good CRC."""
    return bytes([wire.SYNC]) + body + struct.pack(">H", wire.crc16(body))


def invalid_frames() -> list[dict[str, Any]]:
    """Frames whose CRC, type and length are good and whose content is not."""
    gate_cut_2 = bytes([11, 5, wire.GATE]) + bytes([0, 3, 2]) + (1000).to_bytes(8, "little")
    die_face_7 = bytes([11, 5, wire.DIE]) + bytes([0, 1, 7]) + (1000).to_bytes(8, "little")
    bitmap_short = (
        bytes([12, 5, wire.BITMAP]) + bytes([2]) + (1000).to_bytes(8, "little") + bytes([60, 0, 0])
    )
    piece_tag_len = bytes([10, 5, wire.PIECE]) + (1000).to_bytes(8, "little") + bytes([4, 0xAB])
    connect_11 = bytes([11, 0, wire.CONNECT, 1, 0]) + bytes(9)
    hello_payload = wire.encode_payload(hello(0))
    hello_43 = bytes([len(hello_payload) + 1, 0, wire.HELLO]) + hello_payload + b"\x00"
    return [
        raw(with_crc(gate_cut_2), "gate #5 with cut 2 (only 0 and 1 exist)"),
        raw(with_crc(die_face_7), "die #5 stable on face 7 (faces are 0-5)"),
        raw(with_crc(bitmap_short), "bitmap #5 of 60 curtain elements in 1 byte (needs 8)"),
        raw(with_crc(piece_tag_len), "piece #5 whose tag_len says 4 but 1 byte follows"),
        raw(with_crc(connect_11), "protocol-1 connect of 11 bytes (must be 10)"),
        raw(with_crc(hello_43), "protocol-1 hello with 4 LED strips in 43 bytes (must be 42)"),
    ]


def host_exchanges() -> list[dict[str, Any]]:
    """What a host must answer: steps ``receive`` (frames from the hub, in one read),
    ``command`` (the host's application sends a command), and for each the frames it
    ``send``s and the event numbers it ``deliver``s (in order)."""
    g = gate
    corrupt_pong = flipped(wire.encode_message(0, {"type": "pong", "host_us": 1, "hub_us": 2}), 6)
    invalid = invalid_frames()
    leds = {"type": "leds", "strip": 0, "start": 0, "rgb": bytes([1, 2, 3])}
    return [
        {
            "meaning": "events in order, in one read, are delivered and answered by one ack",
            "steps": [
                {"receive": [frame(0, hello(5))], "send": [], "deliver": []},
                {"receive": [frame(5, g(5)), frame(6, g(6))], "send": [ack(7)], "deliver": [5, 6]},
            ],
        },
        {
            "meaning": "a corrupt frame gets no answer: no nak (the next event shows any gap)",
            "steps": [
                {"receive": [frame(0, hello(5))], "send": [], "deliver": []},
                {
                    "receive": [raw(corrupt_pong, "pong with a bit flipped"), frame(5, g(5))],
                    "send": [ack(6)],
                    "deliver": [5],
                },
                {
                    "receive": [raw(flipped(wire.encode_message(6, g(6)), 7), "gate #6 flipped")],
                    "send": [],
                    "deliver": [],
                },
            ],
        },
        {
            "meaning": "a gap: one nak for the expected number, later frames kept and "
            "delivered when the gap is filled",
            "steps": [
                {"receive": [frame(0, hello(5))], "send": [], "deliver": []},
                {"receive": [frame(6, g(6))], "send": [nak(5, 2)], "deliver": []},
                {"receive": [frame(7, g(7))], "send": [ack(5)], "deliver": []},
                {"receive": [frame(5, g(5))], "send": [ack(8)], "deliver": [5, 6, 7]},
            ],
        },
        {
            "meaning": "a second gap behind a filled one is nak'd at once",
            "steps": [
                {"receive": [frame(0, hello(5))], "send": [], "deliver": []},
                {"receive": [frame(6, g(6)), frame(8, g(8))], "send": [nak(5, 2)], "deliver": []},
                {"receive": [frame(5, g(5))], "send": [nak(7, 2)], "deliver": [5, 6]},
                {"receive": [frame(7, g(7))], "send": [ack(9)], "deliver": [7, 8]},
            ],
        },
        {
            "meaning": "a repeat is acknowledged again and not delivered again",
            "steps": [
                {"receive": [frame(0, hello(5))], "send": [], "deliver": []},
                {"receive": [frame(5, g(5))], "send": [ack(6)], "deliver": [5]},
                {"receive": [frame(5, g(5))], "send": [ack(6)], "deliver": []},
            ],
        },
        {
            "meaning": "an event with invalid content is acknowledged, never delivered",
            "steps": [
                {"receive": [frame(0, hello(5))], "send": [], "deliver": []},
                {"receive": [invalid[0]], "send": [ack(6)], "deliver": []},
                {"receive": [frame(6, g(6))], "send": [ack(7)], "deliver": [6]},
            ],
        },
        {
            "meaning": "a control frame with SEQ != 0 is ignored (this hello opens no session)",
            "steps": [
                {"receive": [frame(1, hello(5))], "send": [], "deliver": []},
                {"receive": [frame(5, g(5))], "send": [], "deliver": []},
                {"receive": [frame(0, hello(5))], "send": [], "deliver": []},
                {"receive": [frame(5, g(5))], "send": [ack(6)], "deliver": [5]},
            ],
        },
        {
            "meaning": "a protocol-1 hello of the wrong length is ignored (no session)",
            "steps": [
                {"receive": [invalid[5]], "send": [], "deliver": []},
                {"receive": [frame(0, g(0))], "send": [], "deliver": []},
            ],
        },
        {
            "meaning": "same boot_id after a reconnect: the host keeps its expected number",
            "steps": [
                {"receive": [frame(0, hello(5))], "send": [], "deliver": []},
                {"receive": [frame(5, g(5)), frame(6, g(6))], "send": [ack(7)], "deliver": [5, 6]},
                {"receive": [frame(0, hello(5))], "send": [], "deliver": []},
                {"receive": [frame(5, g(5)), frame(6, g(6))], "send": [ack(7)], "deliver": []},
            ],
        },
        {
            "meaning": "same boot_id after a reconnect: the events kept after a gap are kept",
            "steps": [
                {"receive": [frame(0, hello(5))], "send": [], "deliver": []},
                {"receive": [frame(6, g(6))], "send": [nak(5, 2)], "deliver": []},
                {"receive": [frame(0, hello(5))], "send": [], "deliver": []},
                {"receive": [frame(5, g(5))], "send": [ack(7)], "deliver": [5, 6]},
            ],
        },
        {
            "meaning": "a new boot_id: expected number from the new hello, and a snapshot_request",
            "steps": [
                {"receive": [frame(0, hello(5))], "send": [], "deliver": []},
                {"receive": [frame(5, g(5))], "send": [ack(6)], "deliver": [5]},
                {
                    "receive": [frame(0, hello(0, BOOT_B))],
                    "send": [frame(0, {"type": "snapshot_request"})],
                    "deliver": [],
                },
                {"receive": [frame(0, g(0))], "send": [ack(1)], "deliver": [0]},
            ],
        },
        {
            "meaning": "a nak acknowledges the commands before next_seq; the host resends the rest",
            "steps": [
                {"receive": [frame(0, hello(5))], "send": [], "deliver": []},
                {"command": _jsonable(leds), "send": [frame(0, leds)], "deliver": []},
                {"command": _jsonable(leds), "send": [frame(1, leds)], "deliver": []},
                {"receive": [nak(1, 2)], "send": [frame(1, leds)], "deliver": []},
                {"receive": [ack(2)], "send": [], "deliver": []},
            ],
        },
        {
            "meaning": "a nak of reason 1 is handled like reason 2; reason 3 rejects the "
            "command before next_seq and asks for no resend",
            "steps": [
                {"receive": [frame(0, hello(5))], "send": [], "deliver": []},
                {"command": _jsonable(leds), "send": [frame(0, leds)], "deliver": []},
                {"command": _jsonable(leds), "send": [frame(1, leds)], "deliver": []},
                {"receive": [nak(0, 1)], "send": [frame(0, leds), frame(1, leds)], "deliver": []},
                {"receive": [nak(1, 3), ack(1)], "send": [], "deliver": []},
            ],
        },
    ]


def hub_exchanges() -> list[dict[str, Any]]:
    """What a hub must answer: steps ``receive`` (frames from the host), ``emit`` (sensor
    events to report) and ``wait_ms`` (time passes), each with the frames it ``send``s
    (a hello is given by the fields that must match)."""
    g = gate
    connect = frame(0, {"type": "connect", "protocol": 1, "first_seq": 0, "host_us": 1000})
    invalid = invalid_frames()
    sampling = [frame(i, {"type": "sampling", "period_us": 2000 + i}) for i in range(3)]
    hello_0 = {"message": {"type": "hello", "protocol": 1, "first_seq": 0}}
    bad_leds = {"type": "leds", "strip": 0, "start": 26, "rgb": bytes(6)}
    return [
        {
            "meaning": "a nak acknowledges what precedes next_seq; the hub resends that one "
            "frame only",
            "steps": [
                {"receive": [connect], "send": [hello_0]},
                {"emit": [g(i) for i in range(4)], "send": [frame(i, g(i)) for i in range(4)]},
                {"receive": [nak(2, 2)], "send": [frame(2, g(2))]},
                {"receive": [ack(4)], "send": []},
                {"wait_ms": 101, "send": []},
            ],
        },
        {
            "meaning": "a nak of reason 1 is handled like reason 2",
            "steps": [
                {"receive": [connect], "send": [hello_0]},
                {"emit": [g(0), g(1)], "send": [frame(0, g(0)), frame(1, g(1))]},
                {"receive": [nak(1, 1)], "send": [frame(1, g(1))]},
            ],
        },
        {
            "meaning": "100 ms without progress: the hub goes back to its oldest "
            "unacknowledged event and resends the window",
            "steps": [
                {"receive": [connect], "send": [hello_0]},
                {"emit": [g(i) for i in range(3)], "send": [frame(i, g(i)) for i in range(3)]},
                {"receive": [ack(1)], "send": []},
                {"wait_ms": 99, "send": []},
                {"wait_ms": 2, "send": [frame(1, g(1)), frame(2, g(2))]},
            ],
        },
        {
            "meaning": "the hello names the oldest unacknowledged event after a reconnect",
            "steps": [
                {"receive": [connect], "send": [hello_0]},
                {"emit": [g(0), g(1)], "send": [frame(0, g(0)), frame(1, g(1))]},
                {"receive": [ack(1)], "send": []},
                {
                    "receive": [connect],
                    "send": [{"message": {"type": "hello", "first_seq": 1}}, frame(1, g(1))],
                },
            ],
        },
        {
            "meaning": "a command gap is nak'd once per expected number; a repeat is acked",
            "steps": [
                {"receive": [connect], "send": [hello_0]},
                {"receive": [sampling[1]], "send": [nak(0, 2)]},
                {"receive": [sampling[2]], "send": [ack(0)]},
                {"receive": [sampling[0]], "send": [ack(1)]},
                {"receive": [sampling[0]], "send": [ack(1)]},
            ],
        },
        {
            "meaning": "a corrupt command gets no answer",
            "steps": [
                {"receive": [connect], "send": [hello_0]},
                {
                    "receive": [
                        raw(flipped(bytes.fromhex(sampling[0]["hex"]), 5), "sampling #0 flipped")
                    ],
                    "send": [],
                },
            ],
        },
        {
            "meaning": "a command with invalid content is rejected (nak reason 3) and acknowledged",
            "steps": [
                {"receive": [connect], "send": [hello_0]},
                {"receive": [frame(0, bad_leds)], "send": [nak(1, 3), ack(1)]},
            ],
        },
        {
            "meaning": "a control frame with SEQ != 0 is ignored (this ack acknowledges nothing)",
            "steps": [
                {"receive": [connect], "send": [hello_0]},
                {"emit": [g(0)], "send": [frame(0, g(0))]},
                {"receive": [frame(5, {"type": "ack", "next_seq": 1})], "send": []},
                {"wait_ms": 101, "send": [frame(0, g(0))]},
            ],
        },
        {
            "meaning": "a protocol-1 connect of the wrong length is ignored (no hello)",
            "steps": [{"receive": [invalid[4]], "send": []}],
        },
        {
            "meaning": "outside a session a command is answered with nak reason 4",
            "steps": [{"receive": [sampling[0]], "send": [nak(0, 4)]}],
        },
    ]


def main() -> None:
    """Rewrite the generated sections of the vectors file."""
    data = json.loads(VECTORS.read_text())
    data["invalid"] = invalid_frames()
    data["exchanges"] = {
        "comment": "Scripted conversations (hardware/PROTOCOL.md, Reliability). host: the "
        "host's answers to frames from the hub ('receive', one read) and to its own "
        "commands ('command'); 'send' lists the frames it writes (heartbeats left out: no "
        "time passes), 'deliver' the event numbers it delivers. hub: the hub's answers to "
        "frames from the host ('receive'), to sensor events ('emit'), and to time passing "
        "('wait_ms', measured from the step before); a 'send' entry without hex gives the "
        "fields that must match.",
        "host": host_exchanges(),
        "hub": hub_exchanges(),
    }
    VECTORS.write_text(json.dumps(data, indent=2) + "\n")


if __name__ == "__main__":
    main()
