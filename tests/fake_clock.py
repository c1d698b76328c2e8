"""A fake clock for asyncio code: time moves only when the test advances it, instantly."""

from __future__ import annotations

import asyncio
import heapq
import itertools


async def settle() -> None:
    """Let every task that is ready run until it waits again."""
    for _ in range(10):
        await asyncio.sleep(0)


class FakeClock:
    """Implements :class:`firmware_host.outputs.clock.Clock`; ``advance`` wakes sleepers in
    time order, each at its own wake-up time."""

    def __init__(self) -> None:
        self._now = 0.0
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    async def sleep(self, seconds: float) -> None:
        wake = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self._now + seconds, next(self._order), wake))
        await wake

    async def advance(self, seconds: float) -> None:
        """Move time on by ``seconds``, running every task due on the way."""
        target = self._now + seconds
        await settle()
        while self._sleepers and self._sleepers[0][0] <= target:
            when, _, wake = heapq.heappop(self._sleepers)
            self._now = when
            if not wake.done():
                wake.set_result(None)
            await settle()
        self._now = target
