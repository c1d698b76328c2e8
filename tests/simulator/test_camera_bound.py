"""The ideal camera's bound: noise as asked for, and the referee's rule applied to it."""

from __future__ import annotations

import random
import statistics

from firmware_host.config.noise import load_profile
from firmware_host.config.table import load_table
from simulator.camera_bound import DEGREES_PER_MM, located_with_noise, measure
from simulator.camera_eval import scenes_of


def test_the_noise_has_the_deviation_it_reports() -> None:
    table = load_table()
    *_, (_, after) = scenes_of(table, load_profile("clean"), 30, 3)
    offsets = []
    for k in range(40):
        located = located_with_noise(after, 0.1, random.Random(k))
        for truth, found in zip(after, located, strict=True):
            assert found.seen and found.sigma == (0.1, 0.1, DEGREES_PER_MM * 0.1)
            offsets.append(found.pose.x - truth.pose.x)
    assert 0.09 < statistics.pstdev(offsets) < 0.11


def test_a_near_perfect_camera_decides_every_drop_and_rightly() -> None:
    rows = measure(load_table(), load_profile("realistic"), 24, 5, sigmas_mm=(1e-6,), rules=(3.0,))
    assert [(r.scenes, r.unsure, r.wrong) for r in rows] == [(24, 0, 0)]


def test_a_coarse_camera_must_ask_and_a_looser_rule_asks_less() -> None:
    rows = measure(
        load_table(), load_profile("realistic"), 24, 5, sigmas_mm=(1.0,), rules=(1.0, 3.0)
    )
    loose, strict = rows
    assert strict.unsure > loose.unsure > 0
    assert strict.unsure_share == strict.unsure / 24

