"""The perfect eye that carries its own board: how far the strips alone can track a pile
(docs/eye-bound.md, "Carrying its own board").

``python -m benchmarks eye_track [--drops N] [--seed S] [--samples K] [--particles P]
[--ask-below A,B] [--profiles a,b] [--release-mm D]`` runs
:func:`simulator.track_bound.track` per profile and per ``ask_below`` and prints the shares
of drops asked (staff calls included), called to staff and decided wrong, and of drops
whose MAP verdict was the true one, beside the camera-less eye's target (wrong at most
1 % with at most 25 % asked). ``--release-mm`` moves each landing's release x by a
Gaussian of that deviation (a release known only that well). The defaults are a quick run
(36 drops); the figures of docs/eye-bound.md come from the commands given there.
"""

from __future__ import annotations

import argparse
import sys
import time

from firmware_host.config.noise import load_profile
from firmware_host.config.table import load_table
from simulator.track_bound import TrackFigures, track

DROPS = 36
SEED = 1
SAMPLES = 64
PARTICLES = 32
ASK_BELOW = (0.9, 0.99)
PROFILES = ("clean", "realistic")


def report(profile: str, found: TrackFigures, seconds: float) -> str:
    """One printed line of ``found``."""
    share = 100.0 / found.drops

    def pct(count: int) -> str:
        return f"{share * count:5.1f} %"

    return (
        f"{profile:<10} {found.drops:5d} drops  K {found.samples:4d}  P {found.particles:3d}  "
        f"release {found.release_mm:g} mm  asking below {found.ask_below:<6g} "
        f"asked {pct(found.asked)} (staff {pct(found.staff)})"
        f"  wrong {pct(found.wrong)}  MAP right {pct(found.map_right)}  ({seconds:.0f} s)"
    )


def run(argv: list[str]) -> list[TrackFigures]:
    """Track and print the profiles and thresholds ``argv`` asks for."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks eye_track")
    parser.add_argument("--drops", type=int, default=DROPS)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--samples", type=int, default=SAMPLES)
    parser.add_argument("--particles", type=int, default=PARTICLES)
    parser.add_argument("--ask-below", default=",".join(f"{a:g}" for a in ASK_BELOW))
    parser.add_argument("--profiles", default=",".join(PROFILES))
    parser.add_argument("--release-mm", type=float, default=0.0)
    args = parser.parse_args(argv)
    try:
        thresholds = [float(a) for a in args.ask_below.split(",")]
    except ValueError:
        parser.error(f"--ask-below: {args.ask_below!r} is not a list of numbers")
    if args.drops < 1 or args.samples < 1 or args.particles < 1:
        parser.error("--drops, --samples and --particles must be at least 1")
    if not args.release_mm >= 0.0:
        parser.error("--release-mm must be at least 0")
    if not all(0.0 <= a <= 1.0 for a in thresholds):
        parser.error("--ask-below: each share must lie between 0 and 1")
    table = load_table()
    print("the camera-less eye's target: wrong at most 1 % with at most 25 % asked")
    found = []
    for name in args.profiles.split(","):
        profile = load_profile(name)
        for ask_below in thresholds:
            started = time.perf_counter()
            figures = track(
                table,
                profile,
                args.drops,
                args.seed,
                args.samples,
                args.particles,
                ask_below,
                args.release_mm,
            )
            print(report(name, figures, time.perf_counter() - started), flush=True)
            found.append(figures)
    return found


def main() -> None:
    """Print the tracker's figures (options from the command line)."""
    run(sys.argv[1:])


if __name__ == "__main__":
    main()
