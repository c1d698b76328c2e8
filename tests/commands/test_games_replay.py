"""``tabletop games`` and ``tabletop replay``: the JSON contracts, the --yaml round trip, errors."""

import json
import sqlite3

import pytest

from firmware_host.cli import main
from firmware_host.games.dropit.events import Ruling, ShapeDropped
from firmware_host.journal.dropit import DropItRecord, load_events
from firmware_host.journal.store import Journal
from tests.journal_support import GAMES, FakeWallClock, journal_example

EXAMPLES = ("two_teams_jokers_shape_edges", "four_players_base", "three_players_easy")


@pytest.fixture
def journal_path(tmp_path):
    path = tmp_path / "journal.sqlite3"
    with Journal(path, clock=FakeWallClock(step=60)) as journal:
        for name in EXAMPLES:
            journal_example(journal, name)
    return path


def run_json(capsys, *argv):
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def referee_json(capsys, path):
    return run_json(capsys, "referee", str(path))


def test_games_lists_newest_first_exactly_as_the_contract(capsys, journal_path):
    listed = run_json(capsys, "games", "--journal", str(journal_path))
    # the fake clock moves 60 s per reading; each game reads it once per event
    teams = referee_json(capsys, GAMES / "two_teams_jokers_shape_edges.yaml")
    four = referee_json(capsys, GAMES / "four_players_base.yaml")
    three = referee_json(capsys, GAMES / "three_players_easy.yaml")
    started = [row["started"] for row in listed]
    assert started[2] == "2026-11-21T12:00:00.000Z"
    assert started == sorted(started, reverse=True)
    assert all(s.endswith("Z") and len(s) == 24 for s in started)
    assert listed == [
        {
            "id": 3,
            "started": started[0],
            "finished": False,
            "turns": 18,
            "totals": {"Ann": 16, "Ben": 19, "Cleo": 13},
        },
        {
            "id": 2,
            "started": started[1],
            "finished": False,
            "turns": 16,
            "totals": {"Ann": 4, "Ben": 8, "Cleo": 5, "Dev": 6},
        },
        {
            "id": 1,
            "started": started[2],
            "finished": True,
            "turns": 36,
            "totals": {"Owls": 35, "Foxes": 37},
        },
    ]
    for row, report in zip(listed, (three, four, teams), strict=True):
        assert row["totals"] == {s["name"]: s["total"] for s in report["standings"]}
        assert row["turns"] == len(report["turns"])


