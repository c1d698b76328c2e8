"""The board file: the reference board loads, and every impossible value is refused clearly."""

from __future__ import annotations

import copy
import json

import pytest

from firmware_host.cli import main
from firmware_host.config.board import load_board
from firmware_host.errors import InputError
from tests.builders import write_yaml


def test_reference_board_matches_the_brief(board):
    assert board.width == pytest.approx(300, abs=20)
    assert board.height == pytest.approx(300, abs=20)
    assert [line.level for line in board.levels] == list(range(1, 9))
    slanted = [line for line in board.levels[:-1] if len({y for _, y in line.top}) > 1]
    assert len(slanted) == 7, "every level line below the top is slanted"
    assert sorted({c.points for c in board.bonus_circles}) == [1, 2, 3]
    by_points = {c.points: c.radius for c in board.bonus_circles}
    assert by_points[1] > by_points[2] > by_points[3], "large 1 point, medium 2, small 3"
    for face in ("color", "shape"):
        assert {s.side for s in getattr(board.edges, face)} == {"left", "right", "bottom"}
    assert board.touch_tolerance == pytest.approx(1.0)


def test_board_json_has_the_contract_keys(capsys):
    assert main(["board", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    for key in ("width", "height", "touch_tolerance", "levels", "bonus_circles", "edges", "shapes"):
        assert key in data
    assert data["levels"][-1] == {"level": 8, "top": [[0.0, 300.0], [300.0, 300.0]]}
    assert set(data["bonus_circles"][0]) == {"x", "y", "radius", "points"}
    assert set(data["edges"]) == {"color", "shape"}
    assert set(data["edges"]["color"][0]) == {"side", "from", "to", "symbol"}
    assert set(data["shapes"]) == {"circle", "square", "diamond", "triangle"}
    assert set(data["shapes"]["circle"]) == {"radius"}
    assert len(data["shapes"]["triangle"]["vertices"]) == 3


def test_board_text_summary(capsys):
    assert main(["board"]) == 0
    out = capsys.readouterr().out
    assert "drop zone 300 x 300 mm" in out
    assert "level 3: (0, 106) -> (150, 118) -> (300, 106)" in out


def test_board_json_round_trips_as_a_board_file(tmp_path, capsys):
    main(["board", "--json"])
    path = tmp_path / "copy.yaml"
    path.write_text(capsys.readouterr().out)
    assert load_board(path) == load_board()


BROKEN = [
    ("unknown key", lambda d: d.update(colour="red"), "colour", "unknown key"),
    ("no version", lambda d: d.pop("version"), "version", "required key is missing"),
    ("wrong version", lambda d: d.update(version=2), "version", "input should be 1"),
    ("text for a number", lambda d: d.update(width="wide"), "width", "valid number"),
    ("negative width", lambda d: d.update(width=-1.0), "width", "greater than 0"),
    (
        "circle outside",
        lambda d: d["bonus_circles"][2].update(x=290.0),
        "bonus_circles[2]",
        "reaches outside the drop zone",
    ),
    (
        "circle radius 0",
        lambda d: d["bonus_circles"][0].update(radius=0),
        "bonus_circles[0].radius",
        "greater than 0",
    ),
    (
        "overlapping edge segments",
        lambda d: d["edges"]["color"][1].update({"from": 30}),
        "edges.color",
        "left segments 0-40 and 30-90 overlap",
    ),
    (
        "segment beyond the edge",
        lambda d: d["edges"]["shape"][5].update(to=320),
        "edges.shape[5]",
        "leaves the edge",
    ),
    (
        "segment from after to",
        lambda d: d["edges"]["color"][0].update({"from": 50}),
        "edges.color[0]",
        "must be less than 'to'",
    ),
    (
        "colour symbol on the shape face",
        lambda d: d["edges"]["shape"][0].update(symbol="red"),
        "edges.shape[0].symbol",
        "unknown symbol 'red'",
    ),
    (
        "unknown side",
        lambda d: d["edges"]["color"][0].update(side="top"),
        "edges.color[0].side",
        "",
    ),
    (
        "level line above the top",
        lambda d: d["levels"][6].update(top=[[0, 256], [150, 310], [300, 256]]),
        "levels[6].top",
        "leaves the drop zone",
    ),
    (
        "level line short of the wall",
        lambda d: d["levels"][0].update(top=[[0, 32], [290, 44]]),
        "levels[0].top",
        "from the left wall",
    ),
    (
        "level line below the one beneath",
        lambda d: d["levels"][1].update(top=[[0, 80], [300, 40]]),
        "levels[1].top",
        "not above the line of level 1",
    ),
    (
        "levels out of order",
        lambda d: d["levels"][1].update(level=3),
        "levels[1].level",
        "expected 2",
    ),
    (
        "top level below the top edge",
        lambda d: d["levels"][7].update(top=[[0, 290], [300, 290]]),
        "levels[7].top",
        "top edge",
    ),
    (
        "concave polygon",
        lambda d: d["shapes"]["square"].update(vertices=[[-17, -17], [17, -17], [0, 0], [-17, 17]]),
        "shapes.square.vertices",
        "convex",
    ),
    (
        "clockwise polygon",
        lambda d: d["shapes"]["square"].update(
            vertices=[[-17, -17], [-17, 17], [17, 17], [17, -17]]
        ),
        "shapes.square.vertices",
        "counter-clockwise",
    ),
    (
        "polygon off its centroid",
        lambda d: d["shapes"]["triangle"].update(vertices=[[-20, 0], [20, 0], [0, 34.641]]),
        "shapes.triangle.vertices",
        "centroid",
    ),
    (
        "missing shape",
        lambda d: d["shapes"].pop("diamond"),
        "shapes.diamond",
        "required key is missing",
    ),
    ("touch tolerance too big", lambda d: d.update(touch_tolerance=20), "touch_tolerance", "5"),
]


@pytest.mark.parametrize(("label", "edit", "where", "problem"), BROKEN, ids=[b[0] for b in BROKEN])
def test_impossible_boards_are_refused(tmp_path, reference_data, label, edit, where, problem):
    data = copy.deepcopy(reference_data)
    edit(data)
    path = write_yaml(tmp_path / "board.yaml", data)
    with pytest.raises(InputError) as caught:
        load_board(path)
    assert caught.value.source == str(path)
    assert caught.value.where == where
    assert problem.lower() in caught.value.problem.lower()


def test_malformed_board_yaml_names_the_line(tmp_path):
    path = tmp_path / "board.yaml"
    path.write_text("version: 1\nwidth: [300\n")
    with pytest.raises(InputError) as caught:
        load_board(path)
    assert "line" in caught.value.where
    assert "malformed YAML" in caught.value.problem


def test_bad_board_on_the_command_line_exits_2_with_one_line(tmp_path, reference_data, capsys):
    reference_data["bonus_circles"][0]["x"] = 5.0
    path = write_yaml(tmp_path / "board.yaml", reference_data)
    assert main(["board", "--board", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert f"{path}: bonus_circles[0]: circle at (5, 60) radius 22" in captured.err


def test_missing_board_file(tmp_path, capsys):
    assert main(["board", "--board", str(tmp_path / "nope.yaml")]) == 2
    assert "file not found" in capsys.readouterr().err
