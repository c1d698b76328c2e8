"""The calibration procedure: a jig session on the true world, the model's pose error,
and the fit that brings the host's physics closer to the board."""

from __future__ import annotations

from firmware_host.config.noise import load_profile
from firmware_host.config.table import load_table
from firmware_host.model import PhysicsParams, load_params
from firmware_host.model.params import PairValues, PaneDrag
from simulator.calibrate import fit as fit_params
from simulator.calibrate import pose_error, session
from simulator.true_world import TRUE_PARAMS

TABLE = load_table()
CLEAN = load_profile("clean")
TRUE = load_params(TRUE_PARAMS)
DRAG = ("pane_drag", "linear")
FRICTION = ("friction", "piece_piece")


def test_a_session_records_each_board_before_and_after_a_jig_drop() -> None:
    records = session(TABLE, CLEAN, drops=5, seed=4)
    assert records == session(TABLE, CLEAN, drops=5, seed=4)
    for k, record in enumerate(records):
        assert len(record.before) == k and len(record.after) == k + 1
        assert record.after[-1].color is record.drop.color
        assert record.after[-1].shape is record.drop.shape
        if k:
            assert record.before == records[k - 1].after


def test_the_boards_own_physics_reproduce_a_clean_session_exactly() -> None:
    records = session(TABLE, CLEAN, drops=8, seed=4)
    assert pose_error(TABLE.board, TRUE, records) < 1e-9
    assert pose_error(TABLE.board, first_guesses(), records) > 0.2
    assert pose_error(TABLE.board, load_params(), records) > 0.2
    assert fit_params(TABLE.board, TRUE, records, knobs=(DRAG,), rounds=1) == TRUE


def test_the_fit_lowers_the_models_error_on_a_realistic_session() -> None:
    records = session(TABLE, load_profile("realistic"), drops=12, seed=5)
    guess = first_guesses()
    fitted = fit_params(TABLE.board, guess, records, knobs=(DRAG, FRICTION), rounds=1)
    assert fitted != guess
    assert pose_error(TABLE.board, fitted, records) < pose_error(TABLE.board, guess, records)


def first_guesses() -> PhysicsParams:
    """The host's physics before it was calibrated (docs/eye.md)."""
    host = load_params()
    return host.model_copy(
        update={
            "friction": PairValues(piece_piece=0.5, piece_wall=0.5),
            "elasticity": PairValues(piece_piece=0.2, piece_wall=0.2),
            "pane_drag": PaneDrag(linear=200.0, angular=460.0),
            "rolling_resistance": 0.02,
        }
    )
