"""The virtual camera's renderer: one 1600x1200 frame of a full board (36 pieces).

The pieces are one game of the true world (clean profile, seed 3); per profile, a view
and a look's effects are drawn (seed 5) and the same frame rendered 15 times on one
OpenCV thread; the figures are the median and the fastest render, in ms. Then the
virtual camera's looks of three frames (realistic, seed 5: the scene composed once, each
frame exposed), the median of 8.
"""

from __future__ import annotations

import statistics
import time

import cv2
import numpy as np

from firmware_host.config.noise import load_profile
from firmware_host.config.table import load_table
from simulator.camera_render import draw_effects, draw_view, render
from simulator.evaluate import turns
from simulator.true_world import TrueWorld
from simulator.virtual_camera import VirtualCamera

RENDERS = 15


def main() -> None:
    """Print the figures."""
    cv2.setNumThreads(1)
    table = load_table()
    world = TrueWorld(table, load_profile("clean"), 3)
    for number, color, shape, x, angle in turns(table, 36, 3):
        world.drop(color, shape, x, angle, f"p{number}")
    for name in ("clean", "realistic", "harsh"):
        noise = load_profile(name).camera
        rng = np.random.default_rng(5)
        view = draw_view(table.board, table.camera, noise.pose, rng)
        effects = draw_effects(noise, rng, 7, table.board)
        times = []
        for _ in range(RENDERS):
            start = time.perf_counter()
            render(table.board, table.camera, world.pieces, view, effects, rng)
            times.append(1000 * (time.perf_counter() - start))
        print(f"{name:9}: {len(world.pieces)} pieces, {view.px_per_mm((150.0, 150.0)):.2f} "
              f"px/mm: median {statistics.median(times):.1f} ms, fastest {min(times):.1f} ms")
    camera = VirtualCamera(table, load_profile("realistic"), 5)
    times = []
    for _ in range(8):
        start = time.perf_counter()
        camera.look(world.pieces, frames=3)
        times.append(1000 * (time.perf_counter() - start))
    print(f"look     : 3 frames (realistic): median {statistics.median(times):.1f} ms")
