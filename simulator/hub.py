"""The virtual hub: the real firmware protocol engine on a real line, fed by the true world.

The host cannot tell it from a real hub: it answers ``connect`` with a ``hello`` carrying
the table file's inventory, keeps the heartbeat, reports the entry gate's cuts and clears,
the top gate, the curtain and edge strips, the dice and the piece reader with hub
microsecond timestamps, and executes LED frames (recorded in :attr:`VirtualHub.leds_shown`
so tests can assert what it was told to show). Link-level faults from the noise profile
sit between the engine and the line (:mod:`simulator.link_faults`).

Time. The engine's protocol timers and heartbeat run on real time (microseconds since the
hub started). Sensor events are stamped on the hub's simulated clock: a drop is released
no earlier than now and at least :data:`~simulator.true_world.PAUSE_US` after the last
drop settled. Events go to the engine when their time comes, at ``speed`` times real
time, or at once with ``speed=None`` (tests). After a drop's events the hub re-reports its
empty piece reader every :data:`CLOCK_US` of hub time until the next drop could be
released: those events tell the host the hub's time while nothing changes, in the event
stream, so the host closes a drop on the hub's clock (its quiet window), whatever the
speed and however late the frames arrive. A drop's handle is :attr:`DropHandle.sent` once
all of them went out too.

>>> from firmware_host.config.noise import load_profile
>>> from firmware_host.config.table import load_table
>>> with VirtualHub(load_table(), load_profile("clean"), seed=3, line="socket") as hub:
...     hub.url.startswith("socket://127.0.0.1:")
True
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from firmware_host.config.noise import NoiseProfile
from firmware_host.config.table import Table
from firmware_host.games.dropit.rules.pieces import Color, Shape
from firmware_host.link.inventory import table_inventory
from firmware_host.sensors import BeamCut, Bits, DieReading, DropReadings, StripModel, StripSnapshot
from simulator import firmware
from simulator.dice import VirtualDice
from simulator.line import Line, PtyLine, SocketLine
from simulator.link_faults import LinkFaults
from simulator.scene import PERIOD_S
from simulator.true_world import PAUSE_US, TrueDrop, TrueWorld

wire = firmware.load("engine").wire

FAST_DICE = 1000.0
"""With ``speed=None`` the dice roll this many times faster than real time."""

SCAN_US = round(PERIOD_S * 1_000_000)
"""While a piece falls and the pile settles, the strips are looked at this often (hub time):
the true world's :class:`~simulator.scene.Scene` period."""

CLOCK_US = 100_000
"""How often (hub time) the idle piece reader is re-reported after a drop: the hub's clock
in the event stream."""

HELD_EVENTS = 64
"""Sensor events wait while the engine holds this many unacknowledged (no overflow)."""


@dataclass
class DropHandle:
    """A drop the virtual hub is reporting. :attr:`true` is the true world's record (the
    pieces' TRUE final poses, the exact and noisy readings): for evaluators and tests
    only, never for the host. :attr:`reported` is the drop as the hub's events tell it
    (what the host's collector must assemble: the noisy readings, one beam's overlapping
    cuts merged, settled at the last change). :attr:`sent` is set once every event went
    to the engine."""

    true: TrueDrop
    reported: DropReadings
    sent: threading.Event = field(default_factory=threading.Event)
    last_us: int = 0
    """The hub time of the drop's last event (its last clock report)."""

    @property
    def readings(self) -> DropReadings:
        """What the table's (noisy) sensors reported for this drop."""
        return self.true.readings


@dataclass
class _Scheduled:
    due: float
    event: dict[str, Any]
    handle: DropHandle | None = None


def inventory(table: Table, config: dict[str, Any] | None = None) -> dict[str, Any]:
    """The hello's inventory: sensor counts from ``table`` (the single source of truth),
    firmware version and LED strips from the hub config."""
    config = config or firmware.hub_config()
    return {
        "firmware": list(config["firmware"]),
        **table_inventory(table),
        "led_strips": [strip["count"] for strip in config["led_strips"]],
    }


