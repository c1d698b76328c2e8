"""Where the camera's precision goes: the edge finder's offsets at the true outlines
(``simulator/edge_error.py``).

``python -m benchmarks camera_edges [--scenes N] [--seed S] [--profiles clean,realistic]``
prints, per profile and per context (what lies beyond a profile: open background, another
piece at a contact, across a narrow gap under 1.5 mm or a wider one, a wall; and whether
the piece's rim shows there): the profiles, the share that found an edge, their median
offset and spread, and the spread of each side's mean offset, which is what moves a pose;
then the pose error per axis that the fit's step from the truth takes from them. The
docs' figures: ``--scenes 100`` (docs/camera.md, "Where the precision goes").
"""

from __future__ import annotations

import argparse
import sys
import time

import cv2

from firmware_host.config.noise import load_profile
from firmware_host.config.table import load_table
from simulator.edge_error import measure


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks camera_edges")
    parser.add_argument("--scenes", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profiles", default="clean,realistic")
    args = parser.parse_args(sys.argv[1:])
    cv2.setNumThreads(1)
    table = load_table()
    for name in args.profiles.split(","):
        start = time.perf_counter()
        found = measure(table, load_profile(name), args.scenes, args.seed)
        x, y = found.pose_spread()
        print(
            f"{name}: {args.scenes} scenes, seed {args.seed}, {found.pieces} pieces; pose error "
            f"from the edges at the truth (1.48 MAD): x {x:.3f} mm, y {y:.3f} mm "
            f"({time.perf_counter() - start:.0f} s)"
        )
        print("  context             profiles  edge found  median    spread   sides' spread")
        for context in sorted(found.rows):
            row = found.rows[context]
            print(
                f"  {context:18s} {len(row.offsets):9d}  {100 * row.found_share:8.1f} %"
                f"  {row.median():+.3f}  {row.spread():7.3f}  {row.side_spread():9.3f}"
            )
