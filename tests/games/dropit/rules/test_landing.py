"""Every landing rule of Drop It, on both edge faces and with edges ignored.

Positions are on the reference board (config/boards/reference.yaml): levels 1..8 with
slanted lines, touch tolerance 1 mm, square side 34, circle radius 18, diamond 32 x 48,
equilateral triangle side 40.
"""

from __future__ import annotations

import math

import pytest

from firmware_host.games.dropit.rules.landing import Rule, judge
from tests.builders import piece, position

TRIANGLE_APEX = 23.094  # centroid to apex of the reference triangle
TRIANGLE_BASE = 11.547  # centroid to base


def verdict(board, dropped, *pieces, edges="color"):
    return judge(board, position(dropped, *pieces, edges=edges))


# --- shape and colour --------------------------------------------------------------------


def test_touching_the_same_shape_breaks_the_shape_rule(board):
    red_square = piece("red", "square", 150, 17, id="p1")
    blue_square = piece("blue", "square", 150, 17 + 34 + 0.5)
    v = verdict(board, blue_square, red_square)
    assert v.broken == (Rule.SHAPE,)
    assert v.points == 0
    assert [p.id for p in v.touching] == ["p1"]


def test_touching_the_same_colour_breaks_the_colour_rule(board):
    blue_circle = piece("blue", "circle", 150, 18, id="p1")
    blue_square = piece("blue", "square", 150, 36 + 17 + 0.5)
    assert verdict(board, blue_square, blue_circle).broken == (Rule.COLOR,)


def test_touching_a_different_shape_and_colour_breaks_nothing(board):
    red_circle = piece("red", "circle", 150, 18, id="p1")
    blue_square = piece("blue", "square", 150, 36 + 17 + 0.5)
    v = verdict(board, blue_square, red_circle)
    assert v.valid
    assert v.points == v.level + v.bonus > 0


def test_the_same_shape_and_colour_breaks_both_in_rule_order(board):
    blue_square = piece("blue", "square", 150, 17, id="p1")
    dropped = piece("blue", "square", 150, 17 + 34 + 0.5)
    assert verdict(board, dropped, blue_square).broken == (Rule.SHAPE, Rule.COLOR)


def test_a_piece_near_but_not_touching_counts_for_nothing(board):
    blue_square = piece("blue", "square", 150, 17, id="p1")
    dropped = piece("blue", "square", 150, 17 + 34 + 5)
    v = verdict(board, dropped, blue_square)
    assert v.valid
    assert v.touching == ()


# --- touch tolerance ------------------------------------------------------------------------


@pytest.mark.parametrize(("gap", "touching"), [(0.0, True), (0.9, True), (1.1, False)])
def test_touch_tolerance_between_pieces(board, gap, touching):
    assert board.touch_tolerance == 1.0
    red = piece("red", "circle", 100, 18, id="p1")
    dropped = piece("red", "circle", 100 + 36 + gap, 18)
    v = verdict(board, dropped, red)
    assert bool(v.touching) is touching
    assert (Rule.COLOR in v.broken) is touching


@pytest.mark.parametrize(("gap", "touching"), [(0.9, True), (1.1, False)])
def test_touch_tolerance_between_polygons(board, gap, touching):
    diamond = piece("green", "diamond", 100, 24, id="p1")
    # the square's left side at the diamond's right corner (x = 116), plus the gap
    dropped = piece("green", "square", 116 + gap + 17, 20)
    assert bool(verdict(board, dropped, diamond).touching) is touching


@pytest.mark.parametrize(("gap", "touching"), [(0.0, True), (0.9, True), (1.1, False)])
def test_touch_tolerance_at_an_edge(board, gap, touching):
    # left wall, y 90..140 is a blue colour segment
    dropped = piece("blue", "square", 17 + gap, 115)
    v = verdict(board, dropped)
    assert (Rule.EDGE in v.broken) is touching
    assert bool(v.edges) is touching


# --- edges: colour face, shape face, none -----------------------------------------------------


def test_colour_edge_of_the_same_colour_breaks_the_edge_rule(board):
    dropped = piece("blue", "square", 17.5, 115)  # left 90..140: blue
    v = verdict(board, dropped)
    assert v.broken == (Rule.EDGE,)
    assert [(e.side, e.symbol) for e in v.edges] == [("left", "blue")]


def test_colour_edge_of_another_colour_is_fine(board):
    dropped = piece("red", "square", 17.5, 115)
    v = verdict(board, dropped)
    assert v.valid
    assert [(e.side, e.symbol) for e in v.edges] == [("left", "blue")]


