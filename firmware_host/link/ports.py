"""Finding the hub's serial port when none is given."""

from __future__ import annotations

import os
from pathlib import Path

BY_ID = Path("/dev/serial/by-id")
HUB_NAMES = ("MicroPython", "RP2", "Pico")
"""Substrings of the /dev/serial/by-id names an RP2040 running MicroPython shows up as."""


def find_hub_port(by_id: Path | None = None) -> str | None:
    """``$TABLETOP_HUB_PORT``, else the first /dev/serial/by-id entry that looks like a hub.

    Returns a pyserial URL or path, or None when no hub is plugged in.
    """
    configured = os.environ.get("TABLETOP_HUB_PORT")
    if configured:
        return configured
    by_id = by_id or BY_ID
    if not by_id.is_dir():
        return None
    for entry in sorted(by_id.iterdir()):
        if any(name in entry.name for name in HUB_NAMES):
            return str(entry)
    return None
