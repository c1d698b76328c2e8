"""Located pieces that overlap are moved apart, each by its share of the uncertainty."""

import math

import pymunk
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from firmware_host.camera.locate import Known, Located
from firmware_host.camera.overlaps import (
    FLOOR,
    LEFT,
    RIGHT,
    SLACK_MM,
    Contact,
    _Pieces,
    _to_polygon,
    part_overlaps,
)
from firmware_host.config.board import load_board
from firmware_host.games.dropit.rules.geometry import corners, piece_shape
from firmware_host.games.dropit.rules.pieces import Color, Pose, Shape

BOARD = load_board()
LOW = Known("low", Color.BLUE, Shape.SQUARE)
HIGH = Known("high", Color.BLUE, Shape.SQUARE)


def distance(a: Located, b: Located) -> float:
    """The signed distance between two located pieces' outlines (negative: overlapping),
    by pymunk's own shape query."""
    assert a.pose is not None and b.pose is not None
    space = pymunk.Space()
    space.add(piece_shape(BOARD, b.known.shape, b.pose, body=space.static_body))
    hits = space.shape_query(piece_shape(BOARD, a.known.shape, a.pose))
    if hits:
        return min(p.distance for hit in hits for p in hit.contact_point_set.points)
    low, high = 0.0, 10.0
    for _ in range(30):
        middle = (low + high) / 2
        grown = piece_shape(BOARD, a.known.shape, a.pose, grow=middle)
        low, high = (low, middle) if space.shape_query(grown) else (middle, high)
    return high


def stacked(overlap: float, low_sigma: float, high_sigma: float) -> list[Located]:
    """A square on the floor and one above it, located ``overlap`` mm into it."""
    low = Located(LOW, Pose(150.0, 17.0, 0.0), True, (low_sigma, low_sigma, 0.2))
    high = Located(HIGH, Pose(152.0, 51.0 - overlap, 0.0), True, (high_sigma, high_sigma, 0.3))
    return [low, high]


def beside(overlap: float, left_sigma: float, right_sigma: float) -> list[Located]:
    """Two squares on the floor side by side, located ``overlap`` mm into each other."""
    left = Located(LOW, Pose(100.0, 17.0, 0.0), True, (left_sigma, left_sigma, 0.2))
    right = Located(HIGH, Pose(134.0 - overlap, 17.0, 0.0), True,
                    (right_sigma, right_sigma, 0.2))
    return [left, right]


def moves(before: list[Located], after: list[Located]) -> list[float]:
    """How far each piece moved (mm)."""
    return [math.dist((a.pose.x, a.pose.y), (b.pose.x, b.pose.y))  # type: ignore[union-attr]
            for a, b in zip(before, after, strict=True)]


def test_the_piece_located_less_surely_moves_out_of_the_other():
    for sure, unsure in ((0, 1), (1, 0)):
        sigmas = [0.05, 0.05]
        sigmas[unsure] = 0.3
        before = beside(0.6, *sigmas)
        after = part_overlaps(BOARD, before)
        assert -0.15 < distance(after[0], after[1]) <= 0.0  # most of the overlap gone
        moved = moves(before, after)
        assert moved[unsure] > 0.4 and moved[unsure] > 10 * moved[sure]
        assert all(abs(p.pose.y - 17.0) < 0.01 for p in after)  # type: ignore[union-attr]


def test_two_unsure_pieces_are_parted_to_where_they_touch_each_moving_half():
    before = beside(0.6, 0.5, 0.5)
    after = part_overlaps(BOARD, before)
    assert abs(distance(after[0], after[1])) < 0.05
    left, right = moves(before, after)
    assert 0.8 < left / right < 1.25
    assert after[0].pose.x < 100.0 < 134.0 - 0.6 < after[1].pose.x  # type: ignore[union-attr]


def test_two_sure_pieces_overlapping_share_the_overlap_with_the_contact():
    # an overlap far beyond both fits' deviations is partly how exactly pieces touch
    before = beside(0.6, 0.05, 0.05)
    after = part_overlaps(BOARD, before)
    assert -0.6 < distance(after[0], after[1]) < -0.2
    left, right = moves(before, after)
    assert math.isclose(left, right, rel_tol=0.05)


