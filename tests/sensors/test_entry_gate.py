"""The entry gate's forward model: which beams a falling piece cuts, and when; and the
trajectory that World.drop records for it without changing the drop."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.config.table import load_table
from firmware_host.games.dropit.rules.pieces import Color, Shape
from firmware_host.model import Drop, World, load_params
from firmware_host.sensors import EntryGate, Sample, Trajectory
from firmware_host.sensors.entry_gate import SWEEP_RESOLUTION_MM

TABLE = load_table()
PARAMS = load_params()
GATE = EntryGate(TABLE)
ROW = TABLE.entry_row
HALF_STEP_US = PARAMS.time_step / 2 * 1e6
"""Chipmunk moves a body before it speeds it up: a fall runs half a step behind the formula."""


def fall_time_us(distance: float) -> float:
    """Free fall from rest over ``distance`` mm, less the panes' drag, as the model runs it."""
    return math.sqrt(2 * distance / (PARAMS.gravity - PARAMS.pane_drag.linear)) * 1e6 + HALF_STEP_US


def dropped(shape: Shape, x: float, bottom_gap: float, angle: float = 0.0) -> Trajectory:
    """The trajectory of ``shape`` let go at rest with its lowest point ``bottom_gap`` above
    the entry row (for the shapes at angle 0 their lowest point is a flat side or the circle)."""
    low = {Shape.SQUARE: 17.0, Shape.CIRCLE: 18.0, Shape.TRIANGLE: 11.547, Shape.DIAMOND: 24.0}
    trajectory = Trajectory()
    world = World(TABLE.board, PARAMS)
    world.drop(
        Drop(Color.RED, shape, x, ROW + bottom_gap + low[shape], angle), observer=trajectory.record
    )
    return trajectory


def test_a_square_falling_at_x_cuts_the_beams_under_its_width_at_free_fall_times():
    cuts = GATE.cuts(Shape.SQUARE, dropped(Shape.SQUARE, 100.0, 20.0))
    # 83..117 covers the beams at 85, 95, 105, 115
    assert [cut.beam for cut in cuts] == [8, 9, 10, 11]
    for cut in cuts:
        assert cut.cut_us == pytest.approx(fall_time_us(20.0), abs=100)
        assert cut.clear_us == pytest.approx(fall_time_us(20.0 + 34.0), abs=100)


def test_a_circle_cuts_its_edge_beams_later_and_clears_them_sooner():
    cuts = {cut.beam: cut for cut in GATE.cuts(Shape.CIRCLE, dropped(Shape.CIRCLE, 150.0, 10.0))}
    # the circle spans 132..168: beams at 135, 145, 155, 165 (13..16)
    assert sorted(cuts) == [13, 14, 15, 16]
    middle, edge = cuts[14], cuts[13]  # 5 mm from the centre, and 15 mm
    assert middle.cut_us == cuts[15].cut_us
    assert edge.cut_us > middle.cut_us and edge.clear_us < middle.clear_us
    sag = 18.0 - math.sqrt(18.0**2 - 15.0**2)  # how far the edge beam's chord sits above the bottom
    assert edge.cut_us == pytest.approx(fall_time_us(10.0 + sag), abs=100)


def test_times_are_on_the_callers_clock():
    trajectory = dropped(Shape.SQUARE, 100.0, 20.0)
    plain = GATE.cuts(Shape.SQUARE, trajectory)
    shifted = GATE.cuts(Shape.SQUARE, trajectory, start_us=5_000_000)
    assert [c.cut_us + 5_000_000 for c in plain] == [c.cut_us for c in shifted]


def test_a_diamond_on_its_point_cuts_the_middle_beam_first():
    cuts = GATE.cuts(Shape.DIAMOND, dropped(Shape.DIAMOND, 155.0, 5.0))
    first = min(cuts, key=lambda c: c.cut_us)
    assert first.beam == 15  # the beam at x = 155, under the lowest point
    assert {c.beam for c in cuts} == {14, 15, 16}  # 139..171


