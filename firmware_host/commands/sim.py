"""``tabletop sim COMMAND``: the simulator's commands, plugged in through
:mod:`firmware_host.simulation` (its ``sim`` part registers them); without the simulator,
``tabletop sim ...`` says in one line that it is not installed."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, NoReturn

from firmware_host.errors import InputError
from firmware_host.simulation import plugged


def register(subparsers: Any) -> None:
    """Add the simulator's ``sim`` command group, or a ``sim`` that says it is missing."""
    try:
        commands = plugged("sim", "tabletop sim")
    except InputError as missing:
        parser = subparsers.add_parser("sim", help="the simulator (not installed)")
        parser.add_argument("words", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
        parser.set_defaults(run=_refuse(missing))
        return
    commands.register(subparsers)


def _refuse(missing: InputError) -> Callable[[argparse.Namespace], NoReturn]:
    def run(args: argparse.Namespace) -> NoReturn:
        raise missing

    return run
