"""The pymunk world: drops settle where physics says, pieces get pushed, the cap ends
runaway drops, runs repeat exactly, and snapshots continue exactly like the original."""

import math
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.config.board import load_board
from firmware_host.errors import InputError
from firmware_host.games.dropit.rules.pieces import Color, Piece, Pose, Shape
from firmware_host.model import Drop, World, load_params
from firmware_host.model.space import judge_angle, outline, reach
from firmware_host.model.supply import random_drop, supply_piece

BOARD = load_board()
PARAMS = load_params()
SLOP_MM = 0.5
"""What a pile may press pieces into each other and the walls (docs/physics.md)."""


def test_square_dropped_flat_rests_on_the_floor_where_it_fell():
    world = World(BOARD, PARAMS)
    result = world.drop(Drop(Color.RED, Shape.SQUARE, x=150.0, y=340.0))
    assert result.settled
    assert result.piece.id == "p1"
    assert result.piece.pose.x == pytest.approx(150.0, abs=0.5)
    assert result.piece.pose.y == pytest.approx(17.0, abs=PARAMS.collision_slop + 0.01)
    assert min(result.piece.pose.angle, 360 - result.piece.pose.angle) < 0.01
    assert 0.3 < result.sim_time_s < 2.0
    assert world.pieces == (result.piece,)


def test_triangle_dropped_on_its_apex_falls_over_onto_a_side():
    world = World(BOARD, PARAMS)
    result = world.drop(Drop(Color.RED, Shape.TRIANGLE, x=150.0, y=340.0, angle=181.0))
    assert result.settled
    # Resting on a side: the centroid is the inradius (11.547 mm) above the floor.
    assert result.piece.pose.y == pytest.approx(11.547, abs=0.2)
    assert min(result.piece.pose.angle % 120, 120 - result.piece.pose.angle % 120) < 0.5


def test_a_resting_piece_is_pushed_by_a_piece_landing_on_its_side():
    circle = Piece("c", Color.RED, Shape.CIRCLE, Pose(150.0, 18.0, 0.0))
    world = World.at_rest(BOARD, PARAMS, [circle])
    result = world.drop(Drop(Color.BLUE, Shape.SQUARE, x=175.0, y=200.0))
    assert result.settled
    pushed = world.pieces[0]
    assert abs(pushed.pose.x - 150.0) > 5.0
    assert pushed.pose.y == pytest.approx(18.0, abs=0.2)


def test_pieces_nothing_touches_do_not_move_at_all():
    resting = Piece("c", Color.RED, Shape.CIRCLE, Pose(40.0, 18.0, 30.0))
    world = World.at_rest(BOARD, PARAMS, [resting])
    world.drop(Drop(Color.BLUE, Shape.SQUARE, x=250.0, y=340.0))
    assert world.bodies[0].x == 40.0
    assert world.bodies[0].y == 18.0
    assert world.bodies[0].angle == math.radians(30.0)


def test_a_rolling_circle_stops_because_of_rolling_resistance():
    world = World(BOARD, PARAMS)
    result = world.drop(Drop(Color.RED, Shape.CIRCLE, x=40.0, y=19.0, vx=800.0, spin=-2500.0))
    assert result.settled
    assert 40.0 < result.piece.pose.x < BOARD.width - 18.0


def test_without_drag_a_circle_rolls_on_and_the_cap_reports_it_unsettled():
    frictionless = PARAMS.model_copy(
        update={
            "pane_drag": PARAMS.pane_drag.model_copy(update={"linear": 0.0, "angular": 0.0}),
            "rolling_resistance": 0.0,
            "elasticity": PARAMS.elasticity.model_copy(update={"piece_wall": 1.0}),
            "settle": PARAMS.settle.model_copy(update={"cap": 3.0}),
        }
    )
    world = World(BOARD, frictionless)
    result = world.drop(Drop(Color.RED, Shape.CIRCLE, x=40.0, y=18.0, vx=800.0))
    assert not result.settled
    assert result.sim_time_s == pytest.approx(3.0, abs=frictionless.time_step)
    assert world.bodies[0].vx != 0.0  # the unsettled state keeps its velocities


def test_a_drop_that_does_not_fit_between_the_walls_is_refused():
    world = World(BOARD, PARAMS)
    with pytest.raises(InputError, match="does not fit between the walls"):
        world.drop(Drop(Color.RED, Shape.SQUARE, x=10.0, y=340.0))
    assert world.pieces == ()


