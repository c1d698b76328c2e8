"""Located pieces that overlap are moved apart, each by its share of the uncertainty."""

import math

import pymunk
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.camera.locate import Known, Located
from firmware_host.camera.overlaps import SLACK_MM, _Pieces, part_overlaps
from firmware_host.config.board import load_board
from firmware_host.games.dropit.rules.geometry import outline_reach, piece_shape
from firmware_host.games.dropit.rules.pieces import Color, Pose, Shape

BOARD = load_board()
LOW = Known("low", Color.BLUE, Shape.SQUARE)
HIGH = Known("high", Color.BLUE, Shape.SQUARE)


def distance(a: Located, b: Located) -> float:
    """The signed distance between two located pieces' outlines (negative: overlapping),
    by pymunk's own shape query (the depth from its contact points: pymunk 7.3 gives a
    polygon's against a circle the wrong sign)."""
    assert a.pose is not None and b.pose is not None
    space = pymunk.Space()
    space.add(piece_shape(BOARD, b.known.shape, b.pose, body=space.static_body))
    hits = space.shape_query(piece_shape(BOARD, a.known.shape, a.pose))
    if hits:
        return min(hit.contact_point_set.normal.dot(p.point_b - p.point_a)
                   for hit in hits for p in hit.contact_point_set.points)
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


def test_the_deviations_stay_the_fits_own():
    before = beside(0.6, 0.05, 0.3)
    after = part_overlaps(BOARD, before)
    assert [p.sigma for p in after] == [p.sigma for p in before]
    assert after[1].pose != before[1].pose


def test_pieces_overlapping_within_the_slack_or_unseen_stay_as_located():
    within = beside(SLACK_MM * 0.8, 0.05, 0.3)
    assert part_overlaps(BOARD, within) == within
    low, high = beside(0.6, 0.05, 0.3)
    unseen = [Located(LOW, low.pose, False), high]
    assert part_overlaps(BOARD, unseen) == unseen
    assert part_overlaps(BOARD, []) == []


def test_overlaps_deeper_than_a_near_miss_are_not_parted():
    deep = beside(4.0, 0.05, 0.3)
    assert part_overlaps(BOARD, deep) == deep


def test_a_circle_is_parted_from_a_square_it_was_located_into():
    square = Located(LOW, Pose(150.0, 17.0, 0.0), True, (0.05, 0.05, 0.2))
    circle = Located(Known("c", Color.RED, Shape.CIRCLE), Pose(160.0, 34.0 + 18.0 - 0.8, 0.0),
                     True, (0.4, 0.4, 0.0))
    assert distance(circle, square) < -0.7
    square_after, circle_after = part_overlaps(BOARD, [square, circle])
    assert abs(distance(circle_after, square_after)) < 0.1
    moved = moves([square, circle], [square_after, circle_after])
    assert moved[1] > 0.6 and moved[0] < 0.05


def test_three_in_a_row_each_parted():
    left = Located(LOW, Pose(100.0, 17.0, 0.0), True, (0.05, 0.05, 0.2))
    middle = Located(Known("m", Color.BLUE, Shape.SQUARE), Pose(133.6, 17.0, 0.0), True,
                     (0.3, 0.3, 0.3))
    right = Located(Known("r", Color.RED, Shape.SQUARE), Pose(167.2, 17.0, 0.0), True,
                    (0.05, 0.05, 0.2))
    before = [left, middle, right]
    parted = part_overlaps(BOARD, before)
    # the middle one cannot leave both: it settles between, each overlap shrinks alike
    gaps = [distance(parted[0], parted[1]), distance(parted[1], parted[2])]
    assert all(-0.4 < gap < -0.1 for gap in gaps) and math.isclose(*gaps, abs_tol=0.02), gaps
    moved = moves(before, parted)
    assert moved[0] > moved[1] < moved[2]  # the two ends give way, the middle stays put


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(list(Shape)),
    st.sampled_from(list(Shape)),
    st.floats(0, 2 * math.pi),
    st.floats(0.5, 1.0),
    st.floats(0, 360),
    st.floats(0, 360),
)
def test_each_distance_changes_with_the_poses_as_its_derivatives_say(
    shape, other, way, near, angle, other_angle
):
    # two pieces about as far apart as their outlines reach, often overlapping
    apart = near * (outline_reach(BOARD, shape) + outline_reach(BOARD, other))
    pieces = [
        Located(Known("a", Color.RED, shape),
                Pose(150.0 + apart * math.cos(way), 60.0 + apart * math.sin(way), angle), True,
                (0.1, 0.1, 0.5)),
        Located(Known("b", Color.RED, other), Pose(150.0, 60.0, other_angle), True,
                (0.1, 0.1, 0.5)),
    ]
    state = _Pieces(BOARD, pieces)
    contacts = state.overlapping()
    step = 1e-6
    for contact in contacts:
        value, grads = state.measure(contact)
        assert value < SLACK_MM
        for piece, grad in grads.items():
            for axis in range(3):
                nudged = _Pieces(BOARD, pieces)
                nudged.poses[piece, axis] += step
                slope = (nudged.measure(contact)[0] - value) / step
                assert math.isclose(slope, grad[axis], abs_tol=1e-4), (contact, piece, axis)


def test_a_pair_overlapping_is_found_whichever_comes_first():
    # pymunk 7.3 gives a polygon's contact with a circle the wrong sign: the distance is
    # taken from the contact's points
    square = Located(LOW, Pose(150.0, 17.0, 0.0), True, (0.05, 0.05, 0.2))
    circle = Located(Known("c", Color.RED, Shape.CIRCLE), Pose(160.0, 51.2, 0.0), True,
                     (0.4, 0.4, 0.0))
    for pair in ([square, circle], [circle, square]):
        state = _Pieces(BOARD, pair)
        depths = [state.measure(c)[0] for c in state.overlapping() if c.against >= 0]
        assert depths and math.isclose(min(depths), -0.8, abs_tol=1e-9)
