"""``tabletop replay ID [--journal PATH] [--json | --yaml] [--board FILE]``: a journaled
game of Drop It, every turn judged again from its journaled poses; in text, the frames the
verdicts came from (:mod:`firmware_host.camera.kept`) are named by turn."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import yaml

from firmware_host.camera.kept import frames_folder
from firmware_host.config.board import load_board
from firmware_host.games.dropit.events import Ruling
from firmware_host.journal.review import game_file, game_record, rereferee
from firmware_host.journal.store import Journal, default_journal_path


def register(subparsers: Any) -> None:
    """Add the ``replay`` command."""
    parser = subparsers.add_parser(
        "replay", help="re-referee a journaled game of Drop It, or export it as a game file"
    )
    parser.add_argument("id", type=int, metavar="ID", help="the game's id (see tabletop games)")
    parser.add_argument(
        "--journal", metavar="PATH", help=f"the journal file (default: {default_journal_path()})"
    )
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="print the replay as JSON")
    form.add_argument(
        "--yaml", action="store_true", help="print the game as a game file for tabletop referee"
    )
    parser.add_argument("--board", metavar="FILE", help="a board file instead of the reference")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the replay (or the game file); an unknown game or journal raises (exit 2).

    Turns whose verdict now differs from the one journaled during play are named on stderr.
    """
    board = load_board(args.board)
    with Journal(args.journal or default_journal_path(), create=False) as journal:
        replayed = rereferee(journal, args.id, board)
        source = journal.path
    for turn, then, now in replayed.differences:
        print(
            f"tabletop replay: note: turn {turn} judged again differs from the journal "
            f"(journaled {_ruling(then)}, now {_ruling(now)})",
            file=sys.stderr,
        )
    if args.yaml:
        header = f"# Game {args.id} of the journal {source}, exported by tabletop replay --yaml\n"
        record = game_record(replayed.report.events)
        print(
            header
            + yaml.safe_dump(
                game_file(record), sort_keys=False, default_flow_style=None, width=100
            ),
            end="",
        )
    elif args.json:
        print(json.dumps(replayed.to_json()))
    else:
        print(f"Game {args.id} (judged again from the journal):")
        print(replayed.report.describe())
        kept = kept_frames(frames_folder(Path(source)), args.id)
        if kept:
            print("Frames the verdicts came from (the located outlines drawn over them):")
            for turn, path in kept:
                print(f"  turn {turn}: {path}")
    return 0


def kept_frames(folder: Path, game_id: int) -> list[tuple[int, Path]]:
    """The kept frames of game ``game_id`` in ``folder``, by turn."""
    found = []
    for path in folder.glob(f"game-{game_id}-turn-*.jpg"):
        turn = path.stem.rpartition("-")[2]
        if turn.isdigit():
            found.append((int(turn), path))
    return sorted(found)


def _ruling(ruling: Ruling) -> str:
    broken = ", ".join(ruling.broken) or "no rule"
    return f"level {ruling.level}, bonus {ruling.bonus}, broken: {broken}"
