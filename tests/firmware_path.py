"""Where the hub firmware (hardware/hub) and its MicroPython stand-ins live, for the tests.

On the hub the firmware's modules are flat (``import engine``); the tests import them the
same way, so ``tests/conftest.py`` puts both folders on ``sys.path`` before any test module.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIRMWARE = ROOT / "hardware" / "hub"
STANDINS = ROOT / "tests" / "hub_standin"


def put_on_sys_path() -> None:
    """Make ``import engine``, ``import machine`` ... work as they do on the hub."""
    for folder in (FIRMWARE, STANDINS):
        if str(folder) not in sys.path:
            sys.path.insert(0, str(folder))
