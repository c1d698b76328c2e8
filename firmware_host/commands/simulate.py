"""``tabletop simulate --drops N --seed S [--json]``: drop shapes into the physics model.

Drops N shapes from a four-player supply (order and randomness:
:mod:`firmware_host.model.supply`; a new board every 36 drops) and prints every drop. With
``--json``: ``{"seed": S, "drops": [{"dropped": POSE, "pieces": [POSE, ...], "settled": bool,
"sim_time_s": float}, ...], "wall_time_s": float}``, POSE = ``{"id", "color", "shape", "x",
"y", "angle"}`` in mm and degrees; ``pieces`` holds every piece on the board after the drop
settled, the dropped one included. ``--positions DIR`` also writes each drop's state as a
position file for ``tabletop judge`` (``DIR/drop-0001.yaml``, ...).
"""

from __future__ import annotations

import argparse
import json
import time
from gettext import ngettext
from pathlib import Path
from typing import Any

from firmware_host.commands.values import count_or_zero
from firmware_host.config.board import EdgeFace, load_board
from firmware_host.errors import InputError
from firmware_host.model.params import load_params
from firmware_host.model.position_file import pose_json, write_position
from firmware_host.model.supply import GAME_DROPS, SimulatedDrop, play


def register(subparsers: Any) -> None:
    """Add the ``simulate`` command."""
    parser = subparsers.add_parser(
        "simulate", help="drop random shapes into the physics model and print where they rest"
    )
    parser.add_argument("--drops", type=count_or_zero, default=36, metavar="N", help="drops (36)")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (0)")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument("--board", metavar="FILE", help="a board file instead of the reference")
    parser.add_argument(
        "--physics", metavar="FILE", help="a physics file instead of config/physics/host.yaml"
    )
    parser.add_argument(
        "--positions", metavar="DIR", help="also write each drop's state as a position file"
    )
    parser.add_argument(
        "--edges",
        choices=[face.value for face in EdgeFace],
        default=EdgeFace.COLOR.value,
        help="the edges face written into position files (color)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Simulate and print; a bad board or physics file raises (exit status 2)."""
    board = load_board(args.board)
    params = load_params(args.physics)
    folder = _positions_folder(args.positions)
    drops: list[dict[str, Any]] = []
    simulated = 0.0
    start = time.perf_counter()
    for sim in play(board, params, args.drops, args.seed):
        simulated += sim.result.sim_time_s
        if folder is not None:
            write_position(
                folder / f"drop-{sim.number:04d}.yaml",
                sim.pieces,
                sim.result.piece.id,
                EdgeFace(args.edges),
            )
        if args.json:
            drops.append(drop_json(sim))
        else:
            print(describe(sim), flush=True)
    wall = time.perf_counter() - start
    if args.json:
        print(json.dumps({"seed": args.seed, "drops": drops, "wall_time_s": wall}))
    else:
        factor = f" ({simulated / wall:.0f}x real time)" if wall > 0 and simulated > 0 else ""
        drops_text = ngettext("{n} drop", "{n} drops", args.drops).format(n=args.drops)
        print(f"{drops_text}: {simulated:.1f} s simulated in {wall:.2f} s{factor}")
    return 0


def _positions_folder(name: str | None) -> Path | None:
    if name is None:
        return None
    folder = Path(name)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(name, "", f"cannot create the folder ({exc.strerror})") from None
    return folder


def drop_json(sim: SimulatedDrop) -> dict[str, Any]:
    """One drop as ``--json`` prints it."""
    return {
        "dropped": pose_json(sim.result.piece),
        "pieces": [pose_json(p) for p in sim.pieces],
        "settled": sim.result.settled,
        "sim_time_s": sim.result.sim_time_s,
    }


def describe(sim: SimulatedDrop) -> str:
    """One drop in plain words."""
    piece = sim.result.piece
    pose = piece.pose
    head = f"game {sim.game}, empty board\n" if (sim.number - 1) % GAME_DROPS == 0 else ""
    outcome = (
        f"settled after {sim.result.sim_time_s:.2f} s"
        if sim.result.settled
        else f"did NOT settle within {sim.result.sim_time_s:.2f} s"
    )
    count = len(sim.pieces)
    return (
        f"{head}drop {sim.number} ({piece.id}): {piece.describe()} let go at "
        f"x={sim.drop.x:.1f}, angle {sim.drop.angle:.0f} deg -> rests at "
        f"({pose.x:.1f}, {pose.y:.1f}), angle {pose.angle:.1f} deg; {outcome}; "
        f"{count} piece{'s' if count != 1 else ''} on the board"
    )
