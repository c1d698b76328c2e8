"""The locator's choices between fits: which fits show a piece, and which place it takes."""

import numpy as np

from firmware_host.camera.locate import (
    MIN_FOUND,
    PARTIAL_FOUND,
    PARTIAL_RMS_MM,
    Known,
    Locator,
)
from firmware_host.camera.outline import OutlineFit
from firmware_host.config.table import load_table
from firmware_host.rules.pieces import Color, Pose, Shape

TABLE = load_table()
assert TABLE.camera is not None
LOCATOR = Locator(TABLE.board, TABLE.camera)


def fit(color: Color, at: Pose, found: float = 1.0, rms: float = 0.1) -> OutlineFit:
    """A fit at ``at`` with a face of ``color``."""
    return OutlineFit(at, np.eye(3) * 0.01, found, rms, LOCATOR.colours.of(color))


def test_a_partial_fit_counts_only_with_tight_residuals():
    blue = Known("p6", Color.BLUE, Shape.SQUARE)
    at = Pose(132.0, 18.0, 0.0)
    part = (MIN_FOUND + PARTIAL_FOUND) / 2
    # a square fitted on a circle of its colour: half the outline, loose residuals
    assert not LOCATOR._shows(blue, fit(Color.BLUE, at, part, PARTIAL_RMS_MM + 0.15), None)
    assert LOCATOR._shows(blue, fit(Color.BLUE, at, part, PARTIAL_RMS_MM - 0.1), None)
    assert LOCATOR._shows(blue, fit(Color.BLUE, at, PARTIAL_FOUND + 0.1, 0.4), None)


def test_a_piece_waits_for_what_holds_it_before_taking_a_lesser_place():
    circle = Known("p1", Color.RED, Shape.CIRCLE)
    square = Known("p2", Color.BLUE, Shape.SQUARE)
    on_circle = Pose(100.0, 18.0 + 18.0 + 17.0 + 0.5, 0.0)  # held up by the circle only
    on_floor = Pose(200.0, 17.0, 0.0)
    options = [
        (2.0, square, fit(Color.BLUE, on_circle)),
        (1.9, circle, fit(Color.RED, Pose(100.0, 18.0, 0.0))),
        (1.5, square, fit(Color.BLUE, on_floor)),
    ]
    placed = {p.known.id: p.pose for p in LOCATOR._place(options, [])}
    assert placed["p2"] == on_circle
    assert placed["p1"] == Pose(100.0, 18.0, 0.0)


def test_a_piece_nothing_holds_at_its_best_place_takes_the_next():
    square = Known("p2", Color.BLUE, Shape.SQUARE)
    floating = Pose(100.0, 150.0, 0.0)
    on_floor = Pose(200.0, 17.0, 0.0)
    options = [(2.0, square, fit(Color.BLUE, floating)), (1.5, square, fit(Color.BLUE, on_floor))]
    placed = LOCATOR._place(options, [])
    assert [p.pose for p in placed] == [on_floor]