def test_games_on_an_empty_journal_and_as_a_table(capsys, tmp_path, journal_path):
    Journal(tmp_path / "empty.sqlite3").close()
    assert run_json(capsys, "games", "--journal", str(tmp_path / "empty.sqlite3")) == []
    assert main(["games", "--journal", str(journal_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split()[:4] == ["3", "2026-11-21T12:59:00.000Z", "playing", "18"]
    assert lines[3].split()[2:] == ["finished", "36", "Owls", "35,", "Foxes", "37"]


@pytest.mark.parametrize(
    ("game_id", "name"), [(1, EXAMPLES[0]), (2, EXAMPLES[1]), (3, EXAMPLES[2])]
)
def test_replay_rereferees_every_turn_exactly_as_the_contract(capsys, journal_path, game_id, name):
    replayed = run_json(capsys, "replay", str(game_id), "--journal", str(journal_path))
    report = referee_json(capsys, GAMES / f"{name}.yaml")
    assert replayed == {
        "id": game_id,
        "turns": [
            {
                "turn": k,
                "player": turn["by"],
                "dropped": turn["piece"],
                "verdict": turn["verdict"],
                "joker": turn["joker"],
                "points": turn["points"],
            }
            for k, turn in enumerate(report["turns"], start=1)
        ],
        "totals": {s["name"]: s["total"] for s in report["standings"]},
        "winners": report["winners"],
    }
    assert set(replayed["turns"][0]["dropped"]) == {"id", "color", "shape", "x", "y", "angle"}


@pytest.mark.parametrize("game_id", [1, 2, 3])
def test_replay_yaml_refereed_again_gives_the_same_game(capsys, tmp_path, journal_path, game_id):
    assert main(["replay", str(game_id), "--journal", str(journal_path), "--yaml"]) == 0
    exported = tmp_path / "exported.yaml"
    exported.write_text(capsys.readouterr().out)
    replayed = run_json(capsys, "replay", str(game_id), "--journal", str(journal_path))
    again = referee_json(capsys, exported)
    assert {s["name"]: s["total"] for s in again["standings"]} == replayed["totals"]
    assert again["winners"] == replayed["winners"]
    assert [t["verdict"] for t in again["turns"]] == [t["verdict"] for t in replayed["turns"]]
    assert [t["points"] for t in again["turns"]] == [t["points"] for t in replayed["turns"]]


def test_moved_pieces_and_jokers_survive_the_export(capsys, tmp_path, journal_path):
    assert main(["replay", "1", "--journal", str(journal_path), "--yaml"]) == 0
    exported = tmp_path / "teams.yaml"
    exported.write_text(capsys.readouterr().out)
    original = referee_json(capsys, GAMES / "two_teams_jokers_shape_edges.yaml")
    again = referee_json(capsys, exported)
    assert again["turns"] == original["turns"]
    assert again["setup"] == original["setup"]


def test_replay_in_plain_words(capsys, journal_path):
    assert main(["replay", "1", "--journal", str(journal_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Game 1 (judged again from the journal):"
    assert lines[-1] == "Winner: Foxes"
    assert "Turn 14, Cleo (Foxes)" in "\n".join(lines)


def test_a_verdict_that_differs_from_the_journal_is_noted(capsys, tmp_path):
    path = tmp_path / "j.db"
    with Journal(path) as journal:
        game = journal_example(journal, "four_players_base")
        forged = DropItRecord.start(journal, load_events(journal, game)[0])
        first = load_events(journal, game)[1]
        assert isinstance(first, ShapeDropped)
        forged.record(ShapeDropped(1, first.by, first.piece, Ruling((), level=8, bonus=5)))
    assert main(["replay", "2", "--journal", str(path), "--json"]) == 0
    out, err = capsys.readouterr()
    replayed = json.loads(out)
    assert replayed["turns"][0]["points"] == 0
    assert replayed["totals"]["Ann"] == 0
    assert "turn 1 judged again differs from the journal" in err
    assert "journaled level 8, bonus 5, broken: no rule, now level 2, bonus 0, broken: edge" in err


def error_of(capsys, *argv):
    assert main(list(argv)) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1
    return lines[0]


def test_unknown_game_and_missing_journal_exit_2_with_one_line(capsys, tmp_path, journal_path):
    missing = tmp_path / "missing.sqlite3"
    assert "game 9: no such game" in error_of(
        capsys, "replay", "9", "--journal", str(journal_path), "--json"
    )
    assert f"{missing}: no journal here" in error_of(
        capsys, "replay", "1", "--journal", str(missing), "--json"
    )
    assert f"{missing}: no journal here" in error_of(
        capsys, "games", "--journal", str(missing), "--json"
    )
    assert not missing.exists()


def test_a_damaged_event_is_named_by_both_commands_and_kept(capsys, journal_path):
    db = sqlite3.connect(journal_path)
    db.execute(
        "UPDATE events SET type = 'joker', data = ? WHERE game_id = 2 AND seq = 3",
        ('{"type": "joker"}',),
    )
    db.commit()
    db.close()
    for argv in (["games"], ["replay", "2"]):
        line = error_of(capsys, *argv, "--journal", str(journal_path), "--json")
        assert f"{journal_path}: game 2, event 3: malformed event: type: unknown" in line
    assert main(["replay", "1", "--journal", str(journal_path), "--json"]) == 0
    db = sqlite3.connect(journal_path)
    assert db.execute("SELECT data FROM events WHERE game_id = 2 AND seq = 3").fetchone() == (
        '{"type": "joker"}',
    )
    db.close()


def test_a_foreign_file_is_refused_by_the_commands(capsys, tmp_path):
    foreign = tmp_path / "notes.txt"
    foreign.write_text("shopping list\n" * 200)
    assert "damaged or unreadable" in error_of(capsys, "games", "--journal", str(foreign))


def test_the_default_journal_comes_from_the_environment(capsys, monkeypatch, journal_path):
    monkeypatch.setenv("TABLETOP_JOURNAL", str(journal_path))
    assert [row["id"] for row in run_json(capsys, "games")] == [3, 2, 1]
    assert run_json(capsys, "replay", "2")["totals"]["Ben"] == 8
