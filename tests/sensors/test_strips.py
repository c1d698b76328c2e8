"""Forward models of the strips and the top gate, on hand-checked positions and against an
independent distance computation (hypothesis)."""

from __future__ import annotations

import math

import pymunk
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from firmware_host.config.board import CircleShape, Side
from firmware_host.config.table import load_table
from firmware_host.games.dropit.rules.geometry import piece_shape
from firmware_host.games.dropit.rules.pieces import Color, Piece, Pose, Shape
from firmware_host.sensors import Bits, StripModel

TABLE = load_table()
STRIPS = StripModel(TABLE)
THRESHOLD = TABLE.config.edge_strip.threshold


def piece(shape: Shape, x: float, y: float, angle: float = 0.0, id: str = "p1") -> Piece:
    return Piece(id, Color.BLUE, shape, Pose(x, y, angle))


def elements_over(side: Side, low: float, high: float) -> tuple[int, ...]:
    """The elements of ``side`` whose span overlaps low..high (worked out from the config)."""
    spans = TABLE.config.edge_strip.spans(side)
    return tuple(i for i, (a, b) in enumerate(spans) if a <= high and b >= low)


def test_a_square_on_the_floor_presses_the_elements_under_it_and_blocks_the_beams_to_its_top():
    snapshot = STRIPS.snapshot([piece(Shape.SQUARE, 100.0, 17.0)])
    # spans 83..117: bottom elements 80.5-89.5, 90.5-99.5, 100.5-109.5, 110.5-119.5
    assert snapshot.bottom.indices() == (8, 9, 10, 11)
    assert snapshot.left.count() == snapshot.right.count() == 0
    # beams at 2.5, 7.5, ..., 32.5 lie within 0..34; 37.5 does not
    assert snapshot.curtain.indices() == tuple(range(7))
    assert snapshot.top_gate == Bits(1)


def test_a_piece_in_the_bottom_left_corner_presses_both_strips():
    snapshot = STRIPS.snapshot([piece(Shape.SQUARE, 17.0, 17.0)])
    assert snapshot.bottom.indices() == elements_over(Side.BOTTOM, 0.0, 34.0) == (0, 1, 2, 3)
    assert snapshot.left.indices() == (0, 1, 2, 3)


def test_a_piece_against_the_right_wall_presses_the_right_elements_beside_it():
    snapshot = STRIPS.snapshot([piece(Shape.CIRCLE, 300.0 - 18.0, 145.0)])
    assert snapshot.right.indices() == elements_over(Side.RIGHT, 145.0, 145.0) == (14,)
    assert snapshot.bottom.count() == 0


def test_a_gap_wider_than_the_threshold_presses_nothing():
    near = STRIPS.snapshot([piece(Shape.SQUARE, 17.0 + THRESHOLD * 0.9, 60.0)])
    far = STRIPS.snapshot([piece(Shape.SQUARE, 17.0 + THRESHOLD * 1.1, 60.0)])
    assert near.left.indices() == (4, 5, 6, 7)
    assert far.left.count() == 0


def test_a_corner_level_with_an_element_end_presses_it():
    """The square's top corner (0, 100.5) is where element 10 starts, and a corner 0.3 mm
    from the wall lies within the threshold of that end."""
    flat = STRIPS.snapshot([piece(Shape.SQUARE, 17.0, 83.5)])
    assert flat.left.indices() == (6, 7, 8, 9, 10)
    off = STRIPS.snapshot([piece(Shape.SQUARE, 17.3, 83.5)])
    assert off.left.indices() == (6, 7, 8, 9, 10)
    assert STRIPS.snapshot([piece(Shape.SQUARE, 17.0, 82.9)]).left.indices() == (6, 7, 8, 9)


def test_chipmunk_does_not_see_a_polygon_corner_meet_a_segment_end():
    """Why the edge strip is worked out by hand: pymunk reports that a square whose corner
    lies 0.3 mm from the rounded end (radius 0.5) of a segment does not meet it."""
    space = pymunk.Space()
    space.add(pymunk.Segment(space.static_body, (0.0, 100.5), (0.0, 109.5), THRESHOLD))
    square = pymunk.Poly(None, [(0.3, 66.5), (34.3, 66.5), (34.3, 100.5), (0.3, 100.5)])
    square.update(pymunk.Transform.identity())
    assert space.shape_query(square) == []


