"""Clocks for the service: real time (optionally sped up) and simulated time.

Both implement :class:`firmware_host.outputs.clock.Clock` (``now()`` and ``async
sleep()``), so the LED animations, the autoplay players' pauses and the service's
timeouts all run on whichever clock the service was given.

* :class:`ScaledClock` is real time run ``speed`` times faster (``tabletop run --speed``):
  a 2 s pause takes 20 ms at ``speed=100``.
* :class:`SimulatedClock` never waits: whenever every task of the event loop waits
  (nothing ready to run), time jumps to the earliest sleeper's wake-up and wakes it.
  Sleepers wake in time order (ties: in the order they went to sleep), so a run is the
  same every time.

>>> import asyncio
>>> async def nap(clock):
...     await asyncio.gather(clock.sleep(3600.0), clock.sleep(60.0))
...     return clock.now()
>>> asyncio.run(nap(SimulatedClock()))
3600.0
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time

IDLE_ROUNDS = 20
"""Event-loop rounds with nothing scheduled before simulated time moves on."""


class ScaledClock:
    """Real (monotonic) time, ``speed`` times faster; ``speed=1`` is real time."""

    def __init__(self, speed: float = 1.0) -> None:
        if speed <= 0:
            raise ValueError(f"speed must be > 0, got {speed}")
        self.speed = speed
        self._start = time.monotonic()

    def now(self) -> float:
        """Seconds since the clock was made, scaled."""
        return (time.monotonic() - self._start) * self.speed

    async def sleep(self, seconds: float) -> None:
        """Sleep ``seconds / speed`` real seconds."""
        await asyncio.sleep(max(0.0, seconds) / self.speed)


class SimulatedClock:
    """Simulated seconds from 0 that jump forward whenever the event loop is idle."""

    def __init__(self) -> None:
        self._now = 0.0
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._driver: asyncio.Task[None] | None = None

    def now(self) -> float:
        """Simulated seconds since the clock was made."""
        return self._now

    async def sleep(self, seconds: float) -> None:
        """Return once simulated time reached ``now() + seconds`` (at once in real time)."""
        loop = asyncio.get_running_loop()
        wake = loop.create_future()
        heapq.heappush(self._sleepers, (self._now + max(0.0, seconds), next(self._order), wake))
        if self._driver is None or self._driver.done():
            self._driver = loop.create_task(self._drive())
        await wake

    async def _drive(self) -> None:
        """Wake sleepers in time order, each once the loop has nothing else to do."""
        while self._sleepers:
            for _ in range(IDLE_ROUNDS):
                await asyncio.sleep(0)
            while self._sleepers and self._sleepers[0][2].done():
                heapq.heappop(self._sleepers)  # cancelled sleepers
            if not self._sleepers:
                return
            when, _, wake = heapq.heappop(self._sleepers)
            self._now = max(self._now, when)
            wake.set_result(None)
