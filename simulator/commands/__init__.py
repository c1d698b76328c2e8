"""``tabletop sim COMMAND``: the simulator's commands, one module each (``hub`` first).

The product's CLI finds this group through the ``sim`` entry point of
:data:`firmware_host.simulation.GROUP`; each module in :data:`SIM_COMMANDS` has
``register(sim_subparsers)``, which adds its parser and sets ``run``.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from simulator.commands import eval, frames, hub

SIM_COMMANDS: tuple[ModuleType, ...] = (hub, eval, frames)
"""The ``sim`` sub-commands, in help order."""


def register(subparsers: Any) -> None:
    """Add the ``sim`` command group."""
    parser = subparsers.add_parser("sim", help="the simulator: a virtual hub and its players")
    sim_subparsers = parser.add_subparsers(dest="sim_command", required=True, metavar="COMMAND")
    for command in SIM_COMMANDS:
        command.register(sim_subparsers)
