"""Stand-in for MicroPython's ``utime`` on a simulated clock (advanced by the tests).

``ticks_us`` wraps at 2**30 as on the RP2040, so the firmware's wrap handling is exercised.
"""

TICKS_PERIOD = 1 << 30
_now_us = 0


def advance(us: int) -> None:
    """Move the simulated clock forward."""
    global _now_us
    _now_us += us


def ticks_us() -> int:
    return _now_us % TICKS_PERIOD


def ticks_diff(a: int, b: int) -> int:
    half = TICKS_PERIOD // 2
    return ((a - b + half) % TICKS_PERIOD) - half


def sleep_ms(ms: int) -> None:
    advance(ms * 1000)
