"""Landing geometry checked against independent exact formulas, and its degenerate cases."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from firmware_host.config.board import Board, EdgeFace, load_board
from firmware_host.errors import InputError
from firmware_host.games.dropit.rules.geometry import (
    PieceSpace,
    inset,
    piece_shape,
    turn_period,
    within_reach,
)
from firmware_host.games.dropit.rules.landing import check_position, judge
from firmware_host.games.dropit.rules.pieces import Pose, Shape
from tests.builders import piece, position, write_yaml

BOARD = load_board()
SHAPES = st.sampled_from(list(Shape))
ANGLES = st.floats(-720, 720, allow_nan=False)
BAND = 1e-5  # stay this far from exact thresholds, where rounding decides


def far_from(value: float, threshold: float) -> bool:
    return abs(value - threshold) > BAND


@given(x=st.floats(20, 280), y=st.floats(20, 280))
def test_a_circle_gets_a_bonus_exactly_when_the_discs_overlap(x, y):
    circle = BOARD.shapes.circle.radius
    expected = []
    for bonus in BOARD.bonus_circles:
        gap = math.hypot(x - bonus.x, y - bonus.y) - (circle + bonus.radius)
        assume(far_from(gap, 0))
        if gap < 0:
            expected.append(bonus.points)
    v = judge(BOARD, position(piece("red", "circle", x, y), edges="none"))
    assert v.bonus == sum(expected)


@given(apart=st.floats(-2, 4), turn=st.floats(0, 360))
def test_two_circles_touch_exactly_within_the_tolerance(apart, turn):
    # drawn around the other circle, not filtered from a square: most of a square's points
    # lie inside the circles' overlap, and Hypothesis gave up on one run in a few
    reach = 2 * BOARD.shapes.circle.radius + apart
    dx, dy = reach * math.cos(math.radians(turn)), reach * math.sin(math.radians(turn))
    gap = math.hypot(dx, dy) - 2 * BOARD.shapes.circle.radius
    assume(far_from(gap, BOARD.touch_tolerance))
    other = piece("red", "circle", 150, 150, id="p1")
    v = judge(BOARD, position(piece("blue", "circle", 150 + dx, 150 + dy), other, edges="none"))
    assert bool(v.touching) is (gap <= BOARD.touch_tolerance)


ALIGNED = st.sampled_from([0.0, 17.0, 34.0, 34.3, 34.9, 35.1, -34.0, -34.5, -35.5])


@given(dx=st.one_of(ALIGNED, st.floats(-40, 40)), dy=st.one_of(ALIGNED, st.floats(-40, 40)))
def test_two_upright_squares_touch_exactly_within_the_tolerance(dx, dy):
    side = 34.0
    gap = math.hypot(max(0.0, abs(dx) - side), max(0.0, abs(dy) - side))
    assume(far_from(gap, BOARD.touch_tolerance))
    other = piece("red", "square", 150, 150, id="p1")
    v = judge(BOARD, position(piece("blue", "square", 150 + dx, 150 + dy), other, edges="none"))
    assert bool(v.touching) is (gap <= BOARD.touch_tolerance)


@given(shape=SHAPES, angle=ANGLES)
def test_a_piece_exactly_on_top_of_another_is_an_overlap(shape, angle):
    """Concentric outlines: Chipmunk's contact depth is 0 here; we must still see the overlap."""
    a = piece("red", shape, 150, 150, angle, id="p1")
    b = piece("blue", shape, 150, 150, angle)
    with pytest.raises(InputError, match=r"red .* overlaps dropped \(blue"):
        check_position(BOARD, position(b, a), "pos.yaml")


def test_a_circle_centred_on_a_bonus_circle_inside_a_square():
    """Circle centre inside a polygon: Chipmunk's contact depth is 0 here too."""
    small = next(c for c in BOARD.bonus_circles if c.points == 3)
    for shape in Shape:
        v = judge(BOARD, position(piece("red", shape, small.x, small.y), edges="none"))
        assert small in v.bonus_circles


