"""``tabletop doctor [--port URL] [--table FILE] [--panel FILE] ... [--window S] [--no-camera]``."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from typing import Any

from firmware_host.commands import values
from firmware_host.doctor.configs import ConfigFiles
from firmware_host.doctor.examine import Doctor, DoctorOptions
from firmware_host.errors import InputError
from firmware_host.logs import setup_logging
from firmware_host.outputs.clock import LoopClock

EXIT_PROBLEMS = 1
"""Exit status when the doctor found something to fix."""

FILES = ("board", "table", "panel", "web", "physics")


def register(subparsers: Any) -> None:
    """Add the ``doctor`` command."""
    parser = subparsers.add_parser(
        "doctor",
        help="check the config, the camera, the hub, the gates and the LED tracks; say what to fix",
        description="Checks every config file, the camera (one frame: markers, px per mm), "
        "the hub (protocol version and inventory), "
        "watches the gates while you pass a hand through them, blinks each LED track in "
        "turn, and ends with OK or a list of what to fix (exit status 1).",
    )
    parser.add_argument(
        "--port",
        metavar="URL",
        help="the hub's pyserial URL or path (default: $TABLETOP_HUB_PORT or /dev/serial/by-id)",
    )
    defaults = ConfigFiles()
    for name in FILES:
        parser.add_argument(
            f"--{name}",
            metavar="FILE",
            default=getattr(defaults, name),
            help=f"the {name} file (default: the shipped one)",
        )
    parser.add_argument(
        "--noise", metavar="NAME|FILE", default=defaults.noise, help="the noise profile to check"
    )
    parser.add_argument(
        "--window",
        type=values.seconds,
        default=20.0,
        metavar="S",
        help="seconds to watch the gates (default 20)",
    )
    parser.add_argument(
        "--no-hub", action="store_true", help="check the files only, no hub and no camera"
    )
    parser.add_argument(
        "--no-camera", action="store_true", help="do not grab a frame from the camera"
    )
    parser.add_argument("--no-leds", action="store_true", help="do not blink the LED tracks")
    parser.add_argument(
        "--log-level", metavar="LEVEL", help="log level on stderr (default: warning)"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run every check; 0 when all is well, 1 when something needs fixing."""
    if args.window < 0:
        raise InputError("--window", "", f"must be 0 or more seconds, got {args.window}")
    level = args.log_level or os.environ.get("TABLETOP_LOG_LEVEL") or "warning"
    try:
        setup_logging(level)
    except ValueError as exc:
        raise InputError("--log-level", "", str(exc)) from None
    files = ConfigFiles(
        **{name: getattr(args, name) for name in FILES},
        noise=args.noise,
    )
    options = DoctorOptions(
        files=files,
        port=args.port,
        window=args.window,
        hub=not args.no_hub,
        leds=not args.no_leds,
        camera=not args.no_camera,
    )
    doctor = Doctor(options, LoopClock(), sys.stdout)
    problems = asyncio.run(doctor.examine())
    return EXIT_PROBLEMS if problems else 0
