"""Mapping the hub's microsecond clock to the host's clock.

Each ``ping`` carries the host time it was sent at; the hub's ``pong`` echoes it with the
hub time it was answered at. With ``t0`` (sent) and ``t1`` (pong received) on the host and
``h`` on the hub, the hub clock's offset is ``h - (t0 + t1) / 2``, wrong by at most half the
round trip. Of the last ``window`` samples the one with the shortest round trip is used
(the least delayed by USB scheduling or a busy host), which also follows slow drift of the
hub's crystal because old samples leave the window.
"""

from __future__ import annotations

from collections import deque


class ClockSync:
    """Hub microseconds -> host seconds.

    >>> sync = ClockSync()
    >>> sync.sample(sent=10.000, hub_us=5_000_500, received=10.001)
    >>> sync.to_host(5_000_500)
    10.0005
    """

    def __init__(self, window: int = 16) -> None:
        self._samples: deque[tuple[float, float]] = deque(maxlen=window)

    def reset(self) -> None:
        """Forget every sample (the hub restarted: its clock began again)."""
        self._samples.clear()

    def sample(self, sent: float, hub_us: int, received: float) -> None:
        """One ping/pong exchange: host seconds sent and received, hub microseconds between."""
        rtt = received - sent
        if rtt < 0:
            return
        self._samples.append((rtt, hub_us / 1e6 - (sent + received) / 2))

    @property
    def uncertainty(self) -> float | None:
        """Half the best round trip: how far off the mapping can be, in seconds."""
        return min(self._samples)[0] / 2 if self._samples else None

    def to_host(self, hub_us: int) -> float | None:
        """The host time (seconds, same clock as the session's) of a hub timestamp."""
        if not self._samples:
            return None
        offset = min(self._samples)[1]
        return round(hub_us / 1e6 - offset, 9)