@pytest.mark.parametrize(("overlap", "refused"), [(1.9, False), (2.1, True)])
def test_overlap_limit_of_two_millimetres(overlap, refused):
    a = piece("red", "square", 100, 17, id="p1")
    b = piece("blue", "square", 100 + 34 - overlap, 17)
    if refused:
        with pytest.raises(InputError, match="by more than 2 mm"):
            check_position(BOARD, position(b, a), "pos.yaml")
    else:
        check_position(BOARD, position(b, a), "pos.yaml")


@given(shape=SHAPES, angle=ANGLES, by=st.floats(0.001, 5))
def test_inset_moves_every_side_inwards_by_the_amount(shape, angle, by):
    assume(shape is not Shape.CIRCLE)
    exact = piece_shape(BOARD, shape, Pose(100, 100, angle))
    corners = [(v.x, v.y) for v in exact.get_vertices()]
    for vertex in inset(corners, by):
        assert exact.point_query(vertex).distance == pytest.approx(-by, abs=1e-9)


def featureless_board(tmp_path) -> Board:
    """The reference shapes on a board with one level, no circles and no edge symbols."""
    data = BOARD.to_json()
    data.update(
        levels=[{"level": 1, "top": data["levels"][-1]["top"]}],
        bonus_circles=[],
        edges={"color": [], "shape": []},
    )
    return load_board(write_yaml(tmp_path / "plain.yaml", data))


@given(
    shapes=st.tuples(SHAPES, SHAPES),
    angles=st.tuples(ANGLES, ANGLES),
    offset=st.tuples(st.floats(-45, 45), st.floats(-45, 45)),
    shift=st.tuples(st.integers(-60, 60), st.integers(-60, 60)),
)
def test_translating_two_pieces_together_keeps_the_verdict(
    tmp_path_factory, shapes, angles, offset, shift
):
    board = featureless_board(tmp_path_factory.mktemp("board"))
    x, y = 150.0, 150.0
    other = piece("red", shapes[0], x, y, angles[0], id="p1")
    dropped = piece("red", shapes[1], x + offset[0], y + offset[1], angles[1])
    moved_other = piece("red", shapes[0], x + shift[0], y + shift[1], angles[0], id="p1")
    moved = piece("red", shapes[1], x + offset[0] + shift[0], y + offset[1] + shift[1], angles[1])
    before = judge(board, position(dropped, other, edges="none")).to_json()
    after = judge(board, position(moved, moved_other, edges="none")).to_json()
    assert before == after


@given(shape=SHAPES, angle=ANGLES, x=st.floats(30, 270), y=st.floats(30, 260), up=st.floats(0, 40))
def test_moving_a_piece_up_never_lowers_its_level(shape, angle, x, y, up):
    low = judge(BOARD, position(piece("red", shape, x, y, angle), edges="none")).level
    high = judge(BOARD, position(piece("red", shape, x, y + up, angle), edges="none")).level
    assert high >= low


def test_every_edge_face_is_queried_separately():
    dropped = piece("blue", "square", 17.5, 120)
    faces = {face: judge(BOARD, position(dropped, edges=face)).edges for face in EdgeFace}
    assert [e.symbol for e in faces[EdgeFace.COLOR]] == ["blue"]
    assert [e.symbol for e in faces[EdgeFace.SHAPE]] == ["triangle"]
    assert faces[EdgeFace.NONE] == ()


@pytest.mark.parametrize(
    ("x", "y", "yellow"),
    [
        (17.3, 123.0, True),  # corner 0.3 mm right of the yellow segment's start, level with it
        (17.0, 122.9, True),  # corner on the wall 0.1 mm below the start
        (17.0, 122.5, True),  # corner on the wall 0.5 mm below it
        (17.9, 123.0, True),  # 0.9 mm
        (17.9, 122.5, False),  # 1.03 mm
        (17.0, 121.9, False),  # 1.1 mm
    ],
)
def test_a_corner_near_the_end_of_an_edge_segment(x, y, yellow):
    """Left wall: blue 90..140, yellow 140..200; an upright square's top-left corner near
    (0, 140). Chipmunk's own segment-to-polygon test missed the first four."""
    v = judge(BOARD, position(piece("green", "square", x, y), edges="color"))
    assert [e.symbol for e in v.edges] == (["blue", "yellow"] if yellow else ["blue"])


