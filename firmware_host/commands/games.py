"""``tabletop games [--game KIND] [--journal PATH] [--json]``: the journal's games of one kind
(Drop It unless ``--game`` names a dice game)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from firmware_host.games.registry import DEFAULT_GAME, GAMES, BoardGame, DiceGame
from firmware_host.journal.dice import dice_summaries
from firmware_host.journal.review import summaries
from firmware_host.journal.store import Journal, default_journal_path


def register(subparsers: Any) -> None:
    """Add the ``games`` command."""
    parser = subparsers.add_parser(
        "games", help="list the journaled games of one kind, newest first (docs/journal.md)"
    )
    parser.add_argument(
        "--game",
        choices=tuple(GAMES),
        default=DEFAULT_GAME,
        help=f"which game's games (default: {DEFAULT_GAME})",
    )
    parser.add_argument(
        "--journal", metavar="PATH", help=f"the journal file (default: {default_journal_path()})"
    )
    parser.add_argument("--json", action="store_true", help="print the list as JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the games; a missing or unreadable journal raises (exit status 2)."""
    game = GAMES[args.game]
    with Journal(args.journal or default_journal_path(), create=False) as journal:
        match game:
            case BoardGame():
                listed = summaries(journal)
            case DiceGame(table=table):
                listed = dice_summaries(journal, table)
    if args.json:
        print(json.dumps(listed))
    elif not listed:
        print(f"No games of {game.title} in the journal yet.")
    elif isinstance(game, BoardGame):
        print(f"{'id':>4}  {'started (UTC)':<24}  {'state':<8}  {'turns':>5}  totals")
        for row in listed:
            totals = ", ".join(f"{name} {points}" for name, points in row["totals"].items())
            print(f"{_head(row)}  {row['turns']:>5}  {totals}")
    else:
        print(f"{'id':>4}  {'started (UTC)':<24}  {'state':<8}  {'events':>6}  scores")
        for row in listed:
            scores = row.get("problem") or ", ".join(
                f"{name} {points}" for name, points in row["scores"].items()
            )
            print(f"{_head(row)}  {row['events']:>6}  {scores}")
    return 0


def _head(game: dict[str, Any]) -> str:
    """A listed game's id, start and state, in columns."""
    state = "finished" if game["finished"] else "playing"
    return f"{game['id']:>4}  {game['started']:<24}  {state:<8}"