def test_no_trajectory_and_a_piece_that_misses_the_row_cut_nothing():
    assert GATE.cuts(Shape.SQUARE, Trajectory()) == ()
    below = Trajectory([Sample(t / 100, 150.0, 100.0 - t, 0.0) for t in range(20)])
    assert GATE.cuts(Shape.SQUARE, below) == ()


def test_a_piece_left_across_the_row_is_still_cutting_at_the_end():
    resting = Trajectory([Sample(0.0, 150.0, ROW + 40.0, 0.0), Sample(0.5, 150.0, ROW, 0.0)])
    cuts = GATE.cuts(Shape.SQUARE, resting)
    assert {c.beam for c in cuts} == {13, 14, 15, 16}
    assert all(c.clear_us is None for c in cuts)
    # the bottom reaches the row after 23 of the 40 mm, linearly in time
    assert all(c.cut_us == pytest.approx(0.5e6 * 23 / 40, abs=2) for c in cuts)


@settings(max_examples=100, deadline=None)
@given(
    x=st.floats(30, 270),
    speed=st.floats(300, 3000),
    start=st.floats(20, 60),
)
def test_a_circle_falling_steadily_cuts_each_beam_for_its_chord(x, speed, start):
    """Sampled every 4 ms at constant speed (1.2 to 12 mm a step), every beam whose line
    crosses the circle for more than the sweep resolution is cut, and the cut and clear
    times match the chord to a microsecond or so."""
    r = 18.0
    samples = [
        Sample(k * 0.004, x, ROW + r + start - speed * k * 0.004, 0.0)
        for k in range(int((start + 2 * r + 10) / speed / 0.004) + 2)
    ]
    cuts = GATE.cuts(Shape.CIRCLE, Trajectory(samples))
    chord = {
        i: 2 * math.sqrt(max(0.0, r * r - (bx - x) ** 2)) for i, bx in enumerate(TABLE.entry_beams)
    }
    cut_beams = {c.beam for c in cuts}
    assert {i for i, c in chord.items() if c > SWEEP_RESOLUTION_MM + 1e-3} <= cut_beams
    assert all(chord[i] > 0 for i in cut_beams)
    for cut in cuts:
        dx = TABLE.entry_beams[cut.beam] - x
        half = math.sqrt(max(0.0, r * r - dx * dx))
        assert cut.cut_us == pytest.approx((start + r - half) / speed * 1e6, abs=3)
        assert cut.clear_us == pytest.approx((start + r + half) / speed * 1e6, abs=3)


def test_observing_a_drop_changes_nothing_and_records_it_from_release_to_rest():
    drop = Drop(Color.GREEN, Shape.TRIANGLE, 120.0, 340.0, angle=33.0, spin=40.0)
    plain, watched = World(TABLE.board, PARAMS), World(TABLE.board, PARAMS)
    plain.drop(Drop(Color.RED, Shape.SQUARE, 110.0, 340.0))
    watched.drop(Drop(Color.RED, Shape.SQUARE, 110.0, 340.0))
    trajectory = Trajectory()
    result = watched.drop(drop, observer=trajectory.record)
    assert result == plain.drop(drop)
    assert watched.bodies == plain.bodies
    first, last = trajectory.samples[0], trajectory.samples[-1]
    assert (first.t, first.x, first.y, first.angle) == (0.0, 120.0, 340.0, pytest.approx(33.0))
    rest = watched.bodies[-1]
    assert (last.t, last.x, last.y) == (result.sim_time_s, rest.x, rest.y)
    steps = [b.t - a.t for a, b in zip(trajectory.samples, trajectory.samples[1:], strict=False)]
    assert steps == pytest.approx([PARAMS.time_step] * len(steps))


def test_a_drop_may_use_other_physics_without_changing_the_worlds():
    bouncy = PARAMS.model_copy(update={"settle": PARAMS.settle.model_copy(update={"cap": 0.1})})
    world = World(TABLE.board, PARAMS)
    result = world.drop(Drop(Color.RED, Shape.CIRCLE, 150.0, 340.0), params=bouncy)
    assert not result.settled and result.sim_time_s == pytest.approx(0.1, abs=PARAMS.time_step)
    assert world.params is PARAMS
    assert world.drop(Drop(Color.RED, Shape.CIRCLE, 60.0, 340.0)).settled
