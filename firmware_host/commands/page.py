"""``tabletop page --demo GAME.yaml``: the scoreboard page, playing back a recorded game.

A demo, not the service: until ``tabletop run`` exists, this is how to see the page live.
"""

from __future__ import annotations

import argparse
import contextlib
from typing import Any

import uvicorn

from firmware_host.commands import values
from firmware_host.config.board import load_board
from firmware_host.errors import InputError
from firmware_host.games.dropit.gamefile import load_game
from firmware_host.games.dropit.referee import RefereeReport, referee_game
from firmware_host.web.access import Access
from firmware_host.web.config import load_web_config
from firmware_host.web.demo import DemoFeed
from firmware_host.web.frontend import DROP_IT
from firmware_host.web.server import MAX_WS_BYTES, bind, create_app

DEFAULT_INTERVAL = 4.0
"""Seconds between demo steps."""


def register(subparsers: Any) -> None:
    """Add the ``page`` command."""
    parser = subparsers.add_parser(
        "page", help="serve the scoreboard page playing back a recorded game (a demo; docs/web.md)"
    )
    parser.add_argument(
        "--demo", metavar="GAME.yaml", required=True, help="the game file to play back"
    )
    parser.add_argument("--config", metavar="FILE", help="web settings instead of the reference")
    parser.add_argument("--board", metavar="FILE", help="a board file instead of the reference")
    parser.add_argument("--host", help="address to serve on (default: from the web settings)")
    parser.add_argument(
        "--port", type=values.port, help="port (default: from the web settings; 0: any)"
    )
    parser.add_argument(
        "--interval",
        type=values.seconds,
        default=DEFAULT_INTERVAL,
        help=f"seconds between steps (default {DEFAULT_INTERVAL:g})",
    )
    parser.add_argument(
        "--ask",
        type=values.count,
        action="append",
        metavar="TURN",
        help="ask the players a question before this turn (repeatable; default: before the "
        "first turn that breaks a rule)",
    )
    parser.set_defaults(run=run)


def default_questions(report: RefereeReport) -> list[int]:
    """Ask before the first turn that broke a rule (or turn 1 in a game without any)."""
    broken = [turn.drop.turn for turn in report.turns if not turn.verdict.valid]
    return broken[:1] or [1]


def run(args: argparse.Namespace) -> int:
    """Serve the page until interrupted; bad input raises (exit 2)."""
    config = load_web_config(args.config)
    if args.interval <= 0:
        raise InputError("--interval", "", f"expected seconds > 0, got {args.interval:g}")
    board = load_board(args.board)
    report = referee_game(load_game(args.demo), board, args.demo)
    table = DemoFeed(board, report, ask=args.ask or default_questions(report))
    access = Access(config)
    host = args.host or config.host
    port = config.port if args.port is None else args.port
    try:
        sock = bind(host, port)
    except OSError as exc:
        raise InputError(
            "--host/--port", f"{host}:{port}", f"cannot listen there ({exc})"
        ) from None
    shown = sock.getsockname()[1]
    print(f"tabletop page: demo of {args.demo} (a recorded game, not the service)")
    print(f"  the page: http://{'localhost' if host in ('127.0.0.1', '::1') else host}:{shown}/")
    if config.phones:
        print(
            f"  phones join with the code shown on the page (or: {access.join_code(table.game_id)})"
        )
    app = create_app(table, access, DROP_IT, background=lambda: table.run(args.interval))
    server = uvicorn.Server(
        uvicorn.Config(app, log_level="warning", ws_max_size=MAX_WS_BYTES, lifespan="on")
    )
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn re-raises Ctrl-C once it has stopped
        server.run(sockets=[sock])
    return 0
