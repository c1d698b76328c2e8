"""``tabletop judge``: the contract output, the plain-words verdict, and every kind of bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import yaml

from firmware_host.cli import main
from tests.builders import ROOT, write_yaml

WORKED = {
    "edges": "color",
    "pieces": [
        {"id": "p1", "color": "red", "shape": "triangle", "x": 22.0, "y": 122.406, "angle": 0}
    ],
    "dropped": {"color": "blue", "shape": "square", "x": 17.5, "y": 163.0, "angle": 0},
}


def judge(tmp_path, capsys, data, *extra):
    path = tmp_path / "position.yaml"
    if isinstance(data, str):
        path.write_text(data)
    else:
        write_yaml(path, data)
    status = main(["judge", str(path), *extra])
    out, err = capsys.readouterr()
    return status, out, err, path


def test_plain_words_verdict(tmp_path, capsys):
    status, out, _, _ = judge(tmp_path, capsys, WORKED)
    assert status == 0
    assert out == (
        "blue square: 7 points — level 5, +2 bonus circle; it touches the red triangle and the "
        "yellow edge on the left; no rule broken\n"
    )


def test_json_verdict_keys_exactly_as_the_contract(tmp_path, capsys):
    status, out, _, _ = judge(tmp_path, capsys, WORKED, "--json")
    assert status == 0
    verdict = json.loads(out)
    assert list(verdict) == ["valid", "broken", "level", "bonus", "points", "touching", "edges"]


def test_the_shipped_worked_example_runs_as_a_program():
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "firmware_host",
            "judge",
            "examples/positions/worked_example.yaml",
            "--json",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["points"] == 7


def test_a_broken_rule_in_json(tmp_path, capsys):
    data = {
        "edges": "shape",
        "pieces": [{"id": "a", "color": "red", "shape": "square", "x": 100, "y": 17}],
        "dropped": {"color": "red", "shape": "square", "x": 100, "y": 51.5},
    }
    _, out, _, _ = judge(tmp_path, capsys, data, "--json")
    verdict = json.loads(out)
    assert verdict["valid"] is False
    assert verdict["broken"] == ["shape", "color"]
    assert verdict["points"] == 0
    assert verdict["touching"] == [{"id": "a", "color": "red", "shape": "square"}]


def edited(**changes):
    data = json.loads(json.dumps(WORKED))
    for path, value in changes.items():
        target = data
        keys = path.split("__")
        for key in keys[:-1]:
            target = target[int(key)] if key.isdigit() else target[key]
        last = keys[-1]
        if value is None:
            del target[last]
        else:
            target[last] = value
    return data


BAD = [
    ("unknown colour", edited(pieces__0__color="purple"), "pieces[0] (id p1).color", "purple"),
    ("unknown shape", edited(dropped__shape="star"), "dropped.shape", "star"),
    ("unknown edges", edited(edges="colour"), "edges", "colour"),
    ("text for a number", edited(dropped__x="left"), "dropped.x", "valid number"),
    ("missing dropped", edited(dropped=None), "dropped", "required key is missing"),
    ("unknown key", edited(dropped__colour="red"), "dropped.colour", "unknown key"),
    ("not a number", edited(pieces__0__y=float("nan")), "pieces[0] (id p1).y", "finite"),
    (
        "duplicate ids",
        edited(dropped__id="p1"),
        "dropped.id",
        "id 'p1' is used by another piece",
    ),
    (
        "overlapping pieces",
        edited(pieces__0__y=140.0),
        "pieces[0] (id p1)",
        "overlaps dropped (blue square) by more than 2 mm",
    ),
    (
        "through the left wall",
        edited(dropped__x=14.0),
        "dropped",
        "goes 3.0 mm through the left wall",
    ),
    ("through the floor", edited(pieces__0__y=8.0), "pieces[0] (id p1)", "through the floor"),
    (
        "through the right wall",
        edited(dropped__x=290.0),
        "dropped",
        "through the right wall",
    ),
    ("above the drop zone", edited(dropped__y=330.0), "dropped", "wholly above the top"),
]


@pytest.mark.parametrize(("label", "data", "where", "problem"), BAD, ids=[b[0] for b in BAD])
def test_bad_input_exits_2_with_one_line_and_no_verdict(
    tmp_path, capsys, label, data, where, problem
):
    status, out, err, path = judge(tmp_path, capsys, data, "--json")
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith(f"tabletop judge: {path}: {where}: ")
    assert problem in err


def test_malformed_yaml(tmp_path, capsys):
    status, out, err, path = judge(tmp_path, capsys, "edges: color\npieces: [\n")
    assert status == 2
    assert out == ""
    assert f"{path}: line 3, column 1: malformed YAML" in err


def test_not_a_mapping(tmp_path, capsys):
    status, _, err, _ = judge(tmp_path, capsys, "- just\n- a list\n")
    assert status == 2
    assert "expected a mapping" in err


def test_missing_file(tmp_path, capsys):
    assert main(["judge", str(tmp_path / "nope.yaml")]) == 2
    assert "file not found" in capsys.readouterr().err


def test_within_two_millimetres_is_measurement_slack_not_bad_input(tmp_path, capsys):
    status, out, _, _ = judge(tmp_path, capsys, edited(dropped__x=15.5), "--json")
    assert status == 0
    assert json.loads(out)["edges"] == [{"side": "left", "symbol": "yellow"}]


def test_a_pose_partly_above_the_top_is_the_height_rule_not_bad_input(tmp_path, capsys):
    status, out, _, _ = judge(
        tmp_path, capsys, edited(dropped__y=290.0, dropped__x=150.0), "--json"
    )
    assert status == 0
    assert json.loads(out)["broken"] == ["height"]


def test_another_board(tmp_path, capsys):
    board = yaml.safe_load((ROOT / "config/boards/reference.yaml").read_text())
    board["touch_tolerance"] = 0.1
    board_path = write_yaml(tmp_path / "board.yaml", board)
    # the triangle's apex is 0.5 mm under the square: touching at 1 mm, not at 0.1 mm
    _, out, _, _ = judge(tmp_path, capsys, WORKED, "--json", "--board", str(board_path))
    assert json.loads(out)["touching"] == []
