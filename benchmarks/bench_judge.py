"""How long ``judge`` takes for one landing among a board full of pieces."""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from firmware_host.config.board import load_board
from firmware_host.games.dropit.rules.landing import judge
from firmware_host.games.dropit.rules.position import load_position

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    """Print the median and p95 time of one judge call on the worked example."""
    board = load_board()
    position = load_position(ROOT / "examples/positions/worked_example.yaml")
    times = []
    for _ in range(2000):
        start = time.perf_counter()
        judge(board, position)
        times.append(time.perf_counter() - start)
    times.sort()
    print(
        f"judge (worked example): median {statistics.median(times) * 1e6:.0f} us, "
        f"p95 {times[int(len(times) * 0.95)] * 1e6:.0f} us over {len(times)} calls"
    )
