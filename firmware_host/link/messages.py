"""Building host commands for the hub, checked against the hub's inventory.

>>> frames = led_frames(0, [(255, 0, 0)] * 27)
>>> [(f["strip"], f["start"], len(f["rgb"]) // 3) for f in frames]
[(0, 0, 27)]
>>> sampling(0.002)
{'type': 'sampling', 'period_us': 2000}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from firmware_host.link import wire

MAX_PIXELS_PER_FRAME = (wire.LENGTHS[wire.LEDS][2] - 4) // 3
"""Pixels one ``leds`` frame carries (a longer strip is drawn with several frames)."""

RGB = tuple[int, int, int]


def led_frames(
    strip: int, pixels: Sequence[RGB], start: int = 0, hello: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """The ``leds`` commands that draw ``pixels`` on ``strip`` from pixel ``start``.

    With the hub's ``hello``, a strip or pixel the hub does not have is a ``ValueError``
    here rather than a rejected command later.
    """
    if hello is not None:
        strips = hello["led_strips"]
        if not 0 <= strip < len(strips):
            raise ValueError(f"LED strip {strip}: the hub has strips 0-{len(strips) - 1}")
        if start + len(pixels) > strips[strip]:
            raise ValueError(
                f"LED strip {strip}: pixels {start}-{start + len(pixels) - 1} "
                f"beyond its {strips[strip]} pixels"
            )
    frames = []
    for first in range(0, len(pixels), MAX_PIXELS_PER_FRAME):
        chunk = pixels[first : first + MAX_PIXELS_PER_FRAME]
        for rgb in chunk:
            if len(rgb) != 3 or not all(0 <= c <= 255 for c in rgb):
                raise ValueError(f"LED colour {rgb!r}: expected three values 0-255")
        rgb_bytes = bytes(c for rgb in chunk for c in rgb)
        frames.append({"type": "leds", "strip": strip, "start": start + first, "rgb": rgb_bytes})
    return frames


def snapshot_request() -> dict[str, Any]:
    """Ask for the whole sensor state (answered by events ending with ``snapshot_done``)."""
    return {"type": "snapshot_request"}


def sampling(period: float) -> dict[str, Any]:
    """Set the hub's scan period, in seconds (0.0002 to 0.1)."""
    period_us = round(period * 1e6)
    if not 200 <= period_us <= 100_000:
        raise ValueError(f"sampling period {period} s: expected 0.0002 to 0.1 s")
    return {"type": "sampling", "period_us": period_us}


def reset() -> dict[str, Any]:
    """Restart the hub (it acknowledges first; the next hello has a new boot id)."""
    return {"type": "reset"}
