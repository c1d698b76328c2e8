"""The clock animations run on: real time on the event loop, or a test's fake clock.

Anything that waits (an LED animation's frames) takes a :class:`Clock` instead of
calling :func:`asyncio.sleep`, so tests play long animations in no time and the same
way every time.
"""

from __future__ import annotations

import asyncio
import time
from typing import Protocol


class Clock(Protocol):
    """A monotonic clock in seconds with an asynchronous sleep."""

    def now(self) -> float:
        """Seconds since an arbitrary start."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Return once ``seconds`` have passed on this clock."""
        ...


class LoopClock:
    """Real time: :func:`time.monotonic` (the event loop's own clock) and
    :func:`asyncio.sleep`."""

    def now(self) -> float:
        """Monotonic seconds."""
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        """Sleep in real time."""
        await asyncio.sleep(seconds)
