"""``tabletop referee``: the example games against hand counts, the output forms, bad files."""

import json
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.cli import main
from firmware_host.config.board import load_board
from firmware_host.errors import InputError
from firmware_host.games.dropit.events import event_from_json
from firmware_host.games.dropit.gamefile import load_game, parse_game
from firmware_host.games.dropit.referee import referee_game
from firmware_host.games.dropit.state import replay

GAMES = Path(__file__).resolve().parents[3] / "examples" / "games"
FOUR = GAMES / "four_players_base.yaml"
THREE = GAMES / "three_players_easy.yaml"
TEAMS = GAMES / "two_teams_jokers_shape_edges.yaml"
BOARD = load_board()


def referee_json(path, capsys, *options):
    assert main(["referee", str(path), "--json", *options]) == 0
    return json.loads(capsys.readouterr().out)


def points_by_turn(result):
    return [turn["points"] for turn in result["turns"]]


def totals(result):
    return {s["name"]: s["total"] for s in result["standings"]}


def test_four_player_base_game_matches_the_hand_count(capsys):
    # Hand count from the verdicts (edges by colour, no jokers); the game is not over.
    # turn who   shape            broken       level bonus points
    #  1   Ann   red diamond      edge           2    0     0
    #  2   Ben   blue square      -              2    0     2
    #  3   Cleo  yellow square    -              1    2     3
    #  4   Dev   green circle     -              2    0     2
    #  5   Ann   red square       edge           1    0     0
    #  6   Ben   blue diamond     edge           2    0     0
    #  7   Cleo  yellow diamond   -              2    0     2
    #  8   Dev   green diamond    edge           3    0     0
    #  9   Ann   red circle       -              2    2     4
    # 10   Ben   blue triangle    -              2    1     3
    # 11   Cleo  yellow square    shape          2    0     0
    # 12   Dev   green square     -              3    1     4
    # 13   Ann   red circle       shape, color   3    0     0
    # 14   Ben   blue circle      -              3    0     3
    # 15   Cleo  yellow circle    edge           3    0     0   (t12 nudged first)
    # 16   Dev   green triangle   shape          3    1     0
    # Ann 0+0+4+0 = 4; Ben 2+0+3+3 = 8; Cleo 3+2+0+0 = 5; Dev 2+0+4+0 = 6.
    result = referee_json(FOUR, capsys)
    assert points_by_turn(result) == [0, 2, 3, 2, 0, 0, 2, 0, 4, 3, 0, 4, 0, 3, 0, 0]
    assert totals(result) == {"Ann": 4, "Ben": 8, "Cleo": 5, "Dev": 6}
    assert [s["track"]["position"] for s in result["standings"]] == [4, 8, 5, 6]
    assert result["over"] is False and result["shapes_left"] == 20 and result["winners"] == []
    assert result["turns"][14]["moved"] == [{"id": "t12", "x": 105.5, "y": 65.0, "angle": 0.0}]


def test_three_player_easy_game_matches_the_hand_count(capsys):
    # Hand count (edge rules ignored): every drop is valid but turn 13 (shape rule).
    # Ann:  t1 2+0, t4 2+0, t7 2+1, t10 3+0, t13 broken, t16 3+3 -> 2+2+3+3+0+6 = 16
    # Ben:  t2 1+0, t5 1+2, t8 2+0, t11 2+1, t14 3+3, t17 4+0   -> 1+3+2+3+6+4 = 19
    # Cleo: t3 1+0, t6 1+0, t9 2+2, t12 2+0, t15 2+0, t18 3+0   -> 1+1+4+2+2+3 = 13
    result = referee_json(THREE, capsys)
    assert points_by_turn(result) == [2, 1, 1, 2, 3, 1, 3, 2, 4, 3, 3, 2, 0, 6, 2, 6, 4, 3]
    assert totals(result) == {"Ann": 16, "Ben": 19, "Cleo": 13}
    assert all(turn["verdict"]["edges"] == [] for turn in result["turns"])
    fourth = [t["by"] for t in result["turns"] if t["piece"]["color"] == "green"]
    assert fourth == ["Ann", "Ann", "Ben", "Cleo"]


