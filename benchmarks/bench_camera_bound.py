"""The camera's bound: how many drops a referee must ask about with a camera of a given
precision, whatever else it does well (``simulator/camera_bound.py``).

``python -m benchmarks camera_bound [--scenes N] [--seed S] [--profile P]`` prints, for
each precision (one standard deviation per axis, mm) and each rule (how many deviations a
decision must stand clear of; the referee uses 3), the share of drops the ideal camera's
referee is unsure of and the share it decides wrongly. The docs' figures:
``--scenes 1000`` (realistic, seed 1).
"""

from __future__ import annotations

import argparse
import sys
import time

from firmware_host.camera.verdict import SIGMAS
from firmware_host.config.noise import load_profile
from firmware_host.config.table import load_table
from simulator.camera_bound import measure


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks camera_bound")
    parser.add_argument("--scenes", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", default="realistic")
    args = parser.parse_args(sys.argv[1:])
    start = time.perf_counter()
    rows = measure(load_table(), load_profile(args.profile), args.scenes, args.seed)
    print(
        f"{args.profile}, {args.scenes} scenes, seed {args.seed}: an ideal camera of each "
        f"precision, the referee's rule at 2-3 deviations (it uses {SIGMAS:g})"
    )
    print("precision   rule     unsure   wrong")
    for row in rows:
        print(
            f"{row.sigma_mm:6.2f} mm  {row.sigmas:4.1f} sd {100 * row.unsure_share:6.1f} %  "
            f"{100 * row.wrong_share:5.2f} %"
        )
    print(f"({time.perf_counter() - start:.0f} s)")
