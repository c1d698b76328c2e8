"""``tabletop games [--journal PATH] [--json]``: the games of Drop It in the journal."""

from __future__ import annotations

import argparse
import json
from typing import Any

from firmware_host.journal.review import summaries
from firmware_host.journal.store import Journal, default_journal_path


def register(subparsers: Any) -> None:
    """Add the ``games`` command."""
    parser = subparsers.add_parser(
        "games", help="list the journaled games of Drop It, newest first (docs/journal.md)"
    )
    parser.add_argument(
        "--journal", metavar="PATH", help=f"the journal file (default: {default_journal_path()})"
    )
    parser.add_argument("--json", action="store_true", help="print the list as JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the games; a missing or unreadable journal raises (exit status 2)."""
    with Journal(args.journal or default_journal_path(), create=False) as journal:
        listed = summaries(journal)
    if args.json:
        print(json.dumps(listed))
    elif not listed:
        print("No games of Drop It in the journal yet.")
    else:
        print(f"{'id':>4}  {'started (UTC)':<24}  {'state':<8}  {'turns':>5}  totals")
        for game in listed:
            totals = ", ".join(f"{name} {points}" for name, points in game["totals"].items())
            state = "finished" if game["finished"] else "playing"
            print(
                f"{game['id']:>4}  {game['started']:<24}  {state:<8}  {game['turns']:>5}  {totals}"
            )
    return 0