def _bitmap(source: int, bits: Bits, t_us: int) -> dict[str, Any]:
    data = bits.value.to_bytes((bits.length + 7) // 8, "little")
    return {"type": "bitmap", "source": source, "t_us": t_us, "length": bits.length, "bits": data}


class VirtualHub:
    """A hub for ``table`` whose world is :class:`TrueWorld` with ``profile``, from ``seed``.

    ``line`` is ``"pty"`` (``link`` = where the stable symlink goes) or ``"socket"``
    (``port``, 0 = any free one). Use as a context manager, or :meth:`start` / :meth:`stop`.
    """

    def __init__(
        self,
        table: Table,
        profile: NoiseProfile,
        seed: int,
        line: str = "pty",
        port: int = 0,
        link: str | None = None,
        speed: float | None = None,
    ) -> None:
        if speed is not None and speed <= 0:
            raise ValueError(f"speed must be more than 0, got {speed}")
        self.table = table
        self.profile = profile
        self.seed = seed
        self.speed = speed
        self.world = TrueWorld(table, profile, seed)
        self.line: Line = SocketLine(port) if line == "socket" else PtyLine(link)
        self._t0 = time.monotonic()
        self.faults = LinkFaults(profile.link, seed, self._seconds)
        dice_rate = speed or FAST_DICE
        self.dice = VirtualDice.of_table(table, seed, lambda: self._seconds() * dice_rate)
        self.inventory = inventory(table)
        self._boot = random.Random(f"{seed}:boot")
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="virtual hub", daemon=True)
        self._schedule: list[_Scheduled] = []
        self._anchor: tuple[float, int] | None = None
        edge = table.config.edge_strip.count
        self._state = StripSnapshot(
            Bits(len(table.curtain_heights)),
            Bits(len(table.top_gate_heights)),
            Bits(edge.left),
            Bits(edge.bottom),
            Bits(edge.right),
        )
        self._entry = Bits(len(table.entry_beams))
        self._strips = StripModel(table)
        self._tag = b""
        self.leds_shown: list[tuple[int, int, bytes]] = []
        """Every LED frame the host sent: (strip, start, rgb bytes), in order."""
        self.leds = [bytearray(3 * n) for n in self.inventory["led_strips"]]
        """What each strip shows now (3 bytes per pixel)."""
        self.idled = 0
        self.sampling_us = firmware.hub_config()["sampling_us"]
        self.resets = 0
        self.engine = self._new_engine()

    # -- life -------------------------------------------------------------------------

    @property
    def url(self) -> str:
        """Where the host connects: a pty path (symlink) or ``socket://127.0.0.1:PORT``."""
        return self.line.url

    def start(self) -> VirtualHub:
        """Start serving the line in a background thread."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the line."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(2.0)
        self.line.close()

    def __enter__(self) -> VirtualHub:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def unplug(self) -> None:
        """Pull the cable: the line closes (the engine keeps its unacknowledged events)."""
        with self._lock:
            self.line.unplug()

    def replug(self) -> None:
        """Plug the cable back in."""
        with self._lock:
            self.line.replug()

    # -- the world --------------------------------------------------------------------

    def hub_us(self) -> int:
        """The hub's simulated clock: real time since start, or later once drops ran ahead."""
        return max(self._real_us(), self.world.clock_us)

    def drop(self, color: Color, shape: Shape, x: float, angle: float) -> DropHandle:
        """A player drops ``color`` ``shape`` meaning ``x`` (mm) and ``angle`` (degrees)."""
        with self._lock:
            self.world.clock_us = max(self.world.clock_us, self._real_us() - PAUSE_US)
            true = self.world.drop(color, shape, x, angle)
            events, reported = self._drop_events(true.readings, self._falling(true))
            handle = DropHandle(true, reported)
            released = true.readings.released_us
            last = max((event["t_us"] for event in events), default=released)
            end = true.readings.settled_us + PAUSE_US
            events += [
                {"type": "piece", "tag": b"", "t_us": t_us}
                for t_us in range(last + CLOCK_US, end, CLOCK_US)
            ]
            for event in events:
                self._schedule.append(_Scheduled(self._due(event["t_us"], released), event))
            self._schedule[-1].handle = handle
            handle.last_us = events[-1]["t_us"]
            return handle

    def clear_board(self) -> None:
        """Empty the board (a new game): the strips report it."""
        with self._lock:
            self.world.clear()
            t_us = self.hub_us()
            self.world.clock_us = t_us
            empty = self._strips.snapshot(())
            for _, _, event in self._strip_changes(t_us, empty):
                self._schedule.append(_Scheduled(self._due(t_us, t_us), event))

    def roll(self, dice: Iterable[int] | None = None, seed: str | None = None) -> list[DieReading]:
        """Throw ``dice`` (all by default); they report rolling now, their faces later
        (``seed``: see :meth:`VirtualDice.roll <simulator.dice.VirtualDice.roll>`)."""
        with self._lock:
            changes = self.dice.roll(dice, seed)
            for reading in changes:
                self._schedule.append(_Scheduled(0.0, self._die_event(reading)))
            return changes

    def _due(self, t_us: int, released: int) -> float:
        """When (real seconds since start) an event at hub time ``t_us`` is sent."""
        if self.speed is None:
            return 0.0
        now = self._seconds()
        if self._anchor is None or self._paced(released) < now:
            self._anchor = (now, released)
        return self._paced(t_us)

    def _paced(self, t_us: int) -> float:
        assert self._anchor is not None
        real, hub = self._anchor
        return real + (t_us - hub) / 1e6 / (self.speed or 1.0)

    def _falling(self, true: TrueDrop) -> list[tuple[int, StripSnapshot]]:
        """The strips every :data:`SCAN_US` while the piece falls and the pile settles:
        every piece where the true world's physics has it at that moment (a pushed pile
        is seen moving, as a real table's strips see it)."""
        released = true.readings.released_us
        return [
            (released + round(frame.t * 1e6), self._strips.snapshot(frame.pieces))
            for frame in true.scene.frames
        ]

    def _drop_events(
        self, readings: DropReadings, falling: list[tuple[int, StripSnapshot]]
    ) -> tuple[list[dict[str, Any]], DropReadings]:
        """The events a real hub reports for ``readings`` (and the strips seen while the
        piece fell, ``falling``): changes only, in time order; and the drop as they tell
        it (one beam's overlapping cuts merged, settled at the last change)."""
        events: list[tuple[int, int, dict[str, Any]]] = []
        tag = (readings.tag or "").encode()
        if tag:
            events.append((readings.released_us, 0, {"type": "piece", "tag": tag}))
        transitions = sorted(
            [(c.cut_us, 1, c.beam) for c in readings.entry]
            + [(c.clear_us, -1, c.beam) for c in readings.entry if c.clear_us is not None],
            key=lambda item: (item[0], item[2], -item[1]),
        )
        released = readings.released_us
        covering = list(self._entry)
        count = [1 if cut else 0 for cut in covering]
        cuts = [BeamCut(beam, released, None) for beam in self._entry.indices()]
        for t_us, step, beam in transitions:
            count[beam] += step
            now_cut = count[beam] > 0
            if now_cut != covering[beam]:
                covering[beam] = now_cut
                events.append((t_us, 1, {"type": "gate", "gate": 0, "beam": beam, "cut": now_cut}))
                if now_cut:
                    cuts.append(BeamCut(beam, t_us, None))
                else:
                    i = max(i for i, c in enumerate(cuts) if c.beam == beam)
                    cuts[i] = BeamCut(beam, cuts[i].cut_us, t_us)
        self._entry = Bits.of(len(covering), [i for i, cut in enumerate(covering) if cut])
        for t_us, seen in [*falling, (readings.settled_us, readings.strips)]:
            events += self._strip_changes(t_us, seen)
        events.sort(key=lambda item: (item[0], item[1]))
        last = max((t_us for t_us, _, event in events if event["type"] != "piece"), default=0)
        if tag:
            events.append((readings.settled_us, 5, {"type": "piece", "tag": b""}))
        reported = DropReadings(
            readings.tag, released, tuple(cuts), max(last, released), readings.strips
        )
        return [dict(event, t_us=t_us) for t_us, _, event in events], reported

    def _strip_changes(
        self, t_us: int, seen: StripSnapshot
    ) -> list[tuple[int, int, dict[str, Any]]]:
        """The top gate's, curtain's and edge strip's changes from the last state to ``seen``."""
        events = []
        for beam in range(seen.top_gate.length):
            if seen.top_gate[beam] != self._state.top_gate[beam]:
                gate = {
                    "type": "gate",
                    "gate": 1,
                    "beam": beam,
                    "cut": seen.top_gate[beam],
                    "t_us": t_us,
                }
                events.append((t_us, 2, gate))
        if seen.curtain != self._state.curtain:
            events.append((t_us, 3, _bitmap(wire.CURTAIN, seen.curtain, t_us)))
        if seen.edge_bitmap() != self._state.edge_bitmap():
            events.append((t_us, 4, _bitmap(wire.EDGE, seen.edge_bitmap(), t_us)))
        self._state = seen
        return events

    def _die_event(self, reading: DieReading) -> dict[str, Any]:
        return {
            "type": "die",
            "die": reading.die,
            "stable": not reading.rolling,
            "face": reading.face,
            "t_us": self.hub_us(),
        }

    # -- the device the engine drives -------------------------------------------------

    def show_leds(self, strip: int, start: int, rgb: bytes) -> None:
        """Record and show an LED frame."""
        self.leds_shown.append((strip, start, bytes(rgb)))
        self.leds[strip][3 * start : 3 * start + len(rgb)] = rgb

    def idle_leds(self) -> None:
        """Every LED off (the host went silent)."""
        self.idled += 1
        for pixels in self.leds:
            pixels[:] = bytes(len(pixels))

    def set_sampling(self, period_us: int) -> None:
        """Record the scan period (the simulated sensors do not sample)."""
        self.sampling_us = period_us

    def snapshot(self, t_us: int) -> list[dict[str, Any]]:
        """The whole sensor state as events, stamped on the simulated clock (not ``t_us``,
        the engine's real-time clock), like every other sensor event."""
        t_us = self.hub_us()
        state = self._state
        events = [
            _bitmap(wire.ENTRY_GATE, self._entry, t_us),
            _bitmap(wire.TOP_GATE, state.top_gate, t_us),
            _bitmap(wire.CURTAIN, state.curtain, t_us),
            _bitmap(wire.EDGE, state.edge_bitmap(), t_us),
        ]
        events += [self._die_event(reading) for reading in self.dice.readings]
        events.append({"type": "piece", "t_us": t_us, "tag": self._tag})
        return events

    def reset(self) -> None:
        """Restart: a new boot id, the unacknowledged events lost (as on a real hub)."""
        self.resets += 1
        self.engine = self._new_engine()

    # -- the loop ---------------------------------------------------------------------

    def _seconds(self) -> float:
        return time.monotonic() - self._t0

    def _real_us(self) -> int:
        return int(self._seconds() * 1e6)

    def _new_engine(self) -> Any:
        engine_class = firmware.load("engine").HubEngine
        return engine_class(
            self.inventory, self, self._real_us, self.faults.send, self._boot.getrandbits(32)
        )

    def _run(self) -> None:
        while not self._stop.is_set():
            data = self.line.read(0.002)
            with self._lock:
                if data:
                    self.engine.feed(data)
                self._release()
                for reading in self.dice.poll():
                    self.engine.emit(self._die_event(reading))
                self.engine.tick()
                if self.faults.unplug_due():
                    self.line.unplug()
                if self.faults.replug_due():
                    self.line.replug()
                out = self.faults.due()
                if out:
                    self.line.write(out)

    def _release(self) -> None:
        now = self._seconds()
        while self._schedule and self._schedule[0].due <= now:
            if len(self.engine.buffer) >= HELD_EVENTS:
                return
            item = self._schedule.pop(0)
            if item.event["type"] == "piece":
                self._tag = item.event["tag"]
            self.engine.emit(item.event)
            if item.handle is not None:
                item.handle.sent.set()
