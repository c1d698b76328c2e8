"""The ``tabletop`` command: one sub-command per module in :mod:`firmware_host.commands`."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from firmware_host import __version__
from firmware_host.commands import COMMANDS, help
from firmware_host.errors import TabletopError

EXIT_BAD_INPUT = 2
"""Exit status for bad input (a file, an option): one line on stderr, never a result."""

EXIT_BROKEN_PIPE = 141
"""Exit status when the output's reader closed the pipe early (128 + SIGPIPE)."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, prefixed with the full sub-command
    (``tabletop sim hub: argument --socket: expected a port ...``), exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {message} (see {self.prog} --help)\n")

    # Only argparse's Namespace form of parse_args (no namespace given) is overridden.
    def parse_args(  # type: ignore[override]  # the Namespace form only
        self, args: Sequence[str] | None = None, namespace: None = None
    ) -> argparse.Namespace:
        """Parse ``args``; an unknown argument is named with the sub-command it was given to."""
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            prog = getattr(parsed, "prog", self.prog)
            message = f"unrecognized arguments: {' '.join(extras)}"
            self.exit(EXIT_BAD_INPUT, f"{prog}: {message} (see {prog} --help)\n")
        return parsed


def _name_commands(parser: argparse.ArgumentParser) -> None:
    """Give every (sub-)sub-command's parser its full name as the ``prog`` default, for the
    one-line errors of :func:`main`."""
    parser.set_defaults(prog=parser.prog)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                _name_commands(sub)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every sub-command registered."""
    parser = Parser(prog="tabletop")
    parser.add_argument("--version", action="version", version=f"tabletop {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.register(subparsers)
    _name_commands(parser)
    help.polish(parser)
    return parser


def one_line(prog: str, error: Exception) -> str:
    """``error`` as one line, prefixed once with the sub-command ``prog``."""
    message = " ".join(str(error).split())
    return message if message.startswith(f"{prog}: ") else f"{prog}: {message}"


def main(argv: Sequence[str] | None = None) -> int:
    """Run one ``tabletop`` command; returns (and exits with) its status."""
    parser = build_parser()
    if not (sys.argv[1:] if argv is None else argv):
        parser.print_help()
        return _exit(0, argv)
    args = parser.parse_args(argv)
    try:
        status = int(args.run(args))
    except TabletopError as exc:
        print(one_line(args.prog, exc), file=sys.stderr)
        status = EXIT_BAD_INPUT
    except BrokenPipeError:
        # the reader went away (``tabletop ... | head``): stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        status = EXIT_BROKEN_PIPE
    return _exit(status, argv)


def _exit(status: int, argv: Sequence[str] | None) -> int:
    if argv is None:
        sys.exit(status)
    return status