def test_a_drop_with_an_id_already_on_the_board_is_refused():
    world = World.at_rest(BOARD, PARAMS, [Piece("p2", Color.RED, Shape.CIRCLE, Pose(40, 18, 0))])
    with pytest.raises(InputError, match="'p2' is used by another piece"):
        world.drop(Drop(Color.BLUE, Shape.SQUARE, x=150.0, y=340.0))
    assert world.drop(Drop(Color.BLUE, Shape.SQUARE, x=150.0, y=340.0), "p3").settled


def test_a_drop_starting_inside_a_piece_is_refused():
    world = World.at_rest(BOARD, PARAMS, [Piece("c", Color.RED, Shape.CIRCLE, Pose(150, 18, 0))])
    with pytest.raises(InputError, match="inside a piece"):
        world.drop(Drop(Color.BLUE, Shape.SQUARE, x=160.0, y=30.0), "p9")
    assert len(world.pieces) == 1


def _drops(n, seed=11):
    rng = random.Random(seed)
    world = World(BOARD, PARAMS)
    drops = []
    for k in range(n):
        drop = random_drop(world, *supply_piece(k), rng)
        world.drop(drop)
        drops.append(drop)
    return drops, world


def test_the_same_drops_give_identical_bodies_in_one_process():
    drops, first = _drops(12)
    second = World(BOARD, PARAMS)
    for drop in drops:
        second.drop(drop)
    assert second.bodies == first.bodies


def test_a_restored_snapshot_continues_exactly_like_the_original():
    _, world = _drops(14)
    saved = world.snapshot()
    extra = [
        Drop(Color.RED, Shape.DIAMOND, x=120.0, y=world.top() + 40.0, angle=33.0, spin=90.0),
        Drop(Color.BLUE, Shape.TRIANGLE, x=200.0, y=world.top() + 80.0, angle=71.0, vx=-50.0),
    ]
    for drop in extra:
        world.drop(drop)
    original = world.bodies

    world.restore(saved)
    alternative = world.drop(Drop(Color.GREEN, Shape.CIRCLE, x=60.0, y=world.top() + 40.0))
    assert world.bodies != original[: len(world.bodies)]
    assert alternative.piece.id == "p15"

    world.restore(saved)
    fresh = World(BOARD, PARAMS, saved)
    for drop in extra:
        world.drop(drop)
        fresh.drop(drop)
    assert world.bodies == original
    assert fresh.bodies == original


def test_snapshots_survive_pickling_for_another_process():
    world = World(BOARD, PARAMS)
    world.drop(Drop(Color.RED, Shape.DIAMOND, x=100.0, y=340.0, angle=10.0))
    copy = pickle.loads(pickle.dumps(world.snapshot()))
    assert copy == world.snapshot()
    again = World(BOARD, PARAMS, copy)
    drop = Drop(Color.BLUE, Shape.CIRCLE, x=110.0, y=340.0)
    assert again.drop(drop) == world.drop(drop)


@settings(max_examples=40, deadline=None)
@given(radians=st.floats(-1e4, 1e4, allow_nan=False))
def test_judge_angles_are_degrees_in_0_to_360(radians):
    angle = judge_angle(radians)
    assert 0.0 <= angle < 360.0
    turn = math.radians(angle) - radians
    assert abs(math.remainder(turn, 2 * math.pi)) < 1e-9


@settings(max_examples=40, deadline=None)
@given(
    shape=st.sampled_from(list(Shape)),
    angle=st.floats(0, 360, allow_nan=False),
)
def test_reach_bounds_every_corner_of_the_turned_shape(shape, angle):
    left, bottom, right, top = reach(BOARD, shape, math.radians(angle))
    corners = outline(BOARD, shape, math.radians(angle)) or [(-18, -18), (18, 18)]
    assert left == min(x for x, _ in corners) and right == max(x for x, _ in corners)
    assert bottom == min(y for _, y in corners) and top == max(y for _, y in corners)


@settings(max_examples=25, deadline=None)
@given(
    shape=st.sampled_from(list(Shape)),
    seed=st.integers(0, 2**32),
)
def test_a_random_drop_fits_and_lands_inside_the_drop_zone(shape, seed):
    world = World(BOARD, PARAMS)
    drop = random_drop(world, Color.RED, shape, random.Random(seed))
    result = world.drop(drop)
    assert result.settled
    left, bottom, right, _ = reach(BOARD, shape, math.radians(result.piece.pose.angle))
    pose = result.piece.pose
    assert pose.x + left > -SLOP_MM and pose.x + right < BOARD.width + SLOP_MM
    assert pose.y + bottom > -SLOP_MM
