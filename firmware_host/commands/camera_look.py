"""``tabletop camera look FRAME... --pieces PIECES.yaml [--dropped ID] [--json] [--table FILE]``.

Locates every piece of the pieces file in frames of one still scene and, with
``--dropped``, referees that piece at its located pose.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from typing import Any

from firmware_host.camera.calibration import effective_colors
from firmware_host.camera.images import read_frame
from firmware_host.camera.locate import Located
from firmware_host.camera.markers import BoardNotFound, MarkerFinder
from firmware_host.camera.pieces_file import load_pieces
from firmware_host.camera.sight import Sight
from firmware_host.camera.tables import table_camera
from firmware_host.camera.verdict import CameraVerdict, referee_located
from firmware_host.errors import InputError
from firmware_host.model import load_params


def register(subparsers: Any) -> None:
    """Add ``camera look``."""
    parser = subparsers.add_parser(
        "look", help="locate every piece in camera frames (and referee the dropped one)"
    )
    parser.add_argument("frames", metavar="FRAME", nargs="+", help="PNG or JPEG frames")
    parser.add_argument("--pieces", metavar="PIECES.yaml", required=True,
                        help="the pieces on the board, with their prior poses")
    parser.add_argument("--dropped", metavar="ID", help="referee this piece")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--table", metavar="FILE", help="a table file instead of the reference")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Locate, referee, print; bad input raises (exit status 2, one line)."""
    camera = table_camera(args.table, required=True)
    table, setup = camera.table, camera.setup
    colors = effective_colors(setup, camera.folder)
    known = load_pieces(args.pieces)
    if args.dropped is not None and known.by_id(args.dropped) is None:
        raise InputError(args.pieces, "pieces", f"no piece with id {args.dropped!r} (--dropped)")
    frames = [read_frame(path, setup.size) for path in args.frames]
    finder = MarkerFinder(setup.markers)
    for path, frame in zip(args.frames, frames, strict=True):
        if not finder.detect(frame):
            raise InputError(path, "", str(BoardNotFound(
                "the board cannot be found: no marker of the table's layout in the frame")))
    params = load_params()
    seen = Sight(table.board, setup, params, colors).see(
        frames, list(args.frames), known.pieces
    )
    located = list(seen.located)
    verdict = (
        referee_located(
            table.board, known.edges, located, args.dropped, seen.held_wrong, physics=params
        )
        if args.dropped is not None
        else None
    )
    if verdict is not None:
        # the dropped piece as judged: resting on what holds it (on the floor, seated there)
        at = verdict.pieces[-1].pose
        located = [replace(p, pose=at) if p.known.id == args.dropped else p for p in located]
    if args.json:
        out: dict[str, Any] = {
            "pieces": [_pose_json(p) for p in located],
            "markers": list(seen.markers),
        }
        if args.dropped is not None:
            out["verdict"] = None if verdict is None else verdict.to_json()
        print(json.dumps(out))
    else:
        print(_explain(located, seen.markers, args.dropped, verdict))
    return 0


def _pose_json(p: Located) -> dict[str, Any]:
    pose = p.pose
    return {
        "id": p.known.id,
        "x": None if pose is None else round(pose.x, 3),
        "y": None if pose is None else round(pose.y, 3),
        "angle": None if pose is None else round(pose.angle, 3),
        "seen": p.seen,
    }


def _explain(
    located: list[Located], markers: tuple[int, ...], dropped: str | None,
    verdict: CameraVerdict | None,
) -> str:
    lines = [f"markers found: {', '.join(str(m) for m in markers)}"]
    for p in located:
        name = f"{p.known.id} ({p.known.color} {p.known.shape})"
        if p.seen and p.pose is not None:
            sx, sy, sa = p.sigma
            lines.append(
                f"{name}: x {p.pose.x:.2f} y {p.pose.y:.2f} angle {p.pose.angle:.1f} "
                f"(± {sx:.2f} mm, {sy:.2f} mm, {sa:.1f}°)"
            )
        else:
            lines.append(f"{name}: not seen")
    if dropped is not None:
        if verdict is None:
            lines.append(f"{dropped}: not seen, no verdict")
        else:
            sure = "sure" if verdict.sure else f"not sure ({'; '.join(verdict.doubts)})"
            lines.append(f"{verdict.verdict.explain()} [{sure}]")
    return "\n".join(lines)
