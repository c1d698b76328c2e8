"""A table file's camera: its set-up and the folder its relative paths start from."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from firmware_host.camera.setup import REFERENCE_CAMERA, CameraSetup
from firmware_host.config.table import REFERENCE_TABLE, Table, load_table
from firmware_host.errors import InputError


@dataclass(frozen=True)
class TableCamera:
    """A loaded table, its camera's set-up, and the table file's folder."""

    table: Table
    setup: CameraSetup
    folder: Path


def table_camera(path: Path | str | None, *, required: bool) -> TableCamera:
    """The camera of the table file ``path`` (the reference table when None).

    A table without a camera is an :class:`InputError` when ``required``, else it stands
    on the reference camera's set-up (to work on image files).
    """
    file = Path(path) if path is not None else REFERENCE_TABLE
    table = load_table(file)
    setup = table.camera
    if setup is None:
        if required:
            raise InputError(str(file), "camera", "this table has no camera (camera: none)")
        setup = CameraSetup.model_validate(REFERENCE_CAMERA)
    return TableCamera(table, setup, file.resolve().parent)
