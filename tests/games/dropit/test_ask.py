"""The referee's questions as players see them: plain words (no ids, no millimetres), the
piece asked about drawn as a ghost, and the thing asked about lit up on the board."""

import re
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest

from firmware_host.config.board import EdgeFace
from firmware_host.games.dropit.ask import Mark, plain_question, where
from firmware_host.games.dropit.rules.pieces import Color, Piece, Pose, Shape
from firmware_host.games.dropit.svg import board_svg
from firmware_host.games.dropit.view import DropItView, Question
from firmware_host.i18n import translator
from tests.web.support import FOUR, report

GHOST = Piece("t17", Color.YELLOW, Shape.SQUARE, Pose(150.0, 90.0, 10.0))


def state():
    return report(FOUR).state


def features(board, pieces):
    return [
        *(f"touch:{p.id}" for p in pieces),
        "edge:left",
        "edge:bottom",
        "edge:right",
        "height",
        *(f"level:{n}" for n in range(2, 8)),
        *(f"bonus:{k}" for k in range(len(board.bonus_circles))),
    ]


def test_every_question_is_in_plain_words_and_lights_something_up(board):
    pieces = state().board
    for feature in features(board, pieces):
        message, mark = plain_question(feature, GHOST, pieces, board)
        words = str(message)
        assert words.startswith(("Is the yellow square", "Does")) and words.endswith("?")
        assert "lit-up" in words, words
        assert not re.search(r"\bt\d+\b|\bmm\b|x=|y=|\(", words.replace("(above", "")), words
        german = message(translator("de"))
        assert german.endswith("?") and "hervorgehoben" in german and "das gelbe Quadrat" in german
        assert mark is not None
        assert feature.endswith(mark.ref) or mark.kind == "top"


def test_a_piece_with_a_twin_on_the_board_is_told_by_where_it_lies(board):
    a = Piece("t1", Color.BLUE, Shape.TRIANGLE, Pose(40.0, 20.0, 0.0))
    b = Piece("t2", Color.BLUE, Shape.TRIANGLE, Pose(260.0, 250.0, 0.0))
    words, mark = plain_question("touch:t2", GHOST, (a, b), board)
    assert (str(words), mark) == (
        "Is the yellow square touching the lit-up blue triangle, high on the right?",
        Mark("piece", "t2"),
    )
    assert words(translator("de")) == (
        "Berührt das gelbe Quadrat das hervorgehobene blaue Dreieck oben rechts?"
    )
    assert str(plain_question("touch:t1", GHOST, (a,), board)[0]) == (
        "Is the yellow square touching the lit-up blue triangle?"
    )
    assert str(where(board, 0.0, 0.0)) == "low on the left"
    assert str(where(board, board.width, board.height)) == "high on the right"
    assert plain_question("touch:t9", GHOST, (a,), board) == (None, None)
    assert plain_question("colour", GHOST, (a,), board) == (None, None)


def lit(svg: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [e for e in root.iter() if "asked" in e.get("class", "").split()]


@pytest.mark.parametrize(
    ("mark", "tag", "attribute", "value"),
    [
        (Mark("piece", "t3"), "polygon", "data-id", "t3"),
        (Mark("circle", "2"), "circle", "data-index", "2"),
        (Mark("level", "4"), "polyline", "data-level", "3"),
        (Mark("edge", "left"), "g", "data-side", "left"),
        (Mark("edge", "bottom"), "g", "data-side", "bottom"),
        (Mark("top"), "line", "data-side", "top"),
    ],
)
def test_the_board_draws_the_ghost_and_lights_up_what_is_asked(board, mark, tag, attribute, value):
    game = state()
    if mark.kind == "piece":
        value = next(p.id for p in game.board if p.shape is not Shape.CIRCLE)
    mark = Mark(mark.kind, value if mark.kind == "piece" else mark.ref)
    question = Question("q1", "words", "Ann", GHOST, mark)
    svg = board_svg(DropItView(board, game, "g", question=question))
    (element,) = lit(svg)
    assert element.tag.endswith(tag) and element.get(attribute) == value
    root = ET.fromstring(svg)
    (ghost,) = [e for e in root.iter() if "ghost" in e.get("class", "").split()]
    assert (ghost.get("data-color"), ghost.get("data-x"), ghost.get("data-angle")) == (
        "yellow",
        "150",
        "10",
    )
    # without a question nothing is lit and no ghost is drawn
    plain = board_svg(DropItView(board, game, "g"))
    assert lit(plain) == [] and "ghost" not in plain


def test_an_edge_question_lights_up_the_parts_of_the_side_showing_the_pieces_own_symbol(board):
    game = state()
    question = Question("q1", "words", "Ann", GHOST, Mark("edge", "right"))
    svg = board_svg(DropItView(board, game, "g", question=question))
    # the right side shows yellow twice (and blue, red, green): the yellow square's own
    # colour is what the edge rule turns on, so both yellow parts and nothing else
    assert [(e.get("data-side"), e.get("data-symbol")) for e in lit(svg)] == [
        ("right", "yellow"),
        ("right", "yellow"),
    ]
    variants = replace(game.started.variants, edges=EdgeFace.SHAPE)
    shape_face = replace(game, started=replace(game.started, variants=variants))
    svg = board_svg(DropItView(board, shape_face, "g", question=question))
    assert [(e.get("data-side"), e.get("data-symbol")) for e in lit(svg)] == [("right", "square")]
    # with no ghost to take the symbol from, the whole side is lit
    svg = board_svg(DropItView(board, game, "g", question=replace(question, ghost=None)))
    assert [(e.tag.rsplit("}", 1)[-1], e.get("data-side")) for e in lit(svg)] == [("line", "right")]
