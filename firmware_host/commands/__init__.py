"""The ``tabletop`` sub-commands, one module each.

Each module has ``register(subparsers)``, which adds its parser and sets ``run`` (a
function of the parsed arguments that returns the exit status).
"""

from __future__ import annotations

from types import ModuleType

from firmware_host.commands import (
    board,
    camera,
    clever,
    doctor,
    games,
    hub,
    judge,
    page,
    referee,
    replay,
    run,
    sim,
    simulate,
    table,
)

COMMANDS: tuple[ModuleType, ...] = (
    board,
    table,
    judge,
    referee,
    simulate,
    hub,
    games,
    replay,
    page,
    sim,
    camera,
    doctor,
    clever,
    run,
)
