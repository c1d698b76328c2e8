"""The perfect eye's bound: what ANY eye could do with the table's sensors (docs/eye-bound.md).

``python -m benchmarks eye_bound [--drops N] [--seed S] [--samples K] [--profiles a,b]``
runs :func:`simulator.bound.measure` per profile and prints, for level A (spin known) and
level B (spin drawn), with the reference sensors and with a pane grid added: the share of
drops where the perfect eye is certain, the distribution of ``p_max``, the share whose MAP
verdict is right, the trade-off between the asked share and the wrong share (expected
and realised), the least asked share for issue 7's 0.5 % wrong, and the same at K/2
samples (if those move a lot, K is too small). The defaults are a quick run (36 drops per
profile); the figures of docs/eye-bound.md come from the commands given there.
"""

from __future__ import annotations

import argparse
import sys
import time

from firmware_host.config.noise import load_profile
from firmware_host.config.table import load_table
from simulator.bound import (
    ASKED_SHARES,
    P_LEVELS,
    SAMPLES,
    WRONG_TARGET,
    Column,
    Level,
    ProfileBound,
    Sensors,
    Tradeoff,
    measure,
)

DROPS = 36
SEED = 1
PROFILES = ("clean", "realistic", "harsh")


def _pct(share: float) -> str:
    return f"{100 * share:6.1f}%"


def report(bound: ProfileBound) -> str:
    """The printed figures of ``bound``."""
    lines = [
        f"{bound.profile}: {bound.drops} drops, seed {bound.seed}, {bound.samples} samples "
        "(level A: spin known, B: spin drawn)",
        "column          certain "
        + " ".join(f"p>={p:<5}" for p in P_LEVELS)
        + "  MAP right  no sample  mean ESS",
    ]
    main = [bound.column(level, sensors) for level in Level for sensors in Sensors]
    for column in main:
        f = column.figures
        lines.append(
            f"{_name(column):<15} {_pct(f.certain)} "
            + " ".join(f"{_pct(f.at_least[p]):>8}" for p in P_LEVELS)
            + f"    {_pct(f.right)} {f.inconsistent:10d} {f.effective:9.1f}"
        )
    lines.append(
        "trade-off: asking the lowest p_max, wrong share expected / realised; least asked "
        f"for wrong <= {100 * WRONG_TARGET:g} %"
    )
    lines.append(
        "column         "
        + "".join(f"{f'asked {100 * q:g} %':>17}" for q in ASKED_SHARES)
        + "   least asked"
    )
    for column in main:
        f = column.figures
        cells = "".join(
            f"{100 * row.expected_wrong:8.2f}/{100 * row.realised_wrong:5.2f}%" for row in f.rows
        )
        lines.append(
            f"{_name(column):<15}{cells}  {_pct(f.least_expected)} /{_pct(f.least_realised)}"
        )
    half = bound.samples // 2
    lines.append(
        f"sampling check, K={bound.samples} against K={half}: MAP right; wrong at 3 % asked, "
        "expected and realised; least asked, expected and realised"
    )
    for column in main:
        other = bound.column(column.level, column.sensors, half).figures
        f = column.figures
        three, other_three = _at(f.rows, 0.03), _at(other.rows, 0.03)
        lines.append(
            f"{_name(column):<15} {_pct(f.right)} /{_pct(other.right)}   "
            f"{_pct(three.expected_wrong)} /{_pct(other_three.expected_wrong)}   "
            f"{_pct(three.realised_wrong)} /{_pct(other_three.realised_wrong)}   "
            f"{_pct(f.least_expected)} /{_pct(other.least_expected)}   "
            f"{_pct(f.least_realised)} /{_pct(other.least_realised)}"
        )
    return "\n".join(lines)


def _name(column: Column) -> str:
    return f"{column.level} {column.sensors}"


def _at(rows: tuple[Tradeoff, ...], asked: float) -> Tradeoff:
    return next(row for row in rows if row.asked == asked)


def run(argv: list[str]) -> list[ProfileBound]:
    """Measure and print the bound for the profiles ``argv`` asks for."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks eye_bound")
    parser.add_argument("--drops", type=int, default=DROPS)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--samples", type=int, default=SAMPLES)
    parser.add_argument("--profiles", default=",".join(PROFILES))
    args = parser.parse_args(argv)
    if args.drops < 1 or args.samples < 2:
        parser.error("--drops must be at least 1 and --samples at least 2")
    table = load_table()
    bounds = []
    for name in args.profiles.split(","):
        started = time.perf_counter()
        bound = measure(table, load_profile(name), name, args.drops, args.seed, args.samples)
        print(report(bound))
        print(f"({time.perf_counter() - started:.0f} s)", flush=True)
        bounds.append(bound)
    return bounds


def main() -> None:
    """Print the bound (options from the command line)."""
    run(sys.argv[1:])


if __name__ == "__main__":
    main()