def test_two_team_game_with_jokers_and_shape_edges_matches_the_hand_count(capsys):
    # Hand count of the whole game (edges by shape, jokers). j = joker spent: level + bonus.
    # turn team  shape           broken            lvl bonus   points
    #  1   Owls  red square      -                  1   0       1
    #  2   Foxes yellow diamond  -                  2   0       2
    #  3   Owls  red triangle    edge               1   0       0
    #  4   Foxes yellow triangle edge               1   0       0
    #  5   Owls  blue circle     -                  3   0       3
    #  6   Foxes green circle    -                  2   0       2
    #  7   Owls  blue square     -                  2   0       2
    #  8   Foxes green circle    edge               1   2       0
    #  9   Owls  red diamond     color              3   1       0
    # 10   Foxes green circle    shape,color,edge   2   0       0
    # 11   Owls  red circle      color              2   0       0
    # 12   Foxes green square    color              2   2       0
    # 13   Owls  blue triangle   color              2   1       0
    # 14   Foxes green diamond   shape              3   1   j   4
    # 15   Owls  blue diamond    color,edge         4   0       0
    # 16   Foxes green diamond   shape              4   0       0
    # 17   Owls  red circle      -                  3   0       3
    # 18   Foxes yellow square   -                  3   1       4
    # 19   Owls  red circle      shape,color        3   3       0
    # 20   Foxes green square    shape              4   0       0
    # 21   Owls  blue diamond    -                  4   3       7
    # 22   Foxes green triangle  color              4   1       0   (t17 knocked first)
    # 23   Owls  red square      edge               5   0       0
    # 24   Foxes yellow circle   shape              4   2       0
    # 25   Owls  blue triangle   -                  5   0       5
    # 26   Foxes yellow diamond  -                  5   0       5
    # 27   Owls  red diamond     shape              5   0   j   5
    # 28   Foxes yellow circle   -                  5   0       5
    # 29   Owls  blue circle     -                  5   1       6
    # 30   Foxes yellow triangle color              6   1   j   7
    # 31   Owls  red triangle    color              5   0       0
    # 32   Foxes yellow circle   shape,color        5   2       0
    # 33   Owls  blue square     color              6   0       0
    # 34   Foxes green triangle  -                  6   2       8
    # 35   Owls  blue circle     shape              6   0       0
    # 36   Foxes yellow square   color              5   2       0
    # Owls scored 1+3+2+3+7+5+5+6 = 32: space 7 and the red token on +25; one joker unused
    #   = 3 points; total 35. Foxes scored 2+2+4+4+5+5+7+8 = 37: space 12, yellow token +25;
    #   no joker left; total 37. Foxes win.
    result = referee_json(TEAMS, capsys)
    owls, foxes = result["standings"]
    assert [t["turn"] for t in result["turns"] if t["joker"]] == [14, 27, 30]
    assert sum(points_by_turn(result)) == 32 + 37
    assert (owls["scored"], owls["jokers_left"], owls["unused_joker_points"]) == (32, 1, 3)
    assert (foxes["scored"], foxes["jokers_left"], foxes["unused_joker_points"]) == (37, 0, 0)
    assert totals(result) == {"Owls": 35, "Foxes": 37}
    assert owls["track"] == {
        "position": 7,
        "tokens": [{"color": "red", "face": "+25"}, {"color": "blue", "face": None}],
        "unshown": 0,
    }
    assert foxes["track"]["position"] == 12
    assert foxes["track"]["tokens"][0] == {"color": "yellow", "face": "+25"}
    assert result["over"] is True and result["winners"] == ["Foxes"]
    by_member = [t["by"] for t in result["turns"]]
    assert by_member[:6] == ["Ann", "Cleo", "Ben", "Dev", "Ann", "Eli"]


def test_plain_words_output_names_turns_standings_and_winners(capsys):
    assert main(["referee", str(TEAMS)]) == 0
    out = capsys.readouterr().out
    assert "Turn 14, Cleo (Foxes): green diamond: 0 points" in out
    assert "joker spent: scores 4" in out
    assert "Game over after 36 turns." in out
    assert "Owls: 35 points — 32 scored (space 7, red token +25); 1 unused joker(s) = 3" in out
    assert out.rstrip().endswith("Winner: Foxes")


def test_referee_events_replay_to_the_same_state():
    report = referee_game(load_game(TEAMS), load_board(), str(TEAMS))
    journal = [json.dumps(event.to_json()) for event in report.events]
    assert replay(event_from_json(json.loads(line)) for line in journal) == report.state
    kinds = [json.loads(line)["type"] for line in journal]
    assert kinds.count("shape_dropped") == 36 and kinds.count("joker_spent") == 3
    assert kinds.count("pieces_moved") == 1


@pytest.mark.parametrize(
    ("edges", "square", "triangle"),
    [
        ("color", ["edge"], []),
        ("shape", [], ["edge"]),
        ("none", [], []),
    ],
)
def test_edge_variants_choose_which_edge_symbols_count(tmp_path, capsys, edges, square, triangle):
    # On the reference board the bottom edge from x=75 to 150 shows red (colour face) and
    # triangle (shape face).
    game = {
        "version": 1,
        "variants": {"edges": edges},
        "players": [{"name": "Ann", "colors": ["red", "blue"]}, {"name": "Ben"}],
        "turns": [
            {"by": "Ann", "color": "red", "shape": "square", "x": 100, "y": 17},
            {"by": "Ben", "color": "yellow", "shape": "triangle", "x": 140, "y": 11.547},
        ],
    }
    path = tmp_path / "game.yaml"
    path.write_text(yaml.safe_dump(game))
    result = referee_json(path, capsys)
    assert [t["verdict"]["broken"] for t in result["turns"]] == [square, triangle]


def bad_game(tmp_path, source, change):
    data = yaml.safe_load(source.read_text())
    change(data)
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def set_turn(index, **values):
    return lambda data: data["turns"][index].update(values)


def three_owls_jokers(data):
    # The Owls' drops of turns 3, 9 and 11 all broke a rule; they own two jokers.
    for index in (2, 8, 10):
        data["turns"][index]["joker"] = True