def _point_segment_distance(p, a, b) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def _distance_to_segment(shape: Shape, pose: Pose, a, b) -> float:
    """Exact gap between a piece outline and a wall segment (the piece inside the zone)."""
    dims = BOARD.shapes.of(shape)
    if shape is Shape.CIRCLE:
        return max(0.0, _point_segment_distance((pose.x, pose.y), a, b) - dims.radius)
    turn = math.radians(pose.angle)
    corners = [
        (
            pose.x + x * math.cos(turn) - y * math.sin(turn),
            pose.y + x * math.sin(turn) + y * math.cos(turn),
        )
        for x, y in dims.vertices
    ]
    sides = list(zip(corners, corners[1:] + corners[:1], strict=True))
    return min(
        [_point_segment_distance(c, a, b) for c in corners]
        + [_point_segment_distance(end, p, q) for end in (a, b) for p, q in sides]
    )


SEGMENT_ENDS = [
    (segment, end)
    for segment in BOARD.edges.color
    for end in (segment.start, segment.end)
    if 0 < end < (BOARD.width if segment.side == "bottom" else BOARD.height)
]


@given(
    choice=st.sampled_from(SEGMENT_ENDS),
    shape=SHAPES,
    angle=ANGLES,
    along=st.floats(-30, 30),
    off=st.floats(0, 30),
)
def test_edge_contact_near_segment_ends_matches_the_exact_distance(
    choice, shape, angle, along, off
):
    """Corners and curves near the end of an edge segment, where Chipmunk's own segment
    test misses contacts: touching exactly when the exact gap is within the tolerance."""
    segment, end = choice
    w, h = BOARD.width, BOARD.height
    probe = piece_shape(BOARD, shape, Pose(0, 0, angle))
    reach = {"left": -probe.bb.left, "right": probe.bb.right, "bottom": -probe.bb.bottom}[
        segment.side
    ]
    inward = reach + off
    x, y = {
        "left": (inward, end + along),
        "right": (w - inward, end + along),
        "bottom": (end + along, inward),
    }[segment.side]
    ends = {
        "left": ((0.0, segment.start), (0.0, segment.end)),
        "right": ((w, segment.start), (w, segment.end)),
        "bottom": ((segment.start, 0.0), (segment.end, 0.0)),
    }[segment.side]
    pose = Pose(x, y, angle)
    assume(piece_shape(BOARD, shape, pose).bb.top < h)
    gap = _distance_to_segment(shape, pose, *ends)
    assume(far_from(gap, BOARD.touch_tolerance))
    v = judge(BOARD, position(piece("red", shape, x, y, angle), edges="color"))
    touched = (segment.side, segment.symbol) in {(str(e.side), e.symbol) for e in v.edges}
    assert touched is (gap <= BOARD.touch_tolerance), f"gap {gap:.4f} mm"


def test_turn_period_is_read_off_the_shapes_outline():
    board = load_board()
    assert [turn_period(board, s) for s in Shape] == [360.0, 90.0, 180.0, 120.0]
    skewed = board.shapes.square.model_copy(
        update={"vertices": [[-17.0, -17.0], [20.0, -17.0], [17.0, 17.0], [-17.0, 17.0]]}
    )
    lopsided = board.model_copy(
        update={"shapes": board.shapes.model_copy(update={"square": skewed})}
    )
    assert turn_period(lopsided, Shape.SQUARE) == 360.0


@given(
    shapes=st.tuples(SHAPES, SHAPES),
    at=st.tuples(st.floats(0, 300), st.floats(0, 300), ANGLES),
    offset=st.tuples(st.floats(-45, 45), st.floats(-45, 45), ANGLES),
    gap=st.floats(0, 5),
)
def test_within_reach_keeps_every_piece_a_contact_query_would_meet(shapes, at, offset, gap):
    mine = piece("red", shapes[0].value, *at)
    x, y, angle = offset
    theirs = piece("blue", shapes[1].value, at[0] + x, at[1] + y, angle, id="o")
    grown = piece_shape(BOARD, mine.shape, mine.pose, grow=gap)
    met = PieceSpace(BOARD, [theirs]).met_by(grown)
    assert not met or within_reach(BOARD, [theirs], mine, gap) == [theirs]
