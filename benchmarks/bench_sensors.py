"""Sensor forward models: predicting every strip reading of a full board (the referee's eye
does it for each candidate), the entry gate from a drop's trajectory, and the true world.

Full boards are the final boards of GAMES games of 36 drops (``tabletop simulate``'s drops).
"""

from __future__ import annotations

import random
import statistics
import time

from firmware_host.config.noise import load_profile
from firmware_host.config.table import load_table
from firmware_host.model import Drop, World, load_params
from firmware_host.model.supply import GAME_DROPS, play, random_drop, supply_piece
from firmware_host.sensors import EntryGate, StripModel, Trajectory
from simulator.true_world import TrueWorld

GAMES = 8
REPEATS = 300
SEED = 2024


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


def _timed(call, repeats: int) -> list[float]:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return times


def _near_a_wall(strips: StripModel, piece) -> bool:
    left, bottom, right, _ = strips.outlines.bounds(
        piece.shape, piece.pose.x, piece.pose.y, piece.pose.angle
    )
    threshold = strips.table.config.edge_strip.threshold
    return min(left, bottom) <= threshold or right >= strips.table.board.width - threshold


def bench_strips(table, params) -> None:
    boards = [d.pieces for d in play(table.board, params, GAMES * GAME_DROPS, SEED)]
    full = boards[GAME_DROPS - 1 :: GAME_DROPS]
    strips = StripModel(table)
    times: list[float] = []
    for pieces in full:
        assert len(pieces) == GAME_DROPS
        times += _timed(lambda pieces=pieces: strips.snapshot(pieces), REPEATS)
    print(
        f"all strip readings (curtain, top gate, edge strip) of a full board of {GAME_DROPS} "
        f"pieces, {len(full)} boards x {REPEATS}: median {statistics.median(times) * 1e6:.0f} us, "
        f"p95 {_p95(times) * 1e6:.0f} us"
    )
    near = [sum(_near_a_wall(strips, p) for p in pieces) for pieces in full]
    print(f"  pieces near a wall (their elements worked out): {min(near)}..{max(near)} per board")


def bench_entry_gate(table, params) -> None:
    gate = EntryGate(table)
    world = World(table.board, params)
    rng = random.Random(SEED)
    times = []
    for k in range(GAME_DROPS):
        color, shape = supply_piece(k)
        drop = random_drop(world, color, shape, rng)
        # let go above the entry gate's row, as a player does
        drop = Drop(color, shape, drop.x, drop.y + table.config.entry_gate.height, drop.angle)
        trajectory = Trajectory()
        world.drop(drop, observer=trajectory.record)
        times += _timed(lambda shape=shape, t=trajectory: gate.cuts(shape, t), 20)
    print(
        f"entry-gate cuts from a drop's trajectory, {GAME_DROPS} drops x 20: "
        f"median {statistics.median(times) * 1e6:.0f} us, p95 {_p95(times) * 1e6:.0f} us"
    )


def bench_true_world(table) -> None:
    for name in ("clean", "realistic", "harsh"):
        world = TrueWorld(table, load_profile(name), SEED)
        rng = random.Random(SEED)
        times = []
        for k in range(GAME_DROPS * 2):
            if k == GAME_DROPS:
                world.clear()
            color, shape = supply_piece(k)
            start = time.perf_counter()
            world.drop(color, shape, rng.uniform(40, 260), rng.uniform(0, 360))
            times.append(time.perf_counter() - start)
        print(
            f"true world ({name}), drop + readings, {len(times)} drops: "
            f"median {statistics.median(times) * 1e3:.1f} ms, p95 {_p95(times) * 1e3:.1f} ms"
        )


def main() -> None:
    table = load_table()
    params = load_params()
    bench_strips(table, params)
    bench_entry_gate(table, params)
    bench_true_world(table)


if __name__ == "__main__":
    main()