def test_shape_face_counts_shapes_not_colours(board):
    # left 100..150 on the shape face: triangle; a blue square there is fine...
    square = piece("blue", "square", 17.5, 125)
    v = verdict(board, square, edges="shape")
    assert v.valid
    assert [(e.side, e.symbol) for e in v.edges] == [("left", "triangle")]
    # ...and a triangle there breaks the edge rule, whatever its colour
    triangle = piece("red", "triangle", 20.5, 125, angle=90)
    v = verdict(board, triangle, edges="shape")
    assert v.broken == (Rule.EDGE,)


def test_no_edges_variant_ignores_every_edge(board):
    dropped = piece("blue", "square", 17.5, 115)
    v = verdict(board, dropped, edges="none")
    assert v.valid
    assert v.edges == ()


def test_bottom_and_right_edges(board):
    # bottom 150..225: blue on the colour face, circle on the shape face
    on_floor = piece("blue", "circle", 190, 18.5)
    assert verdict(board, on_floor).broken == (Rule.EDGE,)
    assert [(e.side, e.symbol) for e in verdict(board, on_floor).edges] == [("bottom", "blue")]
    assert verdict(board, on_floor, edges="shape").broken == (Rule.EDGE,)
    # right 100..150: red on the colour face
    at_right = piece("red", "square", 300 - 17.5, 125)
    assert [(e.side, e.symbol) for e in verdict(board, at_right).edges] == [("right", "red")]
    assert verdict(board, at_right).broken == (Rule.EDGE,)


def test_a_piece_across_two_segments_touches_both(board):
    dropped = piece("green", "square", 17.5, 140)  # left: blue 90..140, yellow 140..200
    v = verdict(board, dropped)
    assert [(e.side, e.symbol) for e in v.edges] == [("left", "blue"), ("left", "yellow")]
    assert v.valid


def test_a_piece_in_a_corner_touches_a_side_and_the_bottom(board):
    dropped = piece("yellow", "square", 17.5, 17.5)
    v = verdict(board, dropped)
    assert {(e.side, e.symbol) for e in v.edges} == {("left", "red"), ("bottom", "yellow")}
    assert v.broken == (Rule.EDGE,)


# --- height -----------------------------------------------------------------------------------


def test_sticking_out_above_the_top_breaks_the_height_rule(board):
    dropped = piece("red", "circle", 150, 300 - 18 + 0.5)
    v = verdict(board, dropped)
    assert v.broken == (Rule.HEIGHT,)
    assert v.level == 8
    assert v.points == 0


def test_just_below_the_top_is_level_8_and_valid(board):
    dropped = piece("red", "circle", 150, 300 - 18)
    v = verdict(board, dropped)
    assert v.valid
    assert v.level == 8


def test_all_four_rules_broken_are_listed_in_order(board):
    blue_square = piece("blue", "square", 300 - 17.5, 300 - 30, id="p1")
    dropped = piece("blue", "square", 300 - 17.5, 300 - 30 + 34.5)  # right 250..300: yellow
    v = verdict(board, dropped, blue_square)
    assert v.broken == (Rule.SHAPE, Rule.COLOR, Rule.HEIGHT)
    dropped_yellow = piece("yellow", "square", 300 - 17.5, 300 - 30 + 34.5)
    yellow_square = piece("yellow", "square", 300 - 17.5, 300 - 30, id="p1")
    v = verdict(board, dropped_yellow, yellow_square)
    assert v.broken == (Rule.SHAPE, Rule.COLOR, Rule.EDGE, Rule.HEIGHT)
    assert [str(r) for r in v.broken] == ["shape", "color", "edge", "height"]


# --- levels across slanted lines -------------------------------------------------------------


def test_the_same_height_is_a_different_level_on_either_side_of_a_slanted_line(board):
    # level 4's top line runs from (0, 156) down to (300, 144)
    left = piece("red", "square", 25, 152 - 17)
    right = piece("red", "square", 275, 152 - 17)
    assert verdict(board, left).level == 4
    assert verdict(board, right).level == 5


def test_a_ridged_line(board):
    # level 3's top line: (0, 106) up to (150, 118) down to (300, 106)
    middle = piece("red", "circle", 150, 117 - 18)
    side = piece("red", "circle", 40, 117 - 18)
    assert verdict(board, middle).level == 3
    assert verdict(board, side).level == 4


def test_the_highest_level_any_part_reaches_counts(board):
    # a diamond standing on the floor reaches 48 mm: level 1's line is at 32..44
    dropped = piece("green", "diamond", 150, 24.5)
    assert verdict(board, dropped).level == 2
    lying = piece("green", "diamond", 150, 16.5, angle=90)  # 32 tall when lying
    assert verdict(board, lying).level == 1


