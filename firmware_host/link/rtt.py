"""Retransmission timeout from measured round trips, as TCP does it (RFC 6298)."""

from __future__ import annotations


class RttEstimator:
    """Smoothed round trip (SRTT) and its variation (RTTVAR) -> retransmission timeout.

    >>> rtt = RttEstimator(initial=0.2, minimum=0.01, maximum=1.0)
    >>> rtt.sample(0.004)
    >>> round(rtt.timeout(), 3)
    0.012
    """

    ALPHA = 1 / 8
    BETA = 1 / 4

    def __init__(self, initial: float = 0.2, minimum: float = 0.01, maximum: float = 1.0) -> None:
        self.initial = initial
        self.minimum = minimum
        self.maximum = maximum
        self.srtt: float | None = None
        self.rttvar = 0.0
        self._backoff = 1

    def sample(self, rtt: float, ends_backoff: bool = True) -> None:
        """Add one measured round trip, in seconds (never from a retransmitted frame: Karn).

        ``ends_backoff=False`` for samples that say nothing about the command stream (pings).
        """
        if self.srtt is None:
            self.srtt = rtt
            self.rttvar = rtt / 2
        else:
            self.rttvar = (1 - self.BETA) * self.rttvar + self.BETA * abs(self.srtt - rtt)
            self.srtt = (1 - self.ALPHA) * self.srtt + self.ALPHA * rtt
        if ends_backoff:
            self._backoff = 1

    def backoff(self) -> None:
        """Double the timeout after a retransmission (reset by the next sample)."""
        self._backoff = min(self._backoff * 2, 64)

    def timeout(self) -> float:
        """Seconds to wait for an acknowledgement before sending again."""
        base = self.initial if self.srtt is None else self.srtt + 4 * self.rttvar
        return min(self.maximum, max(self.minimum, base) * self._backoff)