def test_a_piece_on_the_floor_is_not_pushed_through_it():
    before = stacked(0.6, 0.3, 0.3)
    low, high = part_overlaps(BOARD, before)
    assert low.pose is not None and high.pose is not None
    assert -SLACK_MM < low.pose.y - 17.0 <= 0.0  # into the floor no farther than its slack
    assert high.pose.y - before[1].pose.y > 0.4  # type: ignore[union-attr]
    assert distance(high, low) > -0.15


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from([Shape.SQUARE, Shape.DIAMOND, Shape.TRIANGLE]),
    st.floats(0, 360),
    st.floats(-40, 40),
    st.floats(-40, 40),
)
def test_the_signed_distance_to_a_polygon_is_pymunks(shape, angle, x, y):
    placed = corners(BOARD, shape, Pose(0.0, 0.0, angle))
    mine, _, _ = _to_polygon(placed, (x, y))
    theirs = piece_shape(BOARD, shape, Pose(0.0, 0.0, angle)).point_query((x, y)).distance
    assert math.isclose(mine, theirs, abs_tol=1e-6)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from([Shape.SQUARE, Shape.DIAMOND, Shape.TRIANGLE]),
    st.sampled_from([Shape.SQUARE, Shape.DIAMOND, Shape.TRIANGLE]),
    st.floats(0, 2 * math.pi),
    st.floats(0.55, 1.0),
    st.floats(0, 360),
    st.floats(0, 360),
)
def test_two_polygons_overlap_as_deep_as_pymunk_finds(shape, other, way, near, angle, other_angle):
    # the centres as far apart as the outlines reach along that way, a little less
    reach = (BOARD.shapes.of(shape), BOARD.shapes.of(other))
    apart = near * sum(max(math.hypot(*v) for v in r.vertices) for r in reach)  # type: ignore[union-attr]
    a = Located(Known("a", Color.RED, shape),
                Pose(100.0 + apart * math.cos(way), 60.0 + apart * math.sin(way), angle), True)
    b = Located(Known("b", Color.RED, other), Pose(100.0, 60.0, other_angle), True)
    depth = _Pieces(BOARD, [a, b])._separation(0, 1)[0]
    if -3.0 < depth < -1e-3:  # a near miss of a contact, as parting deals with
        assert math.isclose(depth, distance(a, b), abs_tol=1e-6)


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(list(Shape)),
    st.sampled_from(list(Shape)),
    st.floats(-30, 30),
    st.floats(-30, 30),
    st.floats(0, 360),
    st.floats(0, 360),
    st.integers(-1, 3),
)
def test_each_distance_changes_with_the_poses_as_its_derivatives_say(
    shape, other, dx, dy, angle, other_angle, which
):
    assume(math.hypot(dx, dy) > 0.5)  # two circles on one centre part in no direction
    pieces = [
        Located(Known("a", Color.RED, shape), Pose(100.0 + dx, 40.0 + dy, angle), True,
                (0.1, 0.1, 0.5)),
        Located(Known("b", Color.RED, other), Pose(100.0, 40.0, other_angle), True,
                (0.1, 0.1, 0.5)),
    ]
    state = _Pieces(BOARD, pieces)
    corner = -1 if shape is Shape.CIRCLE else max(which, 0) % len(state.placed[0])
    walls = (FLOOR, LEFT, RIGHT)
    contacts = [Contact(0, corner, wall) for wall in walls]
    if Shape.CIRCLE in (shape, other):
        contacts.append(Contact(0, -1, 1))
    else:  # a corner against each side of the other that it lies beside (a corner beyond a
        # side's end counts as a point of its own side there, which slides along it)
        placed = state.placed[1]
        for side, (start, end) in enumerate(zip(placed, [*placed[1:], placed[0]], strict=True)):
            length = math.dist(start, end)
            along = ((state.placed[0][corner][0] - start[0]) * (end[0] - start[0])
                     + (state.placed[0][corner][1] - start[1]) * (end[1] - start[1])) / length
            if 0.01 < along < length - 0.01:
                contacts.append(Contact(0, corner, 1, side))
    step = 1e-6
    for contact in contacts:
        value, grads = state.measure(contact)
        for piece, grad in grads.items():
            for axis in range(3):
                slopes = []
                for sign in (1, -1):  # where the nearest side changes, one of the two
                    nudged = _Pieces(BOARD, pieces)
                    nudged.poses[piece, axis] += sign * step
                    nudged.placed = [nudged._corners(i) for i in range(2)]
                    slopes.append(sign * (nudged.measure(contact)[0] - value) / step)
                assert any(math.isclose(s, grad[axis], abs_tol=2e-3) for s in slopes), (
                    contact, piece, axis, slopes, grad
                )
