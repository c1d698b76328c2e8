"""Helpers for the link tests: a fault-injecting frame filter and a hub over a real pty."""

import contextlib
import os
import random
import select
import threading
import time
import tty

from engine import HubEngine
from inputs import Scanner
from main import Device, inventory, load_config

from firmware_host.link import wire
from tests import firmware_path

CONFIG = firmware_path.ROOT / "hardware" / "hub" / "hub_config.json"


def make_hub_engine(clock_us, write, boot_id=0xB007):
    """A hub engine with the reference config, its device on the MicroPython stand-ins."""
    cfg = load_config(str(CONFIG))
    inv = inventory(cfg)
    device = Device(cfg, Scanner(inv))
    return HubEngine(inv, device, clock_us, write, boot_id)


class Faults:
    """Chooses which frames to drop or corrupt, per direction, reproducibly from a seed.

    ``drop`` and ``corrupt`` are probabilities, or a set of frame kinds to drop always.
    """

    def __init__(
        self, seed=1, drop=0.0, corrupt=0.0, drop_kinds=(), direction="both", drop_first=None
    ):
        self.drop_first = dict(drop_first or {})
        self.random = random.Random(seed)
        self.drop = drop
        self.corrupt = corrupt
        self.drop_kinds = set(drop_kinds)
        self.direction = direction
        self.dropped = 0
        self.corrupted = 0
        self.lock = threading.Lock()

    def apply(self, direction, frame_bytes, kind):
        """The bytes to pass on for one frame (empty to drop it)."""
        with self.lock:
            if self.direction not in ("both", direction):
                return frame_bytes
            if kind in self.drop_kinds:
                self.dropped += 1
                return b""
            if self.drop_first.get(kind, 0) > 0:
                self.drop_first[kind] -= 1
                self.dropped += 1
                return b""
            r = self.random.random()
            if r < self.drop:
                self.dropped += 1
                return b""
            if r < self.drop + self.corrupt:
                self.corrupted += 1
                broken = bytearray(frame_bytes)
                broken[self.random.randrange(1, len(broken))] ^= 1 << self.random.randrange(8)
                return bytes(broken)
            return frame_bytes


def open_raw_pty():
    """A pty pair in raw mode: (master fd, slave fd, slave path)."""
    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    return master, slave, os.ttyname(slave)


class PtyHub:
    """A hub engine on a real pty pair, with a relay between it and the host's pty.

    The host opens :attr:`path` (a symlink, as ``/dev/serial/by-id`` gives): pyserial runs on
    the slave of the host-side pty. The relay thread pumps bytes between the host pty's
    master and the hub pty's master, frame by frame through :class:`Faults`. :meth:`unplug`
    closes the host-side pty; :meth:`replug` makes a new one behind the same path.
    """

    def __init__(self, directory, faults=None, boot_id=0xB007):
        self.faults = faults or Faults()
        self.path = os.path.join(directory, "usb-hub")
        self.lock = threading.RLock()
        self.hub_master, self.hub_slave, _ = open_raw_pty()
        self._plug()
        start = time.monotonic()
        self.clock_us = lambda: int((time.monotonic() - start) * 1e6)
        self.engine = make_hub_engine(self.clock_us, self._hub_write, boot_id)
        self.stop = threading.Event()
        self.threads = [
            threading.Thread(target=self._hub_loop, daemon=True),
            threading.Thread(target=self._relay_loop, daemon=True),
        ]
        self.to_host = wire.Decoder()
        self.to_hub = wire.Decoder()
        self.frames_to_hub = []

    def _plug(self):
        self.host_master, self.host_slave, slave_path = open_raw_pty()
        tmp = self.path + ".new"
        os.symlink(slave_path, tmp)
        os.replace(tmp, self.path)

    def unplug(self):
        with self.lock:
            os.close(self.host_master)
            os.close(self.host_slave)
            os.unlink(self.path)
            self.host_master = self.host_slave = None

    def replug(self):
        with self.lock:
            self._plug()

    def emit(self, msg):
        with self.lock:
            return self.engine.emit(msg)

    def _hub_write(self, data):
        os.write(self.hub_slave, data)

    def _hub_loop(self):
        while not self.stop.is_set():
            ready, _, _ = select.select([self.hub_slave], [], [], 0.002)
            with self.lock:
                if ready:
                    self.engine.feed(os.read(self.hub_slave, 4096))
                self.engine.tick()

    def _relay_loop(self):
        while not self.stop.is_set():
            with self.lock:
                fds = [self.hub_master] + ([self.host_master] if self.host_master else [])
            try:
                ready, _, _ = select.select(fds, [], [], 0.005)
            except OSError:  # unplugged between the snapshot and the wait: a closed fd
                continue
            with self.lock:
                for fd in ready:
                    if fd == self.hub_master:
                        try:
                            data = os.read(fd, 4096)
                        except BlockingIOError:
                            continue
                        self._pass(data, self.to_host, "to_host", self.host_master)
                    elif fd == self.host_master:
                        try:
                            data = os.read(fd, 4096)
                        except OSError:
                            continue
                        self._pass(data, self.to_hub, "to_hub", self.hub_master)

    def _pass(self, data, decoder, direction, out_fd):
        for seq, kind, payload in decoder.feed(data):
            if direction == "to_hub":
                self.frames_to_hub.append((seq, kind))
            frame = self.faults.apply(direction, wire.encode_frame(seq, kind, payload), kind)
            if frame and out_fd is not None:
                # OSError: nobody reading (the host is between opens): lost, as on a line.
                with contextlib.suppress(OSError):
                    os.write(out_fd, frame)

    def __enter__(self):
        for t in self.threads:
            t.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        for t in self.threads:
            t.join(1)
        for fd in (self.hub_master, self.hub_slave, self.host_master, self.host_slave):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
