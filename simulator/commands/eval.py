"""``tabletop sim eval --drops N --seed S [--noise PROFILE] [--camera on|off] [--json]``.

Plays N drops on an in-process virtual hub; the host gets them over a pty as sensor
frames only, through the drop collector (:mod:`simulator.wire_drops`), and the virtual
camera's frames of each settled board (:mod:`simulator.eval_camera`) when the table has a
camera and ``--camera`` is ``on`` (the default); the referee's eye judges each from those
(and the piece tag), the questions answered truthfully; every decided verdict is compared
with ``judge`` on the true final poses (:mod:`simulator.evaluate`). Prints the counts and
the verdict latency; with ``--json`` one object: ``drops``, ``agree``, ``asked``,
``wrong``, ``staff``, ``verdict_ms_p50``, ``verdict_ms_p95`` (``staff`` counts drops
handed to staff), the eye's early part's figures, the model's drift and the camera's
(:meth:`simulator.evaluate.Tally.to_json`). In text, a second line splits the outcomes
by how far the host's model had drifted from the true board before each drop (the
evaluator's side: :meth:`~simulator.evaluate.Tally.drift_line`).
"""

from __future__ import annotations

import argparse
import json
from gettext import ngettext
from typing import Any

from firmware_host.commands.values import count
from firmware_host.config.noise import load_profile
from firmware_host.config.table import load_table
from firmware_host.eye import load_eye_config
from firmware_host.model.params import load_params


def register(sim_subparsers: Any) -> None:
    """Add ``eval`` to the ``sim`` command group."""
    parser = sim_subparsers.add_parser(
        "eval", help="referee simulated drops from their readings and compare with the truth"
    )
    parser.add_argument("--drops", type=count, default=36, metavar="N", help="drops (36)")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (0)")
    parser.add_argument(
        "--noise", default="realistic", metavar="PROFILE", help="noise profile name or file"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--table", metavar="FILE", help="a table file instead of the reference")
    parser.add_argument("--eye", metavar="FILE", help="an eye file instead of the reference")
    parser.add_argument(
        "--camera",
        choices=("on", "off"),
        default="on",
        help="referee with the table's camera (on, the default, when the table has one) "
        "or with the strips and gates alone (off)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Evaluate and print; a bad profile, table or eye file raises (exit status 2)."""
    from simulator.eval_camera import EvalCamera
    from simulator.evaluate import evaluate
    from simulator.wire_drops import wire_drops

    table = load_table(args.table)
    profile = load_profile(args.noise)
    config = load_eye_config(args.eye)
    params = load_params()
    use_camera = args.camera == "on" and table.camera is not None
    camera = EvalCamera(table, profile, params, args.seed) if use_camera else None
    drops = wire_drops(table, profile, args.drops, args.seed)
    tally = evaluate(table, params, config, drops, args.seed, camera)
    figures = tally.to_json()
    if args.json:
        print(json.dumps(figures))
    else:
        n = tally.drops
        print(
            ngettext("{n} drop", "{n} drops", n).format(n=n)
            + f" ({args.noise}): agree {tally.agree} ({100 * tally.agree / n:.1f} %), "
            f"asked {tally.asked} ({100 * tally.asked / n:.1f} %), "
            f"wrong {tally.wrong} ({100 * tally.wrong / n:.1f} %), staff {tally.staff}; "
            f"verdict p50 {figures['verdict_ms_p50']} ms, p95 {figures['verdict_ms_p95']} ms; "
            f"early part p50 {figures['early_ms_p50']} ms, p95 {figures['early_ms_p95']} ms "
            f"(lead p5 {figures['lead_ms_p5']} ms, overran {figures['early_overrun']}, "
            f"redone {figures['early_redone']})"
        )
        print(tally.drift_line())
        if camera is not None:
            print(
                f"camera: {tally.camera_looks} looks, {tally.camera_out} out, "
                f"{tally.camera_unseen} without the dropped piece, {tally.camera_judged} "
                f"judged by it; the dropped piece's pose error p50 "
                f"{figures['pose_error_mm_p50']} mm, p95 {figures['pose_error_mm_p95']} mm; "
                f"the model's drift p95 {figures['drift_mm_p95']} mm"
            )
    return 0
