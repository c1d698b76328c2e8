"""``tabletop simulate``: its JSON contract, reproducibility (in and across processes), new
boards after 36 drops, position files the judge accepts, and 1000 random drops that all
settle inside the drop zone."""

import json
import subprocess
import sys

import pytest
import yaml

from firmware_host.cli import main
from firmware_host.config.board import EdgeFace, load_board
from firmware_host.games.dropit.rules.geometry import PieceSpace, extent, piece_shape
from firmware_host.games.dropit.rules.landing import check_position, judge
from firmware_host.games.dropit.rules.position import parse_position
from firmware_host.model import load_params
from firmware_host.model.position_file import position_yaml
from firmware_host.model.supply import GAME_DROPS, play

BOARD = load_board()
PARAMS = load_params()
SLOP_MM = 0.5
"""What a pile may press pieces into each other and the walls (docs/physics.md)."""

POSE_KEYS = ["id", "color", "shape", "x", "y", "angle"]


def _simulate(capsys, *args):
    status = main(["simulate", *args])
    assert status == 0
    return capsys.readouterr().out


def test_json_output_follows_the_contract(capsys):
    out = json.loads(_simulate(capsys, "--drops", "5", "--seed", "4", "--json"))
    assert list(out) == ["seed", "drops", "wall_time_s"]
    assert out["seed"] == 4
    assert out["wall_time_s"] > 0
    assert len(out["drops"]) == 5
    for n, drop in enumerate(out["drops"], start=1):
        assert list(drop) == ["dropped", "pieces", "settled", "sim_time_s"]
        assert list(drop["dropped"]) == POSE_KEYS
        assert drop["dropped"]["id"] == f"p{n}"
        assert [p["id"] for p in drop["pieces"]] == [f"p{i}" for i in range(1, n + 1)]
        assert drop["pieces"][-1] == drop["dropped"]
        assert all(list(p) == POSE_KEYS for p in drop["pieces"])
        assert drop["settled"] is True
        assert drop["sim_time_s"] > 0
        assert 0 <= drop["dropped"]["angle"] < 360
    supply = [(d["dropped"]["color"], d["dropped"]["shape"]) for d in out["drops"]]
    assert supply[:5] == [
        ("red", "circle"),
        ("blue", "circle"),
        ("yellow", "circle"),
        ("green", "circle"),
        ("red", "square"),
    ]


def _without_wall_time(text):
    out = json.loads(text)
    del out["wall_time_s"]
    return out


def test_the_same_seed_twice_gives_identical_output_and_another_seed_does_not(capsys):
    first = _without_wall_time(_simulate(capsys, "--drops", "8", "--seed", "21", "--json"))
    second = _without_wall_time(_simulate(capsys, "--drops", "8", "--seed", "21", "--json"))
    other = _without_wall_time(_simulate(capsys, "--drops", "8", "--seed", "22", "--json"))
    assert first == second
    assert first["drops"] != other["drops"]


def test_another_process_gives_the_same_poses_bit_for_bit(capsys):
    here = _without_wall_time(_simulate(capsys, "--drops", "36", "--seed", "9", "--json"))
    code = "from firmware_host.cli import main; main()"
    there = subprocess.run(
        [sys.executable, "-c", code, "simulate", "--drops", "36", "--seed", "9", "--json"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert _without_wall_time(there.stdout) == here


def test_a_new_board_starts_after_a_whole_game(capsys):
    out = json.loads(_simulate(capsys, "--drops", str(GAME_DROPS + 2), "--seed", "2", "--json"))
    counts = [len(d["pieces"]) for d in out["drops"]]
    assert counts == [*range(1, GAME_DROPS + 1), 1, 2]
    assert out["drops"][GAME_DROPS]["dropped"]["id"] == f"p{GAME_DROPS + 1}"


def test_the_summary_says_where_each_shape_came_to_rest(capsys):
    out = _simulate(capsys, "--drops", "2", "--seed", "1")
    lines = out.splitlines()
    assert lines[0] == "game 1, empty board"
    assert lines[1].startswith("drop 1 (p1): red circle let go at x=")
    assert "settled after" in lines[1] and lines[1].endswith("1 piece on the board")
    assert lines[2].endswith("2 pieces on the board")
    assert lines[3].startswith("2 drops: ") and "simulated in" in lines[3]


def test_one_drop_is_one_drop(capsys):
    out = _simulate(capsys, "--drops", "1", "--seed", "1")
    assert out.splitlines()[-1].startswith("1 drop: ")


def test_position_files_written_for_each_drop_are_judged(tmp_path, capsys):
    _simulate(capsys, "--drops", "6", "--seed", "3", "--positions", str(tmp_path / "pos"))
    files = sorted((tmp_path / "pos").iterdir())
    assert [f.name for f in files] == [f"drop-{n:04d}.yaml" for n in range(1, 7)]
    last = yaml.safe_load(files[-1].read_text())
    assert last["edges"] == "color" and last["dropped"]["id"] == "p6"
    assert len(last["pieces"]) == 5
    for path in files:
        assert main(["judge", str(path), "--json"]) == 0
        verdict = json.loads(capsys.readouterr().out)
        assert verdict["level"] >= 1


def test_a_bad_physics_file_exits_2_naming_file_and_key(tmp_path, capsys):
    bad = tmp_path / "physics.yaml"
    bad.write_text("version: 1\ngravity: -3\n")
    assert main(["simulate", "--drops", "1", "--physics", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"tabletop simulate: {bad}: gravity: ")


def test_a_negative_drop_count_is_refused(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["simulate", "--drops", "-1"])
    assert caught.value.code == 2
    assert "expected a whole number of 0 or more" in capsys.readouterr().err


def test_the_judge_accepts_every_state_of_four_random_games():
    faces = list(EdgeFace)
    for sim in play(BOARD, PARAMS, 4 * GAME_DROPS, seed=77):
        face = faces[sim.number % len(faces)]
        text = position_yaml(sim.pieces, sim.result.piece.id, face)
        position = parse_position(yaml.safe_load(text), f"drop {sim.number}")
        check_position(BOARD, position, f"drop {sim.number}")
        assert judge(BOARD, position).dropped.id == sim.result.piece.id


def test_a_thousand_random_drops_settle_inside_the_drop_zone_without_overlaps():
    """28 games of 36 shapes: every drop settles within the cap, every piece stays in the
    drop zone and no two overlap by more than the slop, after every drop."""
    drops = 0
    for sim in play(BOARD, PARAMS, 28 * GAME_DROPS, seed=1000):
        drops += 1
        assert sim.result.settled, f"drop {sim.number} did not settle"
        assert sim.result.sim_time_s <= PARAMS.settle.cap
        shrunk = PieceSpace(BOARD, sim.pieces, grow=-SLOP_MM / 2)
        for piece in sim.pieces:
            shape = piece_shape(BOARD, piece.shape, piece.pose)
            box = extent(shape)
            where = f"drop {sim.number}: {piece.id}"
            assert box.left > -SLOP_MM and box.right < BOARD.width + SLOP_MM, where
            assert box.bottom > -SLOP_MM, where
            inner = piece_shape(BOARD, piece.shape, piece.pose, grow=-SLOP_MM / 2)
            assert [other.id for other in shrunk.met_by(inner)] == [piece.id], where
    assert drops == 1008
