"""``tabletop hub monitor [--port URL] [--count N] [--seconds S] [--heartbeat] [--json]
[--table FILE]``."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from firmware_host.commands import values
from firmware_host.config.table import load_table
from firmware_host.errors import InputError
from firmware_host.link.monitor import Monitor
from firmware_host.link.ports import find_hub_port


def register(subparsers: Any) -> None:
    """Add the ``hub`` command and its ``monitor`` action."""
    parser = subparsers.add_parser("hub", help="the sensor hub: watch its link")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    monitor = actions.add_parser("monitor", help="show the decoded frames on the hub link live")
    monitor.add_argument(
        "--port",
        metavar="URL",
        help="a pyserial URL or path (default: $TABLETOP_HUB_PORT or the hub in /dev/serial/by-id)",
    )
    monitor.add_argument(
        "--count", type=values.count, metavar="N", help="stop after N frames from the hub"
    )
    monitor.add_argument("--seconds", type=values.seconds, metavar="S", help="stop after S seconds")
    monitor.add_argument("--heartbeat", action="store_true", help="also show ping/pong frames")
    monitor.add_argument(
        "--json", action="store_true", help="one JSON object per line (docs/link.md)"
    )
    monitor.add_argument(
        "--table",
        metavar="FILE",
        help="the table file the hub's inventory must match (default: the reference table)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Watch the link until a limit or Ctrl-C; exit 0, or 2 when the hub is unusable or never
    answered."""
    for name in ("count", "seconds"):
        value = getattr(args, name)
        if value is not None and value <= 0:
            raise InputError(f"--{name}", "", f"must be more than 0, got {value}")
    table = load_table(args.table)
    port = args.port or find_hub_port()
    if port is None:
        raise InputError("--port", "", "no hub found in /dev/serial/by-id; give --port URL")
    monitor = Monitor(
        port,
        sys.stdout,
        count=args.count,
        seconds=args.seconds,
        heartbeat=args.heartbeat,
        json_lines=args.json,
        table=table,
        **({"table_source": args.table} if args.table else {}),
    )
    link = monitor.run()
    print(monitor.summary(), flush=True)
    if link.error is not None:
        raise link.error
    if not monitor.connected:
        waited = f" in {args.seconds:g} s" if args.seconds is not None else ""
        raise InputError(port, "", f"the hub never answered{waited} ({monitor.problem})")
    return 0
