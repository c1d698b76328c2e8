"""The hub link: decoding throughput, and delivery over a faulty line.

Decoding: a realistic mix of hub->host frames (gate events, curtain and edge bitmaps,
dice, pongs), fed to the decoder in 64-byte reads (one USB full-speed packet); every frame
is also decoded into its message dict, as the session does.

Delivery (:func:`deliver`): the hub firmware's engine and the host's session on one
simulated clock, joined by a 1 Mbaud line each way (a frame takes 10 us per byte, then
0.5 ms of USB latency; frames never overtake each other) that loses 5 % of the frames and
corrupts 1 % (one bit flipped), each way, from a seed. The hub reports a table's traffic:
drops (a piece tag, entry-gate beams cut and cleared, curtain and edge bitmaps while the
piece falls and the pile settles, one every 10 ms) and, at every fifth drop, a snapshot
burst (12 events at once) and dice. Figures: event frames the hub put on the wire per
event delivered (the goal is at most 1.2), all frames each way per event, delivery latency
(from the hub's emit to the host's delivery) and whether any event was lost or doubled.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass
from typing import Any

from firmware_host.config.table import load_table
from firmware_host.link import wire
from firmware_host.link.session import HubEvent, LinkSession
from simulator import firmware
from simulator.hub import inventory as hub_inventory

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


BYTE_S = 10e-6
"""One byte on a 1 Mbaud 8N1 line."""

USB_S = 0.0005
"""What the USB stack adds to every frame's way (half a 1 ms full-speed frame, on average)."""

DROPS = 300
"""Drops in the delivery benchmark (about 12,500 events, 10 minutes of a table's time)."""

STEP_S = 0.0002
"""The simulated clock's step: the host reads and the hub scans this often."""


class _Device:
    """The hub's hardware side, for the engine: nothing to draw, no state to snapshot."""

    def show_leds(self, strip: int, start: int, rgb: bytes) -> None:
        pass

    def idle_leds(self) -> None:
        pass

    def set_sampling(self, period_us: int) -> None:
        pass

    def snapshot(self, t_us: int) -> list[dict[str, Any]]:
        return []

    def reset(self) -> None:
        pass


class _Line:
    """One direction of the serial line: frames leave one after another, some are lost or
    corrupted; :meth:`arrived` hands over the bytes whose time has come."""

    def __init__(self, rng: random.Random, lost: float, corrupted: float) -> None:
        self.rng = rng
        self.lost = lost
        self.corrupted = corrupted
        self.free_at = 0.0
        self.queue: list[tuple[float, bytes]] = []
        self.frames = 0
        self.event_frames = 0

    def send(self, now: float, frame: bytes) -> None:
        self.frames += 1
        if frame[3] in wire.EVENT_TYPES:
            self.event_frames += 1
        done = max(now, self.free_at) + len(frame) * BYTE_S
        self.free_at = done
        draw = self.rng.random()
        if draw < self.lost:
            return
        if draw < self.lost + self.corrupted:
            broken = bytearray(frame)
            broken[self.rng.randrange(len(frame))] ^= 1 << self.rng.randrange(8)
            frame = bytes(broken)
        self.queue.append((done + USB_S, frame))

    def arrived(self, now: float) -> bytes:
        out = b""
        while self.queue and self.queue[0][0] <= now:
            out += self.queue.pop(0)[1]
        return out