def test_a_piece_sticking_out_above_the_top_blocks_the_top_gate():
    height = TABLE.board.height
    inside = STRIPS.snapshot([piece(Shape.SQUARE, 150.0, height - 17.5)])
    out = STRIPS.snapshot([piece(Shape.SQUARE, 150.0, height - 15.0)])
    assert inside.top_gate.count() == 0
    assert out.top_gate.indices() == (0,)
    assert out.curtain.indices()[-1] == len(TABLE.curtain_heights) - 1


def test_pieces_add_up_and_a_stack_blocks_the_curtain_to_its_top():
    stack = [
        piece(Shape.SQUARE, 150.0, 17.0, id="a"),
        piece(Shape.SQUARE, 150.0, 51.0, id="b"),
        piece(Shape.CIRCLE, 40.0, 18.0, id="c"),
    ]
    snapshot = STRIPS.snapshot(stack)
    assert snapshot.curtain.indices() == tuple(range(14))  # 2.5 .. 67.5
    alone = STRIPS.snapshot(stack[:1]).bottom.value | STRIPS.snapshot(stack[2:]).bottom.value
    assert snapshot.bottom.value == alone


def test_the_edge_bitmap_runs_left_then_bottom_then_right():
    snapshot = STRIPS.snapshot([piece(Shape.SQUARE, 17.0, 17.0), piece(Shape.CIRCLE, 282.0, 145.0)])
    bitmap = snapshot.edge_bitmap()
    assert len(bitmap) == 90
    assert bitmap.indices() == (0, 1, 2, 3, 30, 31, 32, 33, 60 + 14)


def test_an_empty_board_reads_nothing():
    snapshot = STRIPS.snapshot([])
    assert [len(b) for b in (snapshot.curtain, snapshot.top_gate, snapshot.left)] == [60, 1, 30]
    assert all(
        bits.count() == 0
        for bits in (snapshot.curtain, snapshot.top_gate, snapshot.left, snapshot.bottom)
    )
    assert snapshot.edge(Side.RIGHT) == snapshot.right


# An independent oracle: the exact distance between a piece and a wall element.


