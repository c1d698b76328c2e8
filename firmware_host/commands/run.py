"""``tabletop run``: the service (docs/service.md)."""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from firmware_host.commands import values
from firmware_host.config.board import EdgeFace
from firmware_host.errors import InputError
from firmware_host.games.registry import DEFAULT_GAME, GAMES
from firmware_host.journal.store import default_journal_path
from firmware_host.logs import LEVELS, setup_logging
from firmware_host.service.options import DEFAULT_PLAYERS, Options
from firmware_host.service.runner import Service


def _speed(text: str) -> float:
    try:
        speed = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not 0 < speed <= 1_000_000:
        raise argparse.ArgumentTypeError(f"expected a speed-up factor > 0, got {text}")
    return speed


def register(subparsers: Any) -> None:
    """Add the ``run`` command."""
    parser = subparsers.add_parser(
        "run", help="the service: a game at the table, with the page (docs/service.md)"
    )
    parser.add_argument(
        "--game",
        choices=tuple(GAMES),
        default=DEFAULT_GAME,
        help=f"the game at the table (default: {DEFAULT_GAME}; the others are dice games, "
        "docs/dice-games.md)",
    )
    parser.add_argument(
        "--variant", metavar="NAME", help="a dice game's variant (see its docs; default: base game)"
    )
    parser.add_argument(
        "--port",
        metavar="URL",
        help="the hub's port, any pyserial URL (default: $TABLETOP_HUB_PORT, else the hub "
        "in /dev/serial/by-id; with none the service waits for one)",
    )
    parser.add_argument(
        "--sim",
        action="store_true",
        help="run on the simulator (virtual hub) instead of a hub; the page shows "
        "'Simulated table'",
    )
    parser.add_argument(
        "--autoplay", action="store_true", help="simulated players play (needs the simulator)"
    )
    parser.add_argument(
        "--speed",
        type=_speed,
        default=1.0,
        metavar="X",
        help="play X times faster than real time (default: 1)",
    )
    parser.add_argument(
        "--journal", metavar="PATH", help=f"the journal file (default: {default_journal_path()})"
    )
    parser.add_argument(
        "--http", choices=("on", "off"), default="on", help="serve the page (default: on)"
    )
    parser.add_argument(
        "--page-port",
        type=values.port,
        metavar="P",
        help="the page's port (default: the web settings', 8080; 0: any)",
    )
    parser.add_argument("--seed", type=int, default=1, help="the simulator's seed (default 1)")
    parser.add_argument(
        "--noise", default="realistic", metavar="PROFILE", help="the simulator's noise profile"
    )
    parser.add_argument(
        "--players",
        nargs="+",
        metavar="NAME",
        default=list(DEFAULT_PLAYERS),
        help="players of a new game, in turn order (default: four)",
    )
    parser.add_argument("--no-jokers", action="store_true", help="play without jokers")
    parser.add_argument(
        "--edges",
        choices=[str(face) for face in EdgeFace],
        default=str(EdgeFace.COLOR),
        help="which edge face counts (default: color)",
    )
    parser.add_argument("--table", metavar="FILE", help="a table file instead of the reference")
    parser.add_argument("--panel", metavar="FILE", help="a panel file instead of the reference")
    parser.add_argument("--web", metavar="FILE", help="web settings instead of the reference")
    parser.add_argument(
        "--log-level", choices=LEVELS, help="log level (default: $TABLETOP_LOG_LEVEL, else info)"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the service until the autoplayed game is over, Ctrl-C or SIGTERM."""
    if args.port and args.sim:
        raise InputError("tabletop run", "--port/--sim", "give one: a hub's port or --sim")
    if args.autoplay and args.port:
        raise InputError("tabletop run", "--autoplay", "simulated players need the simulator")
    setup_logging(args.log_level)
    options = Options(
        journal=args.journal or default_journal_path(),
        port=args.port,
        sim=args.sim,
        autoplay=args.autoplay,
        speed=args.speed,
        http=args.http == "on",
        page_port=args.page_port,
        seed=args.seed,
        noise=args.noise,
        players=tuple(args.players),
        jokers=not args.no_jokers,
        edges=EdgeFace(args.edges),
        table=args.table,
        panel=args.panel,
        web=args.web,
        game=args.game,
        variant=args.variant,
    )
    async def main() -> int:
        announce = lambda line: print(line, flush=True)  # noqa: E731
        return await Service(options, announce=announce).run()

    return asyncio.run(main())
