"""The camera evaluation's figures (``python -m benchmarks camera``)."""

from __future__ import annotations

import math

import numpy as np

from firmware_host.config.noise import load_profile
from firmware_host.config.table import load_table
from simulator.camera_eval import CameraTally, evaluate_camera


def test_the_sigma_calibration_is_given_for_every_shape_and_all_pieces() -> None:
    tally = CameraTally(z_by_shape={"circle": [1.0, -1.0], "square": [3.0, -3.0]})
    figures = tally.to_json()
    assert figures["sigma_calibration_by_shape"] == {"circle": 1.0, "square": 3.0}
    assert math.isclose(figures["sigma_calibration"], float(np.std([1, -1, 3, -3])))


def test_an_evaluation_counts_each_located_piece_under_its_own_shape() -> None:
    table = load_table()
    tally = evaluate_camera(table, load_profile("clean"), 4, 1)
    counted = sum(len(z) for z in tally.z_by_shape.values())
    assert counted == 2 * (tally.pieces - tally.unseen - sum(e > 2.0 for e in tally.errors_mm)) > 0
    assert set(tally.z_by_shape) <= {"circle", "square", "diamond", "triangle"}