def table_traffic(drops: int, seed: int) -> list[tuple[float, dict[str, Any]]]:
    """(seconds, event) for ``drops`` drops 2 s apart, as a reference table reports them."""
    rng = random.Random(f"{seed}:traffic")
    out: list[tuple[float, dict[str, Any]]] = []
    for drop in range(drops):
        t0 = 1.0 + 2.0 * drop
        out.append((t0, {"type": "piece", "tag": rng.randbytes(4)}))
        first = rng.randrange(26)
        for i, beam in enumerate(range(first, first + rng.randint(2, 5))):
            out.append(
                (t0 + 0.1 + 0.004 * i, {"type": "gate", "gate": 0, "beam": beam, "cut": True})
            )
            out.append(
                (t0 + 0.16 + 0.004 * i, {"type": "gate", "gate": 0, "beam": beam, "cut": False})
            )
        for k in range(rng.randint(15, 40)):  # the strips while it falls and settles
            source = rng.choice((wire.CURTAIN, wire.EDGE))
            length = 60 if source == wire.CURTAIN else 90
            bits = rng.randbytes((length + 7) // 8)
            event = {"type": "bitmap", "source": source, "length": length, "bits": bits}
            out.append((t0 + 0.2 + 0.01 * k, event))
        out.append((t0 + 0.7, {"type": "piece", "tag": b""}))
        if drop % 5 == 4:  # a snapshot: 12 events at once, then dice rolling and resting
            burst = t0 + 1.0
            for source in range(4):
                event = {"type": "bitmap", "source": source, "length": 8, "bits": b"\x00"}
                out.append((burst, event))
            for die in range(6):
                out.append((burst, {"type": "die", "die": die, "stable": True, "face": 0}))
            out.append((burst, {"type": "piece", "tag": b""}))
            out.append((burst, {"type": "snapshot_done"}))
            for die in range(6):
                rolling = {"type": "die", "die": die, "stable": False, "face": None}
                resting = {"type": "die", "die": die, "stable": True, "face": rng.randrange(6)}
                out.append((burst + 0.3 + 0.05 * die, rolling))
                out.append((burst + 0.8 + 0.05 * die, resting))
    out.sort(key=lambda item: item[0])
    return out


@dataclass
class Delivery:
    """What :func:`deliver` measured."""

    events: int
    delivered: int
    lost: int
    doubled: int
    event_frames: int
    frames_to_host: int
    frames_to_hub: int
    latencies: list[float]

    @property
    def frames_per_event(self) -> float:
        """Event frames the hub put on the wire per event delivered."""
        return self.event_frames / max(1, self.delivered)

    def latency(self, q: float) -> float:
        """The ``q`` quantile of the delivery latency, in seconds."""
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def deliver(
    drops: int = 100, seed: int = 1, lost: float = 0.05, corrupted: float = 0.01
) -> Delivery:
    """Run the table's traffic through the engine, the faulty line and the session."""
    now = [0.0]
    rng = random.Random(f"{seed}:line")
    to_host = _Line(rng, lost, corrupted)
    to_hub = _Line(rng, lost, corrupted)
    engine_class = firmware.load("engine").HubEngine
    inventory = hub_inventory(load_table())
    hub = engine_class(
        inventory, _Device(), lambda: round(now[0] * 1e6), lambda b: to_host.send(now[0], b), 0xB007
    )
    got: list[HubEvent] = []
    faults: list[str] = []

    def new_session() -> LinkSession:
        return LinkSession(
            lambda: now[0], lambda b: to_hub.send(now[0], b), got.append, faults.append
        )

    session = new_session()
    traffic = table_traffic(drops, seed)
    emitted: dict[int, float] = {}
    latencies: list[float] = []
    arrival: dict[int, float] = {}
    i = 0
    end = traffic[-1][0] + 10.0
    while now[0] < end and (i < len(traffic) or len(got) < len(traffic)):
        now[0] += STEP_S
        while i < len(traffic) and traffic[i][0] <= now[0]:
            event = dict(traffic[i][1], t_us=i)  # t_us carries the event's number
            emitted[i] = now[0]
            hub.emit(event)
            i += 1
        data = to_hub.arrived(now[0])
        if data:
            hub.feed(data)
        hub.tick()
        data = to_host.arrived(now[0])
        if data:
            count = len(got)
            session.receive(data)
            for event in got[count:]:
                arrival.setdefault(event.hub_us, now[0])
        session.poll()
        if session.dead:
            old, session = session, new_session()
            session.carry_over(old)
    numbers = [event.hub_us for event in got]
    latencies = [arrival[n] - emitted[n] for n in set(numbers)]
    return Delivery(
        events=len(traffic),
        delivered=len(set(numbers)),
        lost=len(traffic) - len(set(numbers)),
        doubled=len(numbers) - len(set(numbers)),
        event_frames=to_host.event_frames,
        frames_to_host=to_host.frames,
        frames_to_hub=to_hub.frames,
        latencies=latencies,
    )


def print_delivery(label: str, run: Delivery) -> None:
    """One line of figures for a :func:`deliver` run."""
    per = run.delivered or 1
    print(
        f"{label}: {run.delivered}/{run.events} events delivered, {run.lost} lost, "
        f"{run.doubled} doubled; {run.frames_per_event:.3f} event frames per event "
        f"(goal <= 1.2), all frames {run.frames_to_host / per:.2f} hub->host and "
        f"{run.frames_to_hub / per:.2f} host->hub per event; latency median "
        f"{statistics.median(run.latencies) * 1e3:.1f} ms, p95 {run.latency(0.95) * 1e3:.1f} ms, "
        f"max {max(run.latencies) * 1e3:.0f} ms"
    )


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
    print(
        f"delivery: {DROPS} drops (seed 1) through the firmware's engine, a 1 Mbaud line each "
        "way with 0.5 ms of USB latency, and the host's session"
    )
    print_delivery("  clean line", deliver(DROPS, lost=0.0, corrupted=0.0))
    print_delivery("  5 % lost, 1 % corrupted", deliver(DROPS))
