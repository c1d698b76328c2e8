"""Table files for the camera's tests: the reference table with its camera section edited."""

from __future__ import annotations

from pathlib import Path

import yaml

from firmware_host.config.table import REFERENCE_TABLE


def table_file(folder: Path, **camera: object) -> Path:
    """A copy of the reference table in ``folder`` with ``camera`` keys replaced (a key set
    to None is removed; ``camera_none=True`` gives a table without a camera)."""
    data = yaml.safe_load(REFERENCE_TABLE.read_text())
    data["board"] = str((REFERENCE_TABLE.parent / data["board"]).resolve())
    if camera.pop("camera_none", False):
        data["camera"] = "none"
    else:
        data["camera"] = {**data["camera"], **camera}
    path = folder / "table.yaml"
    path.write_text(yaml.safe_dump(data))
    return path
