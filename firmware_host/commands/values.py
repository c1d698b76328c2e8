"""Option values every sub-command checks the same way: ports, counts, seconds, factors.

Each is an ``argparse`` type: a bad value is refused while parsing, as one line naming the
option (``tabletop run: argument --page-port: expected a port from 0 to 65535, got
'99999'``), exit status 2.

>>> port("8080"), count("3"), seconds("0.5"), factor("0")
(8080, 3, 0.5, 0.0)
>>> port("99999")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: expected a port from 0 to 65535, got '99999'
>>> seconds("nan")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: expected a number of seconds > 0, got 'nan'
"""

from __future__ import annotations

import argparse
import math

MAX_PORT = 65535


def _number(text: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
    return value


def _whole(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None


def port(text: str) -> int:
    """A TCP port: 0 (any free one) to 65535."""
    what = f"a port from 0 to {MAX_PORT}"
    value = _whole(text, what)
    if not 0 <= value <= MAX_PORT:
        raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
    return value


def count(text: str) -> int:
    """A count of 1 or more (drops, frames, turns)."""
    value = _whole(text, "a whole number of 1 or more")
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of 1 or more, got {text!r}")
    return value


def count_or_zero(text: str) -> int:
    """A count of 0 or more."""
    value = _whole(text, "a whole number of 0 or more")
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number of 0 or more, got {text!r}")
    return value


def seconds(text: str) -> float:
    """A finite number of seconds > 0."""
    what = "a number of seconds > 0"
    value = _number(text, what)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
    return value


def factor(text: str) -> float:
    """A finite speed-up factor of 0 or more (0: as fast as it goes, where that is offered)."""
    what = "a factor of 0 or more"
    value = _number(text, what)
    if value < 0 or value > 1_000_000:
        raise argparse.ArgumentTypeError(f"expected {what} (at most 1000000), got {text!r}")
    return value
