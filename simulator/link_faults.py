"""Link-level faults between the virtual hub's engine and its line, from a seed.

The profile's ``link`` knobs (``config/noise/*.yaml``), applied to every frame the hub
sends, in this order of draws from ``random.Random(f"{seed}:link")``:

* ``lost_frames`` - the frame is lost with this probability;
* ``corrupted_bytes`` - each byte of a frame that was not lost has one bit flipped with
  this probability (the host's CRC check rejects the frame);
* ``latency_jitter`` - the frame leaves up to this many milliseconds late (uniform), but
  never before the frame before it: a serial line does not reorder;
* ``unplug`` - ``rate`` unplug events per hour of hub time (a Poisson process), each
  lasting a duration uniform in ``duration`` seconds: the line is closed, then back.

The host recovers from all of them (retransmission, reconnection), so it still gets
every event once and in order.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable

from firmware_host.config.noise import LinkFaultsConfig


class LinkFaults:
    """``knobs`` applied to the frames written through :meth:`send`, from ``seed``.

    ``clock`` gives seconds; :meth:`due` hands back the frames whose time has come, and
    :meth:`unplug_due` / :meth:`replug_due` say when to cut and restore the line.
    """

    def __init__(self, knobs: LinkFaultsConfig, seed: int, clock: Callable[[], float]) -> None:
        self.knobs = knobs
        self._rng = random.Random(f"{seed}:link")
        self._clock = clock
        self._queue: deque[tuple[float, bytes]] = deque()
        self._last_release = 0.0
        self.lost = 0
        self.corrupted = 0
        self.unplugs = 0
        self._plugged = True
        self._next_change = clock() + self._until_unplug()

    def _until_unplug(self) -> float:
        rate = self.knobs.unplug.rate / 3600.0
        return self._rng.expovariate(rate) if rate > 0 else float("inf")

    def send(self, frame: bytes) -> None:
        """Take one frame from the engine: lose it, corrupt it, delay it."""
        knobs = self.knobs
        if self._rng.random() < knobs.lost_frames:
            self.lost += 1
            return
        if knobs.corrupted_bytes > 0:
            data = bytearray(frame)
            hit = False
            for i in range(len(data)):
                if self._rng.random() < knobs.corrupted_bytes:
                    data[i] ^= 1 << self._rng.randrange(8)
                    hit = True
            if hit:
                self.corrupted += 1
                frame = bytes(data)
        delay = self._rng.uniform(0.0, knobs.latency_jitter / 1000.0) if knobs.latency_jitter else 0
        release = max(self._last_release, self._clock() + delay)
        self._last_release = release
        self._queue.append((release, frame))

    def due(self) -> bytes:
        """The bytes whose time to leave has come, in order."""
        now = self._clock()
        out = bytearray()
        while self._queue and self._queue[0][0] <= now:
            out += self._queue.popleft()[1]
        return bytes(out)

    def unplug_due(self) -> bool:
        """True once when an unplug event starts (then the queued frames are lost)."""
        if not self._plugged or self._clock() < self._next_change:
            return False
        self._plugged = False
        self.unplugs += 1
        self._queue.clear()
        self._next_change = self._clock() + self._rng.uniform(*self.knobs.unplug.duration)
        return True

    def replug_due(self) -> bool:
        """True once when an unplug event ends."""
        if self._plugged or self._clock() < self._next_change:
            return False
        self._plugged = True
        self._next_change = self._clock() + self._until_unplug()
        return True
