"""The hub firmware's modules (``hardware/hub``, copied into the wheel), for the virtual hub.

On the board the firmware's modules are flat files (``import engine``); here they are
loaded by path under a ``hub_firmware.`` name, so nothing edits ``sys.path`` and the
simulator runs the very code the hub runs.

>>> engine = load("engine")
>>> engine.HubEngine.__name__
'HubEngine'
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from firmware_host import shipped

HUB_DIR = shipped.HUB
"""The firmware's folder: ``hardware/hub`` in a checkout, its copy in an installed wheel."""

HUB_CONFIG = HUB_DIR / "hub_config.json"
"""The reference hub's configuration (pins, counts, LED strips)."""


def load(name: str) -> ModuleType:
    """The firmware module ``name`` (``engine``, ``inputs``), loaded once."""
    qualified = f"hub_firmware.{name}"
    module = sys.modules.get(qualified)
    if module is not None:
        return module
    spec = importlib.util.spec_from_file_location(qualified, HUB_DIR / f"{name}.py")
    if spec is None or spec.loader is None:
        raise ImportError(f"no firmware module {name} in {HUB_DIR}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[qualified] = module
    spec.loader.exec_module(module)
    return module


def hub_config(path: Path = HUB_CONFIG) -> dict[str, Any]:
    """The hub configuration JSON as a dict."""
    return json.loads(path.read_text())
