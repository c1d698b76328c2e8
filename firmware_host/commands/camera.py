"""``tabletop camera COMMAND``: the camera's commands, one module each.

Each module in :data:`CAMERA_COMMANDS` has ``register(camera_subparsers)``, which adds its
parser and sets ``run``.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from firmware_host.commands import camera_calibrate, camera_check, camera_look

CAMERA_COMMANDS: tuple[ModuleType, ...] = (camera_look, camera_check, camera_calibrate)
"""The ``camera`` sub-commands, in help order."""


def register(subparsers: Any) -> None:
    """Add the ``camera`` command group."""
    parser = subparsers.add_parser(
        "camera", help="the camera: locate pieces in frames, check its set-up, calibrate colours"
    )
    camera_subparsers = parser.add_subparsers(
        dest="camera_command", required=True, metavar="COMMAND"
    )
    for command in CAMERA_COMMANDS:
        command.register(camera_subparsers)
