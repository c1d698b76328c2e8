"""``tabletop camera check [--table FILE] [--frames FRAME...] [--snapshot OUT.png] [--json]``.

For the people who set up a table: grabs frames from the table's camera (or reads
``--frames``) and reports the markers found and missing, the image scale (px per mm) at
the drop zone's centre and corners, the homography's residual, the focus, the exposure
and the piece colours in use, then a verdict: ``camera ready`` (exit status 0) or what to
fix (exit status 1), in the table file's language (``--help`` stays English).
``--snapshot`` writes the first frame annotated (:mod:`firmware_host.camera.snapshot`).
Bad input exits with status 2 and one line.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

import cv2

from firmware_host.camera.check import check_frames, colour_findings
from firmware_host.camera.snapshot import annotated
from firmware_host.camera.sources import FileSource, FrameSource, open_source
from firmware_host.camera.tables import table_camera
from firmware_host.doctor.report import CHECK_AREAS, Columns, area_name
from firmware_host.errors import InputError
from firmware_host.i18n import lazy, translator

EXIT_NOT_READY = 1
"""Exit status when something needs fixing."""


def register(camera_subparsers: Any) -> None:
    """Add ``check`` to the ``camera`` command group."""
    parser = camera_subparsers.add_parser(
        "check",
        help="check the camera's set-up: markers, scale, focus, exposure, colours",
        description="Grabs frames from the table's camera (or reads --frames) and reports "
        "what is fine and what to fix; exit status 1 when the camera is not ready.",
    )
    parser.add_argument("--table", metavar="FILE", help="a table file instead of the reference")
    parser.add_argument(
        "--frames", nargs="+", metavar="FRAME", help="PNG or JPEG frames instead of the camera"
    )
    parser.add_argument("--snapshot", metavar="OUT.png", help="write an annotated frame")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Check, report, and give the verdict."""
    camera = table_camera(args.table, required=args.frames is None)
    setup = camera.setup
    source: FrameSource
    if args.frames is not None:
        source = FileSource(setup.size, args.frames)
        count = len(args.frames)
        names = list(args.frames)
    else:
        source = open_source(setup, camera.folder)
        count = setup.frames_per_look
        names = [f"{source.describe()} frame {i + 1}" for i in range(count)]
    with source:
        frames = source.grab(count)
    check = check_frames(setup, camera.table.board, frames, names)
    check.findings.extend(colour_findings(setup, camera.folder))
    if args.snapshot:
        image = annotated(setup.markers, camera.table.board, frames[0])
        try:
            written = cv2.imwrite(args.snapshot, image)
        except cv2.error:
            written = False
        if not written:
            raise InputError(args.snapshot, "", "cannot write the snapshot (a .png path?)")
    problems = [f for f in check.findings if not f.ok]
    t = translator(camera.table.config.language)
    if args.json:
        print(json.dumps(check.to_json(t.say)))
    else:
        columns = Columns(t, CHECK_AREAS)
        for finding in check.findings:
            print("\n".join(columns.lines(finding)))
        print()
        if problems:
            fixes = "; ".join(f"{area_name(f.area, t)}: {t.say(f.fix)}" for f in problems)
            print(lazy("camera not ready: {fixes}", fixes=fixes)(t))
        else:
            print(lazy("camera ready")(t))
    return EXIT_NOT_READY if problems else 0
