"""The hub link's frame codec: one module run by the Pi (CPython 3.11) and the hub (MicroPython).

A frame is ``SYNC LEN SEQ TYPE PAYLOAD CRC`` (see ``hardware/PROTOCOL.md``): ``SYNC`` is
0xA5, ``LEN`` the payload length (0-240), ``SEQ`` the sender's sequence number (0 on
control frames), ``TYPE`` the message type, and ``CRC`` the CRC-16/CCITT-FALSE (poly
0x1021, init 0xFFFF, no reflection, no final xor; check value 0x29B1 for ``b"123456789"``)
of ``LEN SEQ TYPE PAYLOAD``, big-endian.

>>> frame = encode_frame(7, GATE, encode_payload({"type": "gate", "gate": 0, "beam": 3,
...                                                  "cut": True, "t_us": 1500}))
>>> decoder = Decoder()
>>> [(seq, kind) for seq, kind, _ in decoder.feed(b"\\x00garbage" + frame)]
[(7, 16)]

MicroPython compatibility (why this file looks the way it does): no dataclasses or enum,
no ``from __future__`` import; messages are plain dicts and frames plain tuples. Function
annotations use built-in names and ``typing.Any`` only (for mypy): the MicroPython compiler
accepts annotations and ignores them, so ``Any`` need not exist there, and its import is
skipped where there is no ``typing``. ``binascii.crc_hqx`` (C, CPython only) computes the
CRC when present; the table-driven fallback gives the same result (tested).
"""

import struct

try:
    from typing import Any
except ImportError:  # MicroPython: no typing, and annotations are never evaluated there
    pass

try:
    from binascii import crc_hqx as _crc_hqx

    _FAST_CRC = True
except ImportError:  # MicroPython's binascii has no crc_hqx
    _FAST_CRC = False

PROTOCOL_VERSION = 1
"""Bumped on any change to the frame layout or to a message; both ends must agree."""

SYNC = 0xA5
MAX_PAYLOAD = 240
HEADER_SIZE = 4
OVERHEAD = HEADER_SIZE + 2
"""Bytes a frame adds to its payload: sync, length, sequence, type, CRC."""

IDLE_FLUSH_US = 20000
"""A partial frame with no new byte for this long is given up (see ``Decoder.flush``)."""

_STRUCT_ERROR = getattr(struct, "error", ValueError)

# Control frames (not sequenced: SEQ is 0).
CONNECT = 0x01
HELLO = 0x02
ACK = 0x03
NAK = 0x04
PING = 0x05
PONG = 0x06
# Hub events (sequenced, buffered on the hub until acknowledged).
GATE = 0x10
BITMAP = 0x11
DIE = 0x12
PIECE = 0x13
SNAPSHOT_DONE = 0x14
OVERFLOW = 0x15
# Host commands (sequenced, retransmitted by the host until acknowledged).
LEDS = 0x20
SNAPSHOT_REQUEST = 0x21
SAMPLING = 0x22
RESET = 0x23

EVENT_TYPES = (GATE, BITMAP, DIE, PIECE, SNAPSHOT_DONE, OVERFLOW)
COMMAND_TYPES = (LEDS, SNAPSHOT_REQUEST, SAMPLING, RESET)
HOST_CONTROL = (CONNECT, ACK, NAK, PING)
"""Control frames a hub acts on (any other frame type but a command is ignored there)."""
HUB_CONTROL = (HELLO, ACK, NAK, PONG)
"""Control frames a host acts on (any other frame type but an event is ignored there)."""

NAMES = {
    CONNECT: "connect",
    HELLO: "hello",
    ACK: "ack",
    NAK: "nak",
    PING: "ping",
    PONG: "pong",
    GATE: "gate",
    BITMAP: "bitmap",
    DIE: "die",
    PIECE: "piece",
    SNAPSHOT_DONE: "snapshot_done",
    OVERFLOW: "overflow",
    LEDS: "leds",
    SNAPSHOT_REQUEST: "snapshot_request",
    SAMPLING: "sampling",
    RESET: "reset",
}
TYPES = {name: code for code, name in NAMES.items()}

# Bitmap sources and gates.
ENTRY_GATE = 0
TOP_GATE = 1
CURTAIN = 2
EDGE = 3

# NAK reasons.
NAK_CORRUPT = 1
NAK_GAP = 2
NAK_REJECTED = 3
NAK_NOT_CONNECTED = 4

MAX_TAG = 16
NO_FACE = 255