def _point_segment(px, py, ax, ay, bx, by) -> float:
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def _segment_segment(a, b, c, d) -> float:
    def side(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    if side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0:
        return 0.0  # they cross
    return min(
        _point_segment(*a, *c, *d),
        _point_segment(*b, *c, *d),
        _point_segment(*c, *a, *b),
        _point_segment(*d, *a, *b),
    )


def distance_to_element(p: Piece, a: tuple[float, float], b: tuple[float, float]) -> float:
    dims = TABLE.board.shapes.of(p.shape)
    if isinstance(dims, CircleShape):
        return max(0.0, _point_segment(p.pose.x, p.pose.y, *a, *b) - dims.radius)
    turn = math.radians(p.pose.angle)
    c, s = math.cos(turn), math.sin(turn)
    corners = [(p.pose.x + x * c - y * s, p.pose.y + x * s + y * c) for x, y in dims.vertices]
    edges = list(zip(corners, corners[1:] + corners[:1], strict=True))
    inside = all(
        (v[0] - u[0]) * (a[1] - u[1]) - (v[1] - u[1]) * (a[0] - u[0]) >= 0 for u, v in edges
    )
    return 0.0 if inside else min(_segment_segment(a, b, u, v) for u, v in edges)


def element_ends(side: Side, start: float, end: float):
    if side is Side.LEFT:
        return (0.0, start), (0.0, end)
    if side is Side.RIGHT:
        return (TABLE.board.width, start), (TABLE.board.width, end)
    return (start, 0.0), (end, 0.0)


SQUARE_ANGLES = st.sampled_from([0.0, 90.0, 180.0, 270.0, 45.0, 30.0])
"""Angles that put a side flat against a wall or a corner on it: the delicate cases."""


@settings(max_examples=400, deadline=None)
@given(
    shape=st.sampled_from(list(Shape)),
    angle=st.one_of(SQUARE_ANGLES, st.floats(0, 360)),
    side=st.sampled_from(list(Side)),
    gap=st.one_of(st.sampled_from([0.0, 0.3, THRESHOLD / 2]), st.floats(-0.1, 2 * THRESHOLD)),
    along=st.one_of(st.integers(0, 40).map(lambda k: k / 40), st.floats(0, 1)),
)
def test_pressed_elements_are_exactly_those_within_the_threshold(shape, angle, side, gap, along):
    probe = piece_shape(TABLE.board, shape, Pose(0.0, 0.0, angle))
    bb = probe.bb
    width, height = TABLE.board.width, TABLE.board.height
    if side is Side.LEFT:
        x, y = gap - bb.left, -bb.bottom + along * (height - bb.top + bb.bottom)
    elif side is Side.RIGHT:
        x, y = width - gap - bb.right, -bb.bottom + along * (height - bb.top + bb.bottom)
    else:
        x, y = -bb.left + along * (width - bb.right + bb.left), gap - bb.bottom
    p = piece(shape, x, y, angle)
    snapshot = STRIPS.snapshot([p])
    for s in Side:
        for i, span in enumerate(TABLE.config.edge_strip.spans(s)):
            distance = distance_to_element(p, *element_ends(s, *span))
            assume(abs(distance - THRESHOLD) > 1e-6)
            assert snapshot.edge(s)[i] == (distance <= THRESHOLD), (s, i, distance)


@settings(max_examples=200, deadline=None)
@given(
    shape=st.sampled_from(list(Shape)),
    angle=st.floats(0, 360),
    x=st.floats(60, 240),
    y=st.floats(20, 320),
)
def test_blocked_beams_are_exactly_the_lines_the_piece_crosses(shape, angle, x, y):
    bb = piece_shape(TABLE.board, shape, Pose(x, y, angle)).bb
    heights = TABLE.curtain_heights + TABLE.top_gate_heights
    assume(all(abs(h - bb.bottom) > 1e-6 and abs(h - bb.top) > 1e-6 for h in heights))
    snapshot = STRIPS.snapshot([piece(shape, x, y, angle)])
    expected = [bb.bottom <= h <= bb.top for h in TABLE.curtain_heights]
    assert list(snapshot.curtain) == expected
    assert list(snapshot.top_gate) == [bb.bottom <= h <= bb.top for h in TABLE.top_gate_heights]


def test_readings_do_not_depend_on_the_order_of_the_pieces():
    pieces = [
        piece(Shape.TRIANGLE, 20.0, 11.547, id="a"),
        piece(Shape.DIAMOND, 284.0, 100.0, 0.0, id="b"),
    ]
    assert STRIPS.snapshot(pieces) == STRIPS.snapshot(pieces[::-1])
    assert STRIPS.snapshot(pieces).right.indices() == (9, 10)


@pytest.mark.parametrize("shape", list(Shape))
def test_every_shape_resting_on_the_floor_presses_the_bottom(shape):
    bb = piece_shape(TABLE.board, shape, Pose(150.0, 0.0, 0.0)).bb
    snapshot = STRIPS.snapshot([piece(shape, 150.0, -bb.bottom)])
    assert snapshot.bottom.count() >= 1
    assert snapshot.curtain[0]


def test_a_margin_reaches_as_far_as_a_threshold_that_much_larger_or_smaller():
    """A square 0.62 mm from the wall presses nothing at the 0.5 mm threshold, its side's
    elements with 0.3 mm more; one 0.3 mm from it stops pressing with 0.3 mm less. The
    bits between are the ones a pose's uncertainty leaves open (``changed``)."""
    apart = [piece(Shape.SQUARE, 17.0 + 0.62, 60.0)]
    assert STRIPS.snapshot(apart).left.count() == 0
    assert STRIPS.snapshot(apart, 0.3).left.indices() == (4, 5, 6, 7)
    assert STRIPS.snapshot(apart, -0.3).left.count() == 0
    close = [piece(Shape.SQUARE, 17.0 + 0.3, 60.0)]
    assert STRIPS.snapshot(close).left.indices() == (4, 5, 6, 7)
    assert STRIPS.snapshot(close, -0.3).left.count() == 0
    open_bits = STRIPS.snapshot(apart, 0.3).changed(STRIPS.snapshot(apart, -0.3))
    assert open_bits.left.indices() == (4, 5, 6, 7) and open_bits.curtain.count() == 0
    # the beams: the square spans 43..77, the beam at 77.5 is blocked with 0.5 mm more
    assert 15 not in STRIPS.snapshot(apart).curtain.indices()
    assert 15 in STRIPS.snapshot(apart, 0.5).curtain.indices()
