"""``tabletop sim frames --scenes N --seed S [--noise PROFILE] --out DIR [--table FILE]``:
camera frames of simulated drops, with what the referee knows and the truth.

Plays seeded drops in the simulator's true world (a new board every 36, the intended drops
of :func:`simulator.evaluate.turns`) and takes one look of the virtual camera after each.
For scene ``k`` (from 1) it writes ``DIR/scene000k/``:

* ``frame0.png``, ``frame1.png``, ... (``--format jpg``: ``.jpg`` at quality 95): the
  look's frames (none while the camera is unplugged);
* ``pieces.yaml``: the input of ``tabletop camera look`` (DESIGN §5): ``edges``, and every
  piece on the board with its pose before this drop as its prior; the dropped piece
  without a pose;
* ``truth.yaml``: every piece's true final pose, the dropped id, the camera view
  (``focal``, ``principal``, ``rvec``, ``tvec`` as OpenCV's ``projectPoints`` takes them,
  the camera's ``eye`` in the board frame, ``tilt``, ``px_per_mm`` at the board's centre)
  and the look's faults.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import yaml

from firmware_host.config.board import EdgeFace
from firmware_host.config.noise import load_profile
from firmware_host.config.table import load_table
from firmware_host.errors import InputError
from firmware_host.games.dropit.rules.pieces import Piece

FORMATS = ("png", "jpg")


def register(sim_subparsers: Any) -> None:
    """Add ``frames`` to the ``sim`` command group."""
    parser = sim_subparsers.add_parser(
        "frames", help="write virtual camera frames of simulated drops, with their truth"
    )
    parser.add_argument("--scenes", metavar="N", help="how many drops to look at (required)")
    parser.add_argument("--seed", default="0", metavar="S", help="random seed (0)")
    parser.add_argument(
        "--noise", default="realistic", metavar="PROFILE", help="noise profile name or file"
    )
    parser.add_argument("--out", metavar="DIR", help="the folder to write to (required)")
    parser.add_argument("--table", metavar="FILE", help="a table file instead of the reference")
    parser.add_argument("--edges", default="color", metavar="FACE",
                        help="the edge pieces' face: color, shape or none (color)")
    parser.add_argument("--format", default="png", metavar="EXT", help="png or jpg (png)")
    parser.set_defaults(run=run)


def _whole(name: str, text: str | None, least: int | None) -> int:
    if text is None:
        raise InputError(name, "", "required")
    try:
        value = int(text)
    except ValueError:
        raise InputError(name, "", f"expected a whole number, got {text!r}") from None
    if least is not None and value < least:
        raise InputError(name, "", f"expected {least} or more, got {value}")
    return value


def _pose(piece: Piece) -> dict[str, Any]:
    pose = piece.pose
    return {"id": piece.id, "color": str(piece.color), "shape": str(piece.shape),
            "x": round(pose.x, 4), "y": round(pose.y, 4), "angle": round(pose.angle % 360, 4)}


def _dump(path: Path, data: dict[str, Any]) -> None:
    path.write_text(yaml.safe_dump(data, sort_keys=False, default_flow_style=None),
                    encoding="utf-8")


def run(args: argparse.Namespace) -> int:
    """Write the scenes; bad arguments or files raise :class:`InputError` (exit 2)."""
    import cv2

    from firmware_host.model.supply import GAME_DROPS
    from simulator.evaluate import turns
    from simulator.true_world import TrueWorld
    from simulator.virtual_camera import CameraUnavailable, VirtualCamera

    scenes = _whole("--scenes", args.scenes, 1)
    seed = _whole("--seed", args.seed, None)
    if args.format not in FORMATS:
        raise InputError("--format", "", f"expected png or jpg, got {args.format!r}")
    if args.edges not in {f.value for f in EdgeFace}:
        raise InputError("--edges", "", f"expected color, shape or none, got {args.edges!r}")
    if args.out is None:
        raise InputError("--out", "", "required (the folder to write the scenes to)")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise InputError(str(out), "", "exists and is not a folder")
    table = load_table(args.table)
    if table.camera is None:
        raise InputError(args.table or "table", "camera", "the table has no camera")
    profile = load_profile(args.noise)
    face = EdgeFace(args.edges)
    world = TrueWorld(table, profile, seed)
    camera = VirtualCamera(table, profile, seed)
    centre = (table.board.width / 2, table.board.height / 2)
    for number, color, shape, x, angle in turns(table, scenes, seed):
        if (number - 1) % GAME_DROPS == 0 and number > 1:
            world.clear()
        before = {p.id: p for p in world.pieces}
        dropped_id = f"p{number}"
        drop = world.drop(color, shape, x, angle, dropped_id)
        try:
            frames = camera.look(drop.pieces, face)
        except CameraUnavailable:
            frames = []
        folder = out / f"scene{number:04d}"
        folder.mkdir(parents=True, exist_ok=True)
        for i, frame in enumerate(frames):
            options = [cv2.IMWRITE_JPEG_QUALITY, 95] if args.format == "jpg" else []
            cv2.imwrite(str(folder / f"frame{i}.{args.format}"), frame, options)
        priors = [
            _pose(before[p.id]) if p.id in before
            else {"id": p.id, "color": str(p.color), "shape": str(p.shape)}
            for p in drop.pieces
        ]
        _dump(folder / "pieces.yaml", {"edges": face.value, "pieces": priors})
        plan = camera.plan
        _dump(folder / "truth.yaml", {
            "dropped": dropped_id,
            "pieces": [_pose(p) for p in drop.pieces],
            "frames": len(frames),
            "camera": camera.view.to_dict(centre),
            "faults": {
                "unplugged": not frames,
                "covered_marker": plan.covered_marker if plan and frames else None,
                "hand_frame": plan.hand_frame
                if plan and plan.hand_frame is not None and plan.hand_frame < len(frames)
                else None,
                "dropped_frame": bool(plan and plan.dropped_frame and frames),
            },
        })
    print(f"{scenes} scenes written to {out}")
    return 0
