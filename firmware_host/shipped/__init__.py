"""Where the files the product ships beside its code are: default configuration, hub firmware.

In a checkout (and an editable install) they are the project's ``config/`` and
``hardware/hub/`` folders; a built wheel carries copies of both inside this package
(``firmware_host/shipped/config`` and ``firmware_host/shipped/hub``, see ``setup.py``), so
an installed ``tabletop`` needs nothing from the checkout.

>>> (CONFIG / "boards" / "reference.yaml").is_file()
True
>>> sorted(p.name for p in HUB.glob("*.py"))
['engine.py', 'inputs.py', 'main.py']
"""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent
_CHECKOUT = _HERE.parents[1]


def _first_folder(*candidates: Path) -> Path:
    """The first candidate that is a folder (the last one if none is)."""
    for folder in candidates:
        if folder.is_dir():
            return folder
    return candidates[-1]


CONFIG = _first_folder(_HERE / "config", _CHECKOUT / "config")
"""The shipped default configuration (boards, tables, noise profiles, games, ...)."""

HUB = _first_folder(_HERE / "hub", _CHECKOUT / "hardware" / "hub")
"""The hub firmware's files (``engine.py``, ``inputs.py``, ``hub_config.json``, ...)."""
