"""The pieces file of `tabletop camera look`: priors, the dropped piece, and bad input."""

import pytest

from firmware_host.camera.pieces_file import load_pieces, parse_pieces
from firmware_host.config.board import EdgeFace
from firmware_host.errors import InputError
from firmware_host.games.dropit.rules.pieces import Color, Pose, Shape


def test_priors_and_a_piece_without_one(tmp_path):
    path = tmp_path / "pieces.yaml"
    path.write_text(
        "edges: shape\n"
        "pieces:\n"
        "  - {id: p1, color: red, shape: triangle, x: 120.0, y: 17.3, angle: 30}\n"
        "  - {id: p2, color: green, shape: circle, x: 40, y: 18}\n"
        "  - {id: p9, color: blue, shape: square}\n"
    )
    known = load_pieces(path)
    assert known.edges is EdgeFace.SHAPE
    assert [p.id for p in known.pieces] == ["p1", "p2", "p9"]
    assert known.pieces[0].prior == Pose(120.0, 17.3, 30.0)
    assert known.pieces[1].prior == Pose(40.0, 18.0, 0.0)
    assert known.pieces[2].prior is None
    assert known.by_id("p9").color is Color.BLUE and known.by_id("p9").shape is Shape.SQUARE
    assert known.by_id("p7") is None


def test_edges_default_to_colour():
    known = parse_pieces({"pieces": [{"id": "a", "color": "red", "shape": "circle"}]}, "f")
    assert known.edges is EdgeFace.COLOR


@pytest.mark.parametrize(
    ("data", "where", "problem"),
    [
        ({"pieces": [{"id": "a", "color": "pink", "shape": "circle"}]}, "pieces[0].color", "red"),
        ({"pieces": [{"id": "a", "color": "red", "shape": "star"}]}, "pieces[0].shape", "circle"),
        ({"pieces": [{"id": "a", "color": "red", "shape": "circle", "x": 3}]}, "pieces[0]",
         "both x and y"),
        ({"pieces": [{"id": "a", "color": "red", "shape": "circle", "angle": 3}]}, "pieces[0]",
         "angle needs x and y"),
        ({"pieces": [{"id": "a", "color": "red", "shape": "circle", "z": 3}]}, "pieces[0].z",
         "unknown key"),
        ({"pieces": [{"id": "a", "color": "red", "shape": "circle"},
                     {"id": "a", "color": "blue", "shape": "circle"}]}, "pieces[1].id",
         "used by another piece"),
        ({"pieces": []}, "pieces", "at least 1"),
        ({"edges": "colour", "pieces": [{"id": "a", "color": "red", "shape": "circle"}]},
         "edges", "color"),
        (["not", "a", "mapping"], "(top level)", "mapping"),
    ],
)
def test_bad_pieces_files_name_the_place(data, where, problem):
    with pytest.raises(InputError) as caught:
        parse_pieces(data, "pieces.yaml")
    assert caught.value.source == "pieces.yaml"
    assert caught.value.where.startswith(where)
    assert problem in caught.value.problem


def test_malformed_yaml(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("pieces: [\n")
    with pytest.raises(InputError, match="malformed YAML"):
        load_pieces(path)
