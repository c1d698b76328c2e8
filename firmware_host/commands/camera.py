"""``tabletop camera COMMAND``: the table's camera, one module per sub-command.

Each module in :data:`CAMERA_COMMANDS` has ``register(camera_subparsers)``, which adds its
parser and sets ``run``.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from firmware_host.commands import camera_look

CAMERA_COMMANDS: tuple[ModuleType, ...] = (camera_look,)
"""The ``camera`` sub-commands, in help order."""


def register(subparsers: Any) -> None:
    """Add the ``camera`` command group."""
    parser = subparsers.add_parser("camera", help="the table's camera: look at frames")
    camera_subparsers = parser.add_subparsers(
        dest="camera_command", required=True, metavar="COMMAND"
    )
    for command in CAMERA_COMMANDS:
        command.register(camera_subparsers)