def test_a_piece_tangent_to_a_level_line_is_not_in_the_level_above(board):
    # level 1's line: y = 32 + 0.04 x; a circle below it, tangent at x near 150
    slope = 12 / 300
    line_y = 32 + slope * 150
    tangent_y = line_y - 18 * math.sqrt(1 + slope**2)
    assert verdict(board, piece("red", "circle", 150, tangent_y)).level == 1
    assert verdict(board, piece("red", "circle", 150, tangent_y + 0.01)).level == 2


# --- bonus circles ------------------------------------------------------------------------------


def test_one_bonus_circle(board):
    # small circle (3 points) at (150, 90) radius 8
    dropped = piece("red", "square", 150, 90)
    v = verdict(board, dropped)
    assert v.bonus == 3
    assert v.points == v.level + 3


def test_several_bonus_circles_add_up(board):
    # a diamond reaching from the small circle at (30, 110) to the medium one at (40, 170)
    dropped = piece("green", "diamond", 35, 140)
    v = verdict(board, dropped)
    assert sorted(c.points for c in v.bonus_circles) == [2, 3]
    assert v.bonus == 5
    assert v.points == v.level + 5


def test_a_tangent_bonus_circle_does_not_count_an_overlap_does(board):
    # small circle at (150, 90) radius 8; a square whose right side meets its leftmost point
    tangent = piece("red", "square", 150 - 8 - 17, 90)
    assert verdict(board, tangent).bonus == 0
    overlapping = piece("red", "square", 150 - 8 - 17 + 0.01, 90)
    assert verdict(board, overlapping).bonus == 3
    # the same for a circle piece: centre distance exactly the sum of radii
    assert verdict(board, piece("red", "circle", 150 - 26, 90)).bonus == 0
    assert verdict(board, piece("red", "circle", 150 - 25.99, 90)).bonus == 3


def test_a_rule_broken_scores_no_bonus_either(board):
    dropped = piece("blue", "square", 17.5, 163)  # on the medium circle, touching...
    blue = piece("blue", "circle", 17.5 + 17 + 18 + 0.5, 163, id="p1")  # ...a blue circle
    v = verdict(board, dropped, blue)
    assert v.bonus == 2
    assert v.points == 0


# --- rotated pieces ----------------------------------------------------------------------------


def test_rotation_changes_what_a_piece_reaches(board):
    # a square turned 45 degrees is 48 mm wide: at x = 24.5 it reaches the left wall
    upright = piece("blue", "square", 24.5, 115)
    turned = piece("blue", "square", 24.5, 115, angle=45)
    assert verdict(board, upright).edges == ()
    assert verdict(board, turned).broken == (Rule.EDGE,)


def test_a_triangle_turned_upside_down(board):
    # apex up, the triangle reaches 23.1 above its centroid; apex down only 11.5
    y = 152 - 11.547 - 1.0  # base 1 mm under level 4's line at the left (about 155)
    up = piece("red", "triangle", 30, 155 - TRIANGLE_APEX + 2)
    down = piece("red", "triangle", 30, y, angle=180)
    assert verdict(board, up).level == 5
    assert verdict(board, down).level == 4


def test_angles_wrap_around(board):
    a = piece("blue", "square", 24.5, 115, angle=45)
    b = piece("blue", "square", 24.5, 115, angle=45 + 360 * 3)
    c = piece("blue", "square", 24.5, 115, angle=45 - 90)
    assert verdict(board, a).to_json() == verdict(board, b).to_json() == verdict(board, c).to_json()


# --- the explanation a player reads ----------------------------------------------------------


def test_explanations(board):
    red_square = piece("red", "square", 150, 17.5, id="p1")
    dropped = piece("blue", "square", 150, 17.5 + 34.5)
    assert verdict(board, dropped, red_square).explain().startswith("blue square: ")
    on_blue_floor = piece("blue", "square", 190, 17.5)
    red_square = piece("red", "square", 190 + 34.5, 17.5, id="p1")
    blocked = piece("red", "square", 190, 17.5 + 34.5)
    assert verdict(board, blocked, on_blue_floor, red_square).explain() == (
        "red square: 0 points — it touches the blue square (same shape) and the red square "
        "(same shape and colour)"
    )
    assert verdict(board, on_blue_floor).explain() == (
        "blue square: 0 points — it touches the blue edge at the bottom (same colour)"
    )
    high = piece("red", "circle", 150, 290)
    assert verdict(board, high).explain() == "red circle: 0 points — it sticks out above the top"
    triangle = piece("red", "triangle", 20.5, 125, angle=90)
    assert verdict(board, triangle, edges="shape").explain() == (
        "red triangle: 0 points — it touches the triangle edge on the left (same shape)"
    )
    top_square = piece("red", "square", 150, 300 - 17, id="p1")
    stuck = piece("blue", "square", 150 + 34.5, 300 - 10)
    assert verdict(board, stuck, top_square).explain() == (
        "blue square: 0 points — it touches the red square (same shape), and it sticks out "
        "above the top"
    )
