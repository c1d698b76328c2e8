"""``tabletop clever``: the "Auch schon clever" sheet, a replayed journal, or a random game.

- ``tabletop clever [--layout FILE] [--json]``: the dice and the sheet of a game file;
- ``tabletop clever --replay EVENTS [--layout FILE] [--json]``: the state and the stars
  after a file of events (one JSON event per line, as the journal stores them);
- ``tabletop clever --autoplay SEED [--players A,B,...] [--json]``: a whole game between
  random players with virtual dice: its result in plain words, or with ``--json`` its
  events, one JSON event per line (the journal's form, which ``--replay`` reads). The
  players default to the table service's (``tabletop run``).
"""

from __future__ import annotations

import argparse
import json
from gettext import ngettext
from pathlib import Path
from typing import Any

from firmware_host.errors import IllegalMove, InputError
from firmware_host.games.clever.autoplay import play
from firmware_host.games.clever.events import Event
from firmware_host.games.clever.game import Game
from firmware_host.games.clever.layout import load_layout
from firmware_host.games.clever.sheet import Sheet
from firmware_host.service.options import DEFAULT_PLAYERS


def register(subparsers: Any) -> None:
    """Add the ``clever`` command."""
    parser = subparsers.add_parser(
        "clever", help='the "Auch schon clever" sheet, a replayed game, or a random game'
    )
    parser.add_argument("--layout", metavar="FILE", help="a game file instead of the reference")
    parser.add_argument("--json", action="store_true", help="print JSON")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--replay", metavar="EVENTS", help="replay a file of JSON events")
    mode.add_argument("--autoplay", metavar="SEED", type=int, help="play a random game")
    parser.add_argument(
        "--players",
        default=",".join(DEFAULT_PLAYERS),
        help=f"with --autoplay: names, comma-separated (default: {','.join(DEFAULT_PLAYERS)})",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Show the sheet, replay a journal or play a random game, as the options say."""
    sheet = Sheet(load_layout(args.layout))
    if args.autoplay is not None:
        players = tuple(p.strip() for p in args.players.split(",") if p.strip())
        if not players:
            raise InputError("--players", "", "expected at least one name")
        events = play(sheet, players, args.autoplay)
        if args.json:
            for event in events:
                print(json.dumps(event.to_json()))
        else:
            game = Game.replay(sheet, events)
            print(f"a random game, seed {args.autoplay}, {len(events)} events")
            print(describe_game(game))
        return 0
    if args.replay is not None:
        game = replay_file(sheet, Path(args.replay))
        print(json.dumps(game.to_json(), indent=2) if args.json else describe_game(game))
        return 0
    print(json.dumps(sheet.layout.to_json(), indent=2) if args.json else describe_sheet(sheet))
    return 0


def replay_file(sheet: Sheet, path: Path) -> Game:
    """The game after the events in ``path``; errors name the file and the line."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise InputError(str(path), "", "file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(str(path), "", f"cannot read the file ({exc})") from None
    game: Game | None = None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"line {number}"
        try:
            event = Event.from_json(json.loads(line))
            game = Game.replay(sheet, [event]) if game is None else game.apply(event)
        except json.JSONDecodeError as exc:
            raise InputError(str(path), where, f"malformed JSON: {exc.msg}") from None
        except InputError as exc:
            raise InputError(str(path), f"{where}: {exc.where}", exc.problem) from None
        except IllegalMove as exc:
            raise InputError(str(path), where, str(exc)) from None
    if game is None:
        raise InputError(str(path), "", "no events (the first must be game_started)")
    return game


def describe_sheet(sheet: Sheet) -> str:
    """A plain-words summary of the dice and the sheet."""
    layout = sheet.layout
    lines = [f"Auch schon clever, layout {layout.name!r}", "dice (faces 0-5):"]
    for d, die in enumerate(layout.dice):
        lines.append(f"  die {d}: " + ", ".join(face.describe() for face in die))
    for color, boxes in sheet.areas.items():
        lines.append(f"{color}:")
        for box in boxes:
            marks = [stars_text(box.stars)] if box.stars else []
            marks += [f"{box.bonus} bonus"] if box.bonus else []
            lines.append(f"  {box.id:<16} {box.name}" + (f"  ({', '.join(marks)})" * bool(marks)))
    green = layout.green
    bonuses = ", ".join(f"column {c}: {color}" for c, color in sorted(green.column_bonuses.items()))
    lines.append(
        f"  left column full: {stars_text(green.left_column_stars)}; each full row: "
        f"{stars_text(green.row_stars)}; column bonuses: {bonuses or 'none'}"
    )
    return "\n".join(lines)


def describe_game(game: Game) -> str:
    """A plain-words summary of a game's state."""
    lines = [f"turn {game.turn}, {game.phase} phase, starting player {game.starter}"]
    if game.waiting_for:
        lines.append(f"waiting for: {', '.join(game.waiting_for)}")
    for player in game.players:
        stars = ", ".join(f"{c} {n}" for c, n in game.stars(player).items())
        lines.append(f"  {player}: {stars_text(game.scores()[player])} ({stars})")
    if game.over:
        lines.append(f"winners: {', '.join(game.winners())}")
    return "\n".join(lines)


def stars_text(count: int) -> str:
    """``1 star``, ``2 stars`` (through :func:`gettext.ngettext`, ready for a translation).

    >>> stars_text(1), stars_text(0), stars_text(2)
    ('1 star', '0 stars', '2 stars')
    """
    return ngettext("{count} star", "{count} stars", count).format(count=count)
