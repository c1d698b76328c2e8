"""The edge finder measured at the true outlines: contexts, sides and the pose error."""

from __future__ import annotations

import numpy as np

from firmware_host.config.noise import load_profile
from firmware_host.config.table import load_table
from simulator.edge_error import _beyond, _contexts, measure


def test_a_profile_is_sorted_by_what_lies_beyond_it_and_whether_a_rim_shows() -> None:
    square = np.array([[10.0, 0.0], [20.0, 0.0], [20.0, 10.0], [10.0, 10.0]])
    points = np.array([[9.0, 5.0], [0.0, 50.0], [9.9, 5.0], [7.0, 5.0]])
    beyond = _beyond(points, [square])
    assert np.allclose(beyond[[0, 2, 3]], [1.0, 0.1, 3.0]) and np.isinf(beyond[1])
    wall = np.array([50.0, 50.0, 50.0, 2.0])
    rim = np.array([0.5, 0.0, 0.0, 0.0])
    assert _contexts(beyond, wall, rim).tolist() == [
        "narrow gap, rim", "open", "contact", "gap"
    ]
    assert _contexts(np.array([np.inf]), np.array([2.0]), np.array([0.0])).tolist() == ["wall"]


def test_on_clean_frames_the_edges_lie_on_the_true_outlines() -> None:
    """Clean frames: an open side's edge within a tenth of a millimetre of the truth, the
    sides' errors a few hundredths, the poses within 0.06 mm per axis."""
    found = measure(load_table(), load_profile("clean"), scenes=6, seed=2)
    open_side = found.rows["open"]
    assert open_side.found_share > 0.8
    assert abs(open_side.median()) < 0.1 and open_side.spread() < 0.1
    assert open_side.side_spread() < 0.05
    assert found.pieces >= 15 and max(found.pose_spread()) < 0.06
