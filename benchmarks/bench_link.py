"""Hub link decoding throughput against what a 1 Mbaud line can carry.

The stream is a realistic mix of hub->host frames (gate events, curtain and edge
bitmaps, dice, pongs), fed to the decoder in 64-byte reads (one USB full-speed packet);
every frame is also decoded into its message dict, as the session does.
"""

from __future__ import annotations

import random
import time

from firmware_host.link import wire

LINE_BYTES_PER_S = 100_000
"""1 Mbaud, 8N1: 10 bits per byte."""

TARGET = 10


def realistic_frames(n: int, seed: int = 1) -> list[bytes]:
    """``n`` frames drawn from the mix a busy table sends (seeded, reproducible)."""
    rng = random.Random(seed)
    frames = []
    for seq in range(n):
        t = 1_000_000 + 137 * seq
        pick = rng.random()
        if pick < 0.6:
            msg = {"type": "gate", "gate": 0, "beam": rng.randrange(30), "cut": True, "t_us": t}
        elif pick < 0.75:
            msg = {
                "type": "bitmap",
                "source": 2,
                "t_us": t,
                "length": 120,
                "bits": rng.randbytes(15),
            }
        elif pick < 0.85:
            msg = {
                "type": "bitmap",
                "source": 3,
                "t_us": t,
                "length": 90,
                "bits": rng.randbytes(12),
            }
        elif pick < 0.95:
            msg = {
                "type": "die",
                "die": rng.randrange(6),
                "stable": True,
                "face": rng.randrange(6),
                "t_us": t,
            }
        else:
            msg = {"type": "pong", "host_us": t, "hub_us": t + 5}
        frames.append(wire.encode_message(seq & 0xFF, msg))
    return frames


def decode_rate(stream: bytes, messages: bool, repeat: int = 7) -> float:
    """Best-of-``repeat`` frames per second for decoding ``stream`` in 64-byte reads."""
    best = 0.0
    for _ in range(repeat):
        decoder = wire.Decoder()
        count = 0
        start = time.perf_counter()
        for i in range(0, len(stream), 64):
            frames = decoder.feed(stream[i : i + 64])
            count += len(frames)
            if messages:
                for _seq, kind, payload in frames:
                    wire.decode_payload(kind, payload)
        best = max(best, count / (time.perf_counter() - start))
    return best


def garbage_rate(size: int = 2_000_000, seed: int = 2) -> float:
    """Bytes per second the decoder skips when the line carries only noise."""
    noise = random.Random(seed).randbytes(size)
    decoder = wire.Decoder()
    start = time.perf_counter()
    for i in range(0, size, 64):
        decoder.feed(noise[i : i + 64])
    decoder.flush()
    return size / (time.perf_counter() - start)


def main() -> None:
    """Print frames/s decoded (with the C CRC and with the pure-Python table) vs the line."""
    frames = realistic_frames(50_000)
    stream = b"".join(frames)
    mean = len(stream) / len(frames)
    line_rate = LINE_BYTES_PER_S / mean
    print(
        f"frames: realistic mix, mean {mean:.1f} bytes ({wire.OVERHEAD} of framing; "
        f"a gate event is {len(frames[0])} bytes); "
        f"a 1 Mbaud line carries {line_rate:,.0f} frames/s, target {TARGET}x = "
        f"{TARGET * line_rate:,.0f} frames/s"
    )
    crc_hqx = wire._crc_hqx
    for label, crc in (("binascii.crc_hqx (C)", crc_hqx), ("table CRC (pure Python)", None)):
        wire._crc_hqx = crc
        try:
            framing = decode_rate(stream, messages=False)
            full = decode_rate(stream, messages=True)
        finally:
            wire._crc_hqx = crc_hqx
        print(
            f"{label:>24}: frames only {framing:>9,.0f}/s ({framing / line_rate:5.1f}x line), "
            f"frames + messages {full:>9,.0f}/s ({full / line_rate:5.1f}x line)"
        )
    noise = garbage_rate()
    print(f"pure noise: {noise:,.0f} bytes/s skipped ({noise / LINE_BYTES_PER_S:.1f}x line)")
