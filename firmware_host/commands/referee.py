"""``tabletop referee GAME.yaml [--json] [--board FILE]``: referee a whole recorded game."""

from __future__ import annotations

import argparse
import json
from typing import Any

from firmware_host.config.board import load_board
from firmware_host.games.dropit.gamefile import load_game
from firmware_host.games.dropit.referee import referee_game


def register(subparsers: Any) -> None:
    """Add the ``referee`` command."""
    parser = subparsers.add_parser(
        "referee", help="referee a recorded game of Drop It from final poses (docs/game-file.md)"
    )
    parser.add_argument("game", metavar="GAME.yaml", help="the game file")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--board", metavar="FILE", help="a board file instead of the reference")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print every turn's verdict, the standings and winners; bad input raises (exit 2)."""
    board = load_board(args.board)
    report = referee_game(load_game(args.game), board, args.game)
    print(json.dumps(report.to_json(), indent=2) if args.json else report.describe())
    return 0
