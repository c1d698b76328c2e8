"""Puts the hub firmware (hardware/hub) and the MicroPython stand-ins on ``sys.path``."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for folder in (ROOT / "hardware" / "hub", ROOT / "tests" / "hub_standin"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