# Allowed payload lengths per type: (minimum, step, maximum); step 0 means fixed length.
LENGTHS = {
    CONNECT: (1, 1, MAX_PAYLOAD),  # any length: another version's connect must be readable
    HELLO: (4, 1, MAX_PAYLOAD),  # any length: another version's hello must be readable
    ACK: (1, 0, 1),
    NAK: (2, 0, 2),
    PING: (8, 0, 8),
    PONG: (16, 0, 16),
    GATE: (11, 0, 11),
    BITMAP: (11, 1, 11 + 32),
    DIE: (11, 0, 11),
    PIECE: (9, 1, 9 + MAX_TAG),
    SNAPSHOT_DONE: (8, 0, 8),
    OVERFLOW: (10, 0, 10),
    LEDS: (4, 3, 4 + 3 * 78),
    SNAPSHOT_REQUEST: (0, 0, 0),
    SAMPLING: (4, 0, 4),
    RESET: (0, 0, 0),
}


HELLO_HEAD = "<BBBBQQIBBBHHBBB"
HELLO_SIZE = 34
"""Bytes of a hello before its LED strip lengths."""


class WireError(ValueError):
    """A frame whose CRC is good but whose payload does not make a valid message."""


def _make_table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_TABLE = _make_table()


def crc16_table(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE of ``data`` by table lookup (the path MicroPython takes)."""
    table = _TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ byte]
    return crc


def crc16(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE of ``data``: ``crc16(b"123456789") == 0x29B1``."""
    if _FAST_CRC:
        return _crc_hqx(data, crc)
    return crc16_table(data, crc)


def length_ok(kind: int, length: int) -> bool:
    """Whether a payload of ``length`` bytes is possible for message type ``kind``."""
    rule = LENGTHS.get(kind)
    if rule is None:
        return False
    low, step, high = rule
    if length < low or length > high:
        return False
    if step == 0:
        return length == low
    return (length - low) % step == 0


def encode_frame(seq: int, kind: int, payload: bytes = b"") -> bytes:
    """One frame carrying ``payload`` as message type ``kind`` with sequence number ``seq``."""
    if not length_ok(kind, len(payload)):
        raise WireError("payload of %d bytes is not valid for type 0x%02x" % (len(payload), kind))
    body = bytes((len(payload), seq & 0xFF, kind)) + payload
    return bytes((SYNC,)) + body + struct.pack(">H", crc16(body))


class Decoder:
    """Turns a byte stream into frames, skipping garbage; counters say what it skipped.

    ``feed(data)`` returns the complete frames found so far as ``(seq, type, payload)``
    tuples. A frame is accepted only if its type is known, its length is possible for that
    type and its CRC matches. After a bad candidate the search resumes one byte after its
    sync byte, so a good frame that follows garbage (or sits inside a broken one) is found.
    """

    def __init__(self) -> None:
        self._buf = b""
        self.frames = 0
        self.bad_crc = 0
        self.bad_header = 0
        self.skipped = 0

    def pending(self) -> int:
        """Bytes held while waiting for the rest of a frame."""
        return len(self._buf)

    def feed(self, data: bytes) -> list[tuple[int, int, bytes]]:
        """Add received bytes; return the frames completed by them, in order."""
        # Plain bytes, not bytearray: bytes.find exists on MicroPython too, and the pending
        # tail is short, so joining it to each read costs little.
        buf = self._buf + bytes(data) if self._buf else bytes(data)
        out = []
        pos = 0
        end = len(buf)
        lengths = LENGTHS
        while True:
            start = buf.find(b"\xa5", pos)
            if start < 0:
                self.skipped += end - pos
                pos = end
                break
            self.skipped += start - pos
            pos = start
            if end - start < HEADER_SIZE:
                break
            length = buf[start + 1]
            kind = buf[start + 3]
            rule = lengths.get(kind)
            if (
                rule is None
                or length < rule[0]
                or length > rule[2]
                or (length != rule[0] and (rule[1] == 0 or (length - rule[0]) % rule[1]))
            ):
                self.bad_header += 1
                self.skipped += 1
                pos = start + 1
                continue
            stop = start + HEADER_SIZE + length
            if stop + 2 > end:
                break
            if crc16(buf[start + 1 : stop]) != (buf[stop] << 8) | buf[stop + 1]:
                self.bad_crc += 1
                self.skipped += 1
                pos = start + 1
                continue
            out.append((buf[start + 2], kind, buf[start + HEADER_SIZE : stop]))
            pos = stop + 2
        self._buf = buf[pos:] if pos < end else b""
        self.frames += len(out)
        return out

    def flush(self) -> list[tuple[int, int, bytes]]:
        """The line went idle: give up on the partial frame and look for frames inside it.

        A false sync byte in garbage can announce a frame longer than what follows; rather
        than wait for bytes that may not come, the owner calls this after a quiet spell
        (``IDLE_FLUSH_US``) and any good frame held behind the false start is returned.
        """
        out = []
        while self._buf:
            self._buf = self._buf[1:]
            self.skipped += 1
            out += self.feed(b"")
        return out


def seq_after(a: int, b: int) -> bool:
    """Whether sequence number ``a`` comes after ``b`` (modulo 256, within half the space)."""
    diff = (a - b) & 0xFF
    return 0 < diff < 128


def seq_add(a: int, n: int) -> int:
    """``a + n`` modulo 256."""
    return (a + n) & 0xFF


def _bits_len(count: int) -> int:
    return (count + 7) // 8


def encode_payload(msg: dict[str, Any]) -> bytes:
    """The payload bytes of a message dict (``msg["type"]`` names it, see ``NAMES``)."""
    kind = TYPES.get(msg.get("type", ""))
    try:
        return _encode(kind, msg)
    except (KeyError, TypeError, ValueError, OverflowError, _STRUCT_ERROR) as exc:
        raise WireError("cannot encode %r: %s" % (msg.get("type"), exc)) from None


def message_type(msg: dict[str, Any]) -> int:
    """The type code of a message dict."""
    kind = TYPES.get(msg.get("type", ""))
    if kind is None:
        raise WireError("unknown message type %r" % (msg.get("type"),))
    return kind


def _encode(kind: int | None, m: dict[str, Any]) -> bytes:
    if kind == CONNECT:
        return struct.pack("<BBQ", m["protocol"], m["first_seq"], m["host_us"])
    if kind == HELLO:
        strips = m["led_strips"]
        major, minor, patch = m["firmware"]
        head = struct.pack(
            HELLO_HEAD,
            m["protocol"],
            major,
            minor,
            patch,
            m["host_us"],
            m["hub_us"],
            m["boot_id"],
            m["first_seq"],
            m["entry_beams"],
            m["top_beams"],
            m["curtain"],
            m["edge"],
            m["dice"],
            1 if m["piece_reader"] else 0,
            len(strips),
        )
        return head + b"".join(struct.pack("<H", n) for n in strips)
    if kind == ACK:
        return struct.pack("<B", m["next_seq"])
    if kind == NAK:
        return struct.pack("<BB", m["next_seq"], m["reason"])
    if kind == PING:
        return struct.pack("<Q", m["host_us"])
    if kind == PONG:
        return struct.pack("<QQ", m["host_us"], m["hub_us"])
    if kind == GATE:
        return struct.pack("<BBBQ", m["gate"], m["beam"], 1 if m["cut"] else 0, m["t_us"])
    if kind == BITMAP:
        bits = bytes(m["bits"])
        if len(bits) != _bits_len(m["length"]):
            raise ValueError("%d bits need %d bytes" % (m["length"], _bits_len(m["length"])))
        return struct.pack("<BQH", m["source"], m["t_us"], m["length"]) + bits
    if kind == DIE:
        face = m["face"] if m["stable"] else NO_FACE
        return struct.pack("<BBBQ", m["die"], 1 if m["stable"] else 0, face, m["t_us"])
    if kind == PIECE:
        tag = bytes(m["tag"])
        return struct.pack("<QB", m["t_us"], len(tag)) + tag
    if kind == SNAPSHOT_DONE:
        return struct.pack("<Q", m["t_us"])
    if kind == OVERFLOW:
        return struct.pack("<HQ", m["dropped"], m["t_us"])
    if kind == LEDS:
        rgb = bytes(m["rgb"])
        if len(rgb) % 3:
            raise ValueError("rgb must hold 3 bytes per pixel")
        return struct.pack("<BHB", m["strip"], m["start"], len(rgb) // 3) + rgb
    if kind in (SNAPSHOT_REQUEST, RESET):
        return b""
    if kind == SAMPLING:
        return struct.pack("<I", m["period_us"])
    raise ValueError("unknown message type")


def decode_payload(kind: int, p: bytes) -> dict[str, Any]:
    """The message dict of a payload; :class:`WireError` if it is not a valid message."""
    if not length_ok(kind, len(p)):
        raise WireError("payload of %d bytes is not valid for type 0x%02x" % (len(p), kind))
    if kind == CONNECT:
        if p[0] != PROTOCOL_VERSION:
            return {"type": "connect", "protocol": p[0]}
        if len(p) != 10:
            raise WireError("connect of %d bytes" % len(p))
        v, s, t = struct.unpack("<BBQ", p)
        return {"type": "connect", "protocol": v, "first_seq": s, "host_us": t}
    if kind == HELLO:
        if p[0] != PROTOCOL_VERSION:
            return {"type": "hello", "protocol": p[0], "firmware": [p[1], p[2], p[3]]}
        if len(p) < HELLO_SIZE:
            raise WireError("hello of %d bytes" % len(p))
        f = struct.unpack(HELLO_HEAD, p[:HELLO_SIZE])
        if len(p) != HELLO_SIZE + 2 * f[14] or f[14] > 16:
            raise WireError("hello lists %d LED strips in %d bytes" % (f[14], len(p)))
        strips = [struct.unpack("<H", p[i : i + 2])[0] for i in range(HELLO_SIZE, len(p), 2)]
        return {
            "type": "hello",
            "protocol": f[0],
            "firmware": [f[1], f[2], f[3]],
            "host_us": f[4],
            "hub_us": f[5],
            "boot_id": f[6],
            "first_seq": f[7],
            "entry_beams": f[8],
            "top_beams": f[9],
            "curtain": f[10],
            "edge": f[11],
            "dice": f[12],
            "piece_reader": f[13] == 1,
            "led_strips": strips,
        }
    if kind == ACK:
        return {"type": "ack", "next_seq": p[0]}
    if kind == NAK:
        return {"type": "nak", "next_seq": p[0], "reason": p[1]}
    if kind == PING:
        return {"type": "ping", "host_us": struct.unpack("<Q", p)[0]}
    if kind == PONG:
        h, t = struct.unpack("<QQ", p)
        return {"type": "pong", "host_us": h, "hub_us": t}
    if kind == GATE:
        g, b, c, t = struct.unpack("<BBBQ", p)
        if g > TOP_GATE or c > 1:
            raise WireError("gate event with gate %d, cut %d" % (g, c))
        return {"type": "gate", "gate": g, "beam": b, "cut": c == 1, "t_us": t}
    if kind == BITMAP:
        s, t, n = struct.unpack("<BQH", p[:11])
        if s > EDGE or len(p) - 11 != _bits_len(n):
            raise WireError("bitmap of source %d, %d bits in %d bytes" % (s, n, len(p) - 11))
        return {"type": "bitmap", "source": s, "t_us": t, "length": n, "bits": bytes(p[11:])}
    if kind == DIE:
        d, s, f, t = struct.unpack("<BBBQ", p)
        if s > 1 or (s == 1 and f > 5):
            raise WireError("die %d with state %d, face %d" % (d, s, f))
        return {"type": "die", "die": d, "stable": s == 1, "face": f if s else None, "t_us": t}
    if kind == PIECE:
        t, n = struct.unpack("<QB", p[:9])
        if len(p) - 9 != n:
            raise WireError("tag of %d bytes in %d" % (n, len(p) - 9))
        return {"type": "piece", "t_us": t, "tag": bytes(p[9:])}
    if kind == SNAPSHOT_DONE:
        return {"type": "snapshot_done", "t_us": struct.unpack("<Q", p)[0]}
    if kind == OVERFLOW:
        d, t = struct.unpack("<HQ", p)
        return {"type": "overflow", "dropped": d, "t_us": t}
    if kind == LEDS:
        s, start, n = struct.unpack("<BHB", p[:4])
        if len(p) - 4 != 3 * n:
            raise WireError("%d pixels in %d bytes" % (n, len(p) - 4))
        return {"type": "leds", "strip": s, "start": start, "rgb": bytes(p[4:])}
    if kind == SNAPSHOT_REQUEST:
        return {"type": "snapshot_request"}
    if kind == RESET:
        return {"type": "reset"}
    if kind == SAMPLING:
        return {"type": "sampling", "period_us": struct.unpack("<I", p)[0]}
    raise WireError("unknown message type 0x%02x" % kind)


def encode_message(seq: int, msg: dict[str, Any]) -> bytes:
    """The whole frame of a message dict: ``encode_frame(seq, type, payload)``."""
    return encode_frame(seq, message_type(msg), encode_payload(msg))
