"""The board drawing: level lines, bonus circles, edge symbols, pieces at their poses, offenders."""

import math
import xml.etree.ElementTree as ET
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.games.dropit.rules.pieces import Color, Piece, Pose, Shape
from firmware_host.games.dropit.state import replay
from firmware_host.games.dropit.svg import board_svg
from firmware_host.games.dropit.view import DropItView
from tests.web.support import EASY, FOUR, TEAMS, report


def drawing(view: DropItView) -> ET.Element:
    return ET.fromstring(board_svg(view))


def classes(element: ET.Element) -> set[str]:
    return set(element.get("class", "").split())


def of_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in classes(e)]


def points(element: ET.Element) -> list[tuple[float, float]]:
    return [tuple(map(float, p.split(","))) for p in element.get("points").split()]


def test_level_lines_are_the_boards_slanted_lines(board):
    root = drawing(DropItView(board, report(FOUR).state, "g"))
    lines = of_class(root, "level-line")
    assert [int(e.get("data-level")) for e in lines] == list(range(1, len(board.levels)))
    for element, line in zip(lines, board.levels, strict=False):
        assert points(element) == [(x, board.height - y) for x, y in line.top]
    # the reference board's lines are slanted: their ends differ in height
    assert any(pts[0][1] != pts[-1][1] for pts in map(points, lines))
    assert [e.text for e in of_class(root, "level-number")] == [str(k) for k in range(1, 9)]


def test_bonus_circles_where_the_board_prints_them(board):
    root = drawing(DropItView(board, report(FOUR).state, "g"))
    circles = of_class(root, "bonus")
    assert len(circles) == len(board.bonus_circles)
    for element, circle in zip(circles, board.bonus_circles, strict=True):
        assert float(element.get("cx")) == circle.x
        assert float(element.get("cy")) == board.height - circle.y
        assert float(element.get("r")) == circle.radius
        assert int(element.get("data-points")) == circle.points


def test_scored_circles_are_marked(board):
    refereed = report(FOUR)
    # turn 3: Cleo's yellow square scores a +2 bonus circle
    verdict = refereed.turns[2].verdict
    assert verdict.bonus == 2
    root = drawing(DropItView(board, replay(refereed.events[:4]), "g", verdict=verdict))
    scored = of_class(root, "scored")
    assert [(float(e.get("cx")), int(e.get("data-points"))) for e in scored] == [
        (c.x, c.points) for c in verdict.bonus_circles
    ]


def test_edge_symbols_of_the_active_face_only(board):
    colour = drawing(DropItView(board, report(FOUR).state, "g"))
    assert [(e.get("data-side"), e.get("data-symbol")) for e in of_class(colour, "edge")] == [
        (str(s.side), s.symbol) for s in board.edges.color
    ]
    shape = drawing(DropItView(board, report(TEAMS).state, "g"))
    assert [e.get("data-symbol") for e in of_class(shape, "edge")] == [
        s.symbol for s in board.edges.shape
    ]
    assert len(of_class(shape, "glyph")) == len(board.edges.shape)
    easy = drawing(DropItView(board, report(EASY).state, "g"))
    assert of_class(easy, "edge") == []


def test_every_piece_is_drawn_at_its_pose(board):
    state = report(FOUR).state
    root = drawing(DropItView(board, state, "g"))
    drawn = {e.get("data-id"): e for e in of_class(root, "piece")}
    assert set(drawn) == {p.id for p in state.board}
    for piece in state.board:
        element = drawn[piece.id]
        assert element.get("data-color") == piece.color
        assert element.get("data-shape") == piece.shape
        x, y = centre(element)
        assert math.isclose(x, piece.pose.x, abs_tol=0.02)
        assert math.isclose(board.height - y, piece.pose.y, abs_tol=0.02)


def test_offending_contacts_are_highlighted(board):
    refereed = report(FOUR)
    verdict = refereed.turns[12].verdict  # red circle on the red circle t9
    state = replay(refereed.events[:14])
    assert state.drops[-1].turn == 13
    root = drawing(DropItView(board, state, "g", verdict=verdict))
    assert [e.get("data-id") for e in of_class(root, "offender")] == ["t9"]
    assert [e.get("data-id") for e in of_class(root, "dropped")] == ["t13"]
    edge_verdict = refereed.turns[0].verdict  # red diamond on the red bottom edge
    root = drawing(DropItView(board, replay(refereed.events[:2]), "g", verdict=edge_verdict))
    assert [(e.get("data-side"), e.get("data-symbol")) for e in of_class(root, "offender")] == [
        ("bottom", "red")
    ]


def test_names_are_escaped(board):
    state = report(FOUR).state
    odd = Piece('x"><script>', Color.RED, Shape.CIRCLE, Pose(150, 250))
    svg = board_svg(DropItView(board, replace(state, board=(odd,)), "g"))
    assert "<script>" not in svg
    assert [e.get("data-id") for e in of_class(ET.fromstring(svg), "piece")] == [odd.id]


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(list(Shape)),
    st.floats(30, 270),
    st.floats(30, 270),
    st.floats(-360, 360),
)
def test_any_pose_is_drawn_centred_and_turned(board, shape, x, y, angle):
    state = report(FOUR).state
    piece = Piece("p", Color.BLUE, shape, Pose(x, y, angle))
    view = DropItView(board, replace(state, board=(piece,)), "g")
    (element,) = of_class(drawing(view), "piece")
    cx, cy = centre(element)
    assert math.isclose(cx, x, abs_tol=0.02) and math.isclose(board.height - cy, y, abs_tol=0.02)
    if shape is not Shape.CIRCLE:
        first = points(element)[0]
        vx, vy = board.shapes.of(shape).vertices[0]
        turn = math.radians(angle)
        expected = (
            x + vx * math.cos(turn) - vy * math.sin(turn),
            y + vx * math.sin(turn) + vy * math.cos(turn),
        )
        assert math.isclose(first[0], expected[0], abs_tol=0.01)
        assert math.isclose(board.height - first[1], expected[1], abs_tol=0.01)


def centre(element: ET.Element) -> tuple[float, float]:
    """A drawn piece's centre: the circle's, or the polygon's area centroid."""
    if element.tag.endswith("circle"):
        return float(element.get("cx")), float(element.get("cy"))
    pts = points(element)
    area = cx = cy = 0.0
    for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1], strict=True):
        cross = x0 * y1 - x1 * y0
        area += cross
        cx += (x0 + x1) * cross
        cy += (y0 + y1) * cross
    return cx / (3 * area), cy / (3 * area)
