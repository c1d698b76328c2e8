"""``tabletop clever``: the sheet, a random game's journal, and its replay."""

import json

from firmware_host.cli import main
from firmware_host.commands.clever import describe_game, stars_text
from firmware_host.games.clever.autoplay import play
from firmware_host.games.clever.game import Game
from firmware_host.games.clever.layout import load_layout
from firmware_host.games.clever.sheet import Sheet
from firmware_host.service.options import DEFAULT_PLAYERS


def test_the_sheet_in_plain_words_and_as_json(capsys):
    assert main(["clever"]) == 0
    out = capsys.readouterr().out
    assert "die 0: yellow heart, yellow blue, red candle, green present, blue cupcake, joker" in out
    assert "yellow.3         balloon 3 (pink)  (blue bonus)" in out
    assert "red.9            wagon 9 (3 candles)  (2 stars)" in out
    assert main(["clever", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["dice"][2][5] == "joker"
    assert data["blue"]["rows"][1]["pairs"][0] == {"bonus": "red"}


def test_a_random_game_replays_from_its_journal(tmp_path, capsys):
    assert main(["clever", "--autoplay", "4", "--players", "Olivia,Eric", "--json"]) == 0
    journal = tmp_path / "game.jsonl"
    journal.write_text(capsys.readouterr().out)
    first = json.loads(journal.read_text().splitlines()[0])
    assert first == {
        "type": "game_started",
        "players": ["Olivia", "Eric"],
        "first": "Olivia",
        "seed": 4,
    }
    assert main(["clever", "--replay", str(journal), "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["phase"] == "over"
    best = max(state["scores"].values())
    assert state["winners"] == [p for p, s in state["scores"].items() if s == best]
    assert all(sum(state["stars"][p].values()) == state["scores"][p] for p in ("Olivia", "Eric"))
    assert main(["clever", "--replay", str(journal)]) == 0
    assert "winners: " in capsys.readouterr().out


def test_a_random_game_in_plain_words_ends_with_its_result(capsys):
    assert main(["clever", "--autoplay", "4", "--players", "Olivia,Eric"]) == 0
    out = capsys.readouterr().out
    assert "{" not in out  # no raw JSON without --json
    lines = out.splitlines()
    assert lines[0].startswith("a random game, seed 4, ")
    assert "over phase" in lines[1]
    assert lines[-1].startswith("winners: ")


def test_a_random_game_has_the_table_services_players_by_default(capsys):
    assert main(["clever", "--autoplay", "4", "--json"]) == 0
    first = json.loads(capsys.readouterr().out.splitlines()[0])
    assert first["players"] == list(DEFAULT_PLAYERS)


def test_one_star_is_one_star():
    assert (stars_text(0), stars_text(1), stars_text(2)) == ("0 stars", "1 star", "2 stars")
    game = Game.replay(Sheet(load_layout()), play(Sheet(load_layout()), ("Ann", "Ben"), 3))
    text = describe_game(game)
    for player in game.players:
        count = game.scores()[player]
        assert f"{player}: {count} star{'' if count == 1 else 's'} (" in text


def test_a_bad_journal_names_the_file_the_line_and_the_problem(tmp_path, capsys):
    journal = tmp_path / "bad.jsonl"
    start = '{"type": "game_started", "players": ["Ann", "Ben"], "first": "Ann", "seed": 1}'
    cases = [
        (f"{start}\n{{oops\n", "line 2: malformed JSON"),
        (
            f'{start}\n{{"type": "passed", "player": "Ann"}}\n',
            "line 2: Ann cannot pass: Ann has not rolled",
        ),
        (
            '{"type": "passed", "player": "Ann"}\n',
            "line 1: a game of Auch schon clever must begin with its set-up",
        ),
        (
            f'{start}\n{{"type": "dice_rolled", "player": "Ann"}}\n',
            "line 2: faces: required key is missing",
        ),
        ("\n", "no events"),
    ]
    for text, problem in cases:
        journal.write_text(text)
        assert main(["clever", "--replay", str(journal)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"tabletop clever: {journal}: ") and problem in err, err
    assert main(["clever", "--replay", str(tmp_path / "none.jsonl")]) == 2
    assert "file not found" in capsys.readouterr().err