def extra_turn(data):
    data["turns"].append({"by": "Ann", "color": "red", "shape": "circle", "x": 150, "y": 280})


@pytest.mark.parametrize(
    ("source", "change", "message"),
    [
        (FOUR, set_turn(1, by="Cleo"), "turns[1]: turn 2: it is Ben's turn, not Cleo's"),
        (FOUR, set_turn(4, color="blue"), "turns[4]: turn 5: Ann has no blue square in the supply"),
        (TEAMS, set_turn(1, joker=True), "turns[1]: turn 2: a joker can only be spent on a drop"),
        (TEAMS, three_owls_jokers, "turns[10]: turn 11: Owls has no joker left"),
        (TEAMS, extra_turn, "turns[36]: turn 37: the game is over"),
        (
            FOUR,
            set_turn(1, x=110, y=17),
            "turns[1] (turn 2): piece t1: red diamond at (105, 24) overlaps the dropped "
            "shape (blue square) by more than 2 mm",
        ),
        (FOUR, set_turn(3, moved=[{"id": "t9", "x": 1, "y": 1}]), "no piece with id 't9'"),
        (FOUR, set_turn(2, colour="red"), "turns[2] (turn 3).colour: unknown key"),
        (FOUR, set_turn(0, shape="star"), "turns[0] (turn 1).shape: input should be"),
        (FOUR, lambda d: d.pop("players"), "give either players or teams"),
        (
            TEAMS,
            lambda d: d["teams"][0]["members"].extend(["Zed", "Yan"]),
            "teams: set-up: team Owls has 4 members",
        ),
    ],
)
def test_bad_game_files_exit_2_with_one_line_naming_file_and_turn(
    tmp_path, capsys, source, change, message
):
    path = bad_game(tmp_path, source, change)
    assert main(["referee", str(path), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"tabletop referee: {path}: ")
    assert message.lower() in lines[0].lower()


def test_missing_game_file_exits_2(tmp_path, capsys):
    assert main(["referee", str(tmp_path / "nope.yaml")]) == 2
    assert "nope.yaml: file not found" in capsys.readouterr().err


def test_referee_takes_another_board(tmp_path, capsys):
    board = yaml.safe_load(
        (Path(__file__).resolve().parents[3] / "config/boards/reference.yaml").read_text()
    )
    board["bonus_circles"] = []
    path = tmp_path / "board.yaml"
    path.write_text(yaml.safe_dump(board))
    result = referee_json(THREE, capsys, "--board", str(path))
    assert all(turn["verdict"]["bonus"] == 0 for turn in result["turns"])
    # The hand count above less the bonus points: Ann 16 - (1 + 3), Ben 19 - (2 + 1 + 3),
    # Cleo 13 - 2.
    assert totals(result) == {"Ann": 12, "Ben": 13, "Cleo": 11}


@pytest.mark.parametrize(
    ("moved", "broken"), [([], ["shape"]), ([{"id": "t1", "x": 40, "y": 17}], [])]
)
def test_each_turn_is_judged_with_earlier_pieces_at_their_latest_poses(
    tmp_path, capsys, moved, broken
):
    # Ben's yellow square lands right of Ann's red square (touching: same shape) unless his
    # drop knocked Ann's square away to x=40 first.
    game = {
        "version": 1,
        "players": [{"name": "Ann"}, {"name": "Ben"}],
        "turns": [
            {"by": "Ann", "color": "red", "shape": "square", "x": 100, "y": 17},
            {
                "by": "Ben",
                "color": "yellow",
                "shape": "square",
                "x": 134.5,
                "y": 17,
                "moved": moved,
            },
        ],
    }
    path = tmp_path / "game.yaml"
    path.write_text(yaml.safe_dump(game))
    verdict = referee_json(path, capsys)["turns"][1]["verdict"]
    assert verdict["broken"] == broken
    assert [t["id"] for t in verdict["touching"]] == (["t1"] if not moved else [])


values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 400) | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
keys = st.sampled_from(["version", "variants", "players", "teams", "turns", "by", "x"])


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(keys, values, max_size=5) | values)
def test_any_malformed_game_file_gives_one_input_error(data):
    try:
        referee_game(parse_game(data, "game.yaml"), BOARD, "game.yaml")
    except InputError as exc:
        assert exc.source == "game.yaml" and exc.problem


def test_the_documented_example_game_file_is_refereed(tmp_path, capsys):
    doc = (Path(__file__).resolve().parents[3] / "docs" / "game-file.md").read_text()
    example = doc.split("```yaml\n")[1].split("```")[0]
    path = tmp_path / "documented.yaml"
    path.write_text(example)
    result = referee_json(path, capsys)
    assert [t["by"] for t in result["turns"]] == ["Ann", "Ben", "Cleo"]
    assert [c["colors"] for c in result["setup"]["competitors"]] == [["red"], ["blue"], ["yellow"]]
    assert result["turns"][2]["moved"] == [{"id": "t1", "x": 106.0, "y": 17.0, "angle": 2.0}]
