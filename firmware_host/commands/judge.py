"""``tabletop judge POSITION.yaml [--json] [--board FILE]``: referee one landing."""

from __future__ import annotations

import argparse
import json
from typing import Any

from firmware_host.config.board import load_board
from firmware_host.games.dropit.rules.landing import check_position, judge
from firmware_host.games.dropit.rules.position import load_position


def register(subparsers: Any) -> None:
    """Add the ``judge`` command."""
    parser = subparsers.add_parser(
        "judge", help="referee one landing from final poses (no simulation)"
    )
    parser.add_argument("position", metavar="POSITION.yaml", help="the position file")
    parser.add_argument("--json", action="store_true", help="print the verdict as JSON")
    parser.add_argument("--board", metavar="FILE", help="a board file instead of the reference")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the verdict; bad input raises (exit status 2, one line, no verdict)."""
    board = load_board(args.board)
    position = load_position(args.position)
    check_position(board, position, args.position)
    verdict = judge(board, position)
    print(json.dumps(verdict.to_json()) if args.json else verdict.explain())
    return 0
