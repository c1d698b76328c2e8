"""``tabletop sim ...``: the simulator's commands (here: ``eval``)."""

from __future__ import annotations

from typing import Any

from firmware_host.commands import sim_eval


def register(subparsers: Any) -> None:
    """Add the ``sim`` command group and its sub-commands."""
    parser = subparsers.add_parser("sim", help="the table simulator")
    sim_subparsers = parser.add_subparsers(dest="sim_command", required=True, metavar="SUB")
    sim_eval.register(sim_subparsers)
