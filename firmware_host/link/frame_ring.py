"""The last frames each way, written to the log when something goes wrong."""

from __future__ import annotations

import logging
from collections import deque

from firmware_host.link import wire

log = logging.getLogger("firmware_host.link")


def describe(seq: int, kind: int, payload: bytes) -> str:
    """One frame in words: ``#7 gate {'gate': 0, ...}`` (or why its payload is invalid)."""
    try:
        msg = wire.decode_payload(kind, payload)
    except wire.WireError as exc:
        return f"#{seq} type 0x{kind:02x} invalid: {exc} ({payload.hex()})"
    name = msg.pop("type")
    fields = ", ".join(f"{k}={v.hex() if isinstance(v, bytes) else v}" for k, v in msg.items())
    return f"#{seq} {name} {fields}".rstrip()


class FrameRing:
    """Keeps the last ``size`` frames received and sent, with the time of each."""

    def __init__(self, size: int = 200) -> None:
        self.received: deque[tuple[float, int, int, bytes]] = deque(maxlen=size)
        self.sent: deque[tuple[float, int, int, bytes]] = deque(maxlen=size)

    def add(self, direction: str, time: float, seq: int, kind: int, payload: bytes) -> None:
        """Record one frame; ``direction`` is ``"in"`` (from the hub) or ``"out"``."""
        (self.received if direction == "in" else self.sent).append((time, seq, kind, payload))

    def dump(self, reason: str, logger: logging.Logger = log) -> None:
        """Log the fault and every frame held, oldest first, each way."""
        logger.error(
            "hub link fault: %s; last %d frames in, %d out follow",
            reason,
            len(self.received),
            len(self.sent),
        )
        for direction, frames in (("in", self.received), ("out", self.sent)):
            for time, seq, kind, payload in frames:
                logger.error("  %s %.6f %s", direction, time, describe(seq, kind, payload))
