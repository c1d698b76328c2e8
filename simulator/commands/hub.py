"""``tabletop sim hub``: a virtual hub as its own process, printing the URL to connect to.

``tabletop sim hub [--noise PROFILE] [--seed S] [--socket [PORT]] [--link PATH]
[--table FILE] [--script FILE | --autoplay [--drops N]] [--speed X] [--seconds S]``

The first line of output is ``virtual hub: URL`` (a pty's stable symlink, or
``socket://127.0.0.1:PORT``), the second the profile, seed, speed (and the pty's own
path, which changes when the line is unplugged); then one line per drop (what the player
meant, where the piece truly came to rest: the simulator's side only, the host never sees
it). Runs until Ctrl-C or ``--seconds``. See docs/simulator.md.
"""

from __future__ import annotations

import argparse
import itertools
import signal
import sys
import threading
from typing import Any

from firmware_host.commands import values
from firmware_host.config.noise import load_profile
from firmware_host.config.table import load_table
from firmware_host.errors import InputError
from simulator.hub import DropHandle, VirtualHub
from simulator.play import play
from simulator.players import Autoplay, Roll, Turn, load_script


def register(sim_subparsers: Any) -> None:
    """Add ``sim hub``."""
    parser = sim_subparsers.add_parser(
        "hub", help="run a virtual hub on a pty or a socket and print its URL"
    )
    parser.add_argument("--noise", default="realistic", metavar="PROFILE", help="(realistic)")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (0)")
    parser.add_argument(
        "--socket",
        nargs="?",
        const=0,
        type=values.port,
        metavar="PORT",
        help="serve socket://127.0.0.1:PORT instead of a pty (no PORT: a free one)",
    )
    parser.add_argument(
        "--link", metavar="PATH", help="the pty's stable symlink (default: a tmp dir)"
    )
    parser.add_argument("--table", metavar="FILE", help="a table file instead of the reference")
    who = parser.add_mutually_exclusive_group()
    who.add_argument("--script", metavar="FILE", help="drop what this script says")
    who.add_argument("--autoplay", action="store_true", help="four players drop the supply")
    parser.add_argument(
        "--drops", type=values.count_or_zero, metavar="N", help="with --autoplay: stop after N"
    )
    parser.add_argument(
        "--speed",
        type=values.factor,
        default=1.0,
        metavar="X",
        help="X times real time; 0: at once (1)",
    )
    parser.add_argument("--seconds", type=values.seconds, metavar="S", help="stop after S seconds")
    parser.set_defaults(run=run)


def _describe(number: int, handle: DropHandle) -> str:
    true = handle.true
    meant, piece = true.intended, true.pieces[-1]
    pose = piece.pose
    return (
        f"drop {number}: {piece.describe()} meant x={meant.x:.1f} angle={meant.angle:.1f}, "
        f"rests at x={pose.x:.1f} y={pose.y:.1f} angle={pose.angle:.1f}"
    )


def run(args: argparse.Namespace) -> int:
    """Serve until Ctrl-C or ``--seconds``; exit 0."""
    if args.speed < 0:
        raise InputError("--speed", "", f"must be 0 or more, got {args.speed}")
    if args.drops is not None and (args.drops < 0 or not args.autoplay):
        raise InputError("--drops", "", "needs --autoplay and a count of 0 or more")
    table = load_table(args.table)
    profile = load_profile(args.noise)
    steps: list[Turn | Roll] | Any = []
    if args.script:
        steps = load_script(args.script)
    elif args.autoplay:
        steps = itertools.islice(Autoplay(table, args.seed), args.drops)
    line = "pty" if args.socket is None else "socket"
    try:
        hub = VirtualHub(
            table,
            profile,
            args.seed,
            line=line,
            port=args.socket or 0,
            link=args.link,
            speed=args.speed or None,
        )
    except OSError as exc:
        where = f"--socket {args.socket}" if line == "socket" else f"--link {args.link}"
        raise InputError(where, "", f"cannot serve the hub there ({exc.strerror or exc})") from None
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    if args.seconds is not None:
        timer = threading.Timer(args.seconds, stop.set)
        timer.daemon = True
        timer.start()
    counter = itertools.count(1)
    with hub:
        print(f"virtual hub: {hub.url}", flush=True)
        where = getattr(hub.line, "slave_path", "")
        where = f", pty {where}" if where else ""
        print(f"noise {args.noise}, seed {args.seed}, speed {args.speed:g}{where}", flush=True)
        try:
            play(hub, steps, stop, lambda h: print(_describe(next(counter), h), flush=True))
            stop.wait()
        except KeyboardInterrupt:
            pass
    print("virtual hub stopped", file=sys.stderr)
    return 0
