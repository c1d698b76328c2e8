"""The camera's eye: how well it locates pieces and referees drops, and how fast.

Plays seeded simulated games, takes a look with the virtual camera after every drop and
locates every piece (``simulator/camera_eval.py``: priors are the true poses before the
drop moved by the model's error, 0.5 mm and 1 degree; the dropped piece has none). Prints
per noise profile: pieces within 0.5 mm of their true outline, unseen pieces, the error's
median and p99, how well the reported standard deviations match the errors (1.0 is
exact, larger is overconfident), the dropped piece's verdicts (sure and right, wrong,
unsure, not seen), and a look's CPU time (frames given to verdict-ready poses).

Options: ``--scenes N`` (default 108, three games), ``--seed S`` (1), ``--profiles
clean,realistic,harsh``; the issue's figures: ``--scenes 1000 --profiles realistic``.
Then the time of one look at a full board (36 pieces, 3 frames), median CPU time of 9,
with the dropped piece searched for and with every piece from its prior, and the process's
peak memory.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time

import cv2

from firmware_host.camera.locate import Known, Locator
from firmware_host.camera.scene import LookFrames
from firmware_host.config.board import EdgeFace
from firmware_host.config.noise import load_profile
from firmware_host.config.table import load_table
from simulator.camera_eval import evaluate_camera, scenes_of
from simulator.virtual_camera import VirtualCamera


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks camera")
    parser.add_argument("--scenes", type=int, default=108)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profiles", default="clean,realistic,harsh")
    args = parser.parse_args(sys.argv[1:])
    cv2.setNumThreads(1)
    table = load_table()
    for name in args.profiles.split(","):
        start = time.perf_counter()
        tally = evaluate_camera(table, load_profile(name), args.scenes, args.seed).to_json()
        by_shape = ", ".join(
            f"{shape} {z:.2f}" for shape, z in tally["sigma_calibration_by_shape"].items()
        )
        print(
            f"{name}: {tally['scenes']} scenes, {tally['pieces']} pieces: "
            f"{100 * tally['within_share']:.2f} % within 0.5 mm, {tally['unseen']} unseen, "
            f"error p50 {tally['error_mm_p50']:.3f} mm p99 {tally['error_mm_p99']:.3f} mm, "
            f"sigma calibration {tally['sigma_calibration']:.2f} ({by_shape}); verdicts: "
            f"{tally['sure_right']} sure and right, {tally['wrong']} wrong, "
            f"{tally['unsure']} unsure, {tally['no_verdict']} not seen, "
            f"{tally['failed_looks']} looks failed; look p50 {tally['look_ms_p50']:.0f} ms "
            f"p95 {tally['look_ms_p95']:.0f} ms ({time.perf_counter() - start:.0f} s)"
        )
    full_board(table)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (RSS) of this process: {peak:.0f} MB")


def full_board(table) -> None:
    """The time of one look at a whole game's 36 pieces (realistic frames), CPU time: with
    the dropped piece searched for, and with every piece given its prior (the dropped one
    its true pose: the eye's usual look, no search)."""
    profile = load_profile("realistic")
    *_, (before, after) = scenes_of(table, profile, 36, 2)
    frames = VirtualCamera(table, profile, 2).look(after, EdgeFace.COLOR)
    known = [Known(p.id, p.color, p.shape, p.pose) for p in before]
    dropped = after[-1]
    looks = {
        "": [*known, Known(dropped.id, dropped.color, dropped.shape)],
        ", every piece from its prior": [
            *known, Known(dropped.id, dropped.color, dropped.shape, dropped.pose)
        ],
    }
    locator = Locator(table.board, table.camera)
    for name, pieces in looks.items():
        times = []
        for _ in range(9):
            start = time.process_time()
            look = LookFrames(table.camera.markers, frames, ["a", "b", "c"])
            located = locator.locate(look, pieces)
            times.append((time.process_time() - start) * 1000)
        seen = sum(p.seen for p in located)
        print(
            f"one look at a full board ({len(pieces)} pieces, {len(frames)} frames, {seen} seen"
            f"){name}: median {statistics.median(times):.0f} ms, fastest {min(times):.0f} ms "
            "(CPU time)"
        )
