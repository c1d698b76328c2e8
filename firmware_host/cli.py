"""The ``tabletop`` command: one sub-command per module in :mod:`firmware_host.commands`."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from firmware_host import __version__
from firmware_host.commands import COMMANDS
from firmware_host.errors import TabletopError

EXIT_BAD_INPUT = 2
"""Exit status for bad input (a file, an option): one line on stderr, never a result."""

EXIT_BROKEN_PIPE = 141
"""Exit status when the output's reader closed the pipe early (128 + SIGPIPE)."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every sub-command registered."""
    parser = argparse.ArgumentParser(prog="tabletop", description=__doc__)
    parser.add_argument("--version", action="version", version=f"tabletop {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one ``tabletop`` command; returns (and exits with) its status."""
    args = build_parser().parse_args(argv)
    try:
        status = int(args.run(args))
    except TabletopError as exc:
        print(f"tabletop {args.command}: {exc}", file=sys.stderr)
        status = EXIT_BAD_INPUT
    except BrokenPipeError:
        # the reader went away (``tabletop ... | head``): stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        status = EXIT_BROKEN_PIPE
    if argv is None:
        sys.exit(status)
    return status
