"""Auch schon clever at the table: the adapter the service drives, through its JSON only."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.errors import IllegalMove, InputError
from firmware_host.games.clever.events import Event
from firmware_host.games.clever.layout import Color
from firmware_host.games.clever.table import CleverTable
from firmware_host.games.table_game import Roll, Setup
from tests.clever_support import roll as engine_roll

ALL_DICE = (0, 1, 2, 3, 4)


def start(*players: str, seed: int = 0) -> CleverTable:
    return CleverTable.replay([CleverTable.first_event(Setup(players, seed))])


def faces(*shown: str) -> list[int]:
    """The face indices of a throw in which die d shows ``shown[d]`` (e.g. ``"joker"``)."""
    return list(engine_roll("nobody", *shown).faces)


def step(game: CleverTable, event: dict) -> CleverTable:
    """Apply ``event`` after a round trip through JSON text, as the journal stores it."""
    return game.apply(json.loads(json.dumps(event)))


def thrown(game: CleverTable, *shown: str) -> CleverTable:
    return step(game, game.dice_event(faces(*shown)))


def moved(game: CleverTable, seat: str, move: dict) -> CleverTable:
    return step(game, game.move_event(seat, move))


def choose(color: str, *uses: tuple[str, list[int]], bonuses: list[str] | None = None) -> dict:
    move = {"type": "choose", "color": color, "uses": [{"box": b, "dice": d} for b, d in uses]}
    if bonuses is not None:
        move["bonuses"] = bonuses
    return move


OLIVIA = ("yellow heart", "yellow green", "green present", "red candle", "blue cake")


def test_the_class_names_the_game_for_the_service():
    assert (CleverTable.KIND, CleverTable.TITLE, CleverTable.VARIANTS, CleverTable.DICE) == (
        "clever",
        "Auch schon clever",
        (),
        5,
    )


def test_the_first_event_names_the_players_the_first_starter_and_the_seed():
    event = CleverTable.first_event(Setup(("Olivia", "Eric"), seed=9))
    assert event == {
        "type": "game_started",
        "players": ["Olivia", "Eric"],
        "first": "Olivia",
        "seed": 9,
    }
    game = CleverTable.replay([event])
    assert game.players == ("Olivia", "Eric") and not game.over


@pytest.mark.parametrize(
    ("setup", "problem"),
    [
        (Setup(()), "1 to 4 players, got 0"),
        (Setup(("A", "B", "C", "D", "E")), "1 to 4 players, got 5"),
        (Setup(("A", "A")), "a name appears twice"),
        (Setup(("A", "B"), variant="kids"), "no variants, got 'kids'"),
    ],
)
def test_a_bad_setup_is_refused(setup, problem):
    with pytest.raises(ValueError, match=problem):
        CleverTable.first_event(setup)


def test_the_starter_rolls_all_five_dice_then_the_turn_passes_clockwise():
    game = start("Olivia", "Eric", "Cleo")
    assert game.roll() == Roll(ALL_DICE, "Olivia")
    game = thrown(game, *OLIVIA)
    assert game.roll() is None
    game = moved(game, "Olivia", choose("yellow", ("yellow.1", [0])))
    assert game.roll() is None  # the others choose now
    game = moved(game, "Eric", {"type": "pass"})
    game = moved(game, "Cleo", choose("green", ("green.2.2", [2])))
    assert game.roll() == Roll(ALL_DICE, "Eric")


def test_the_starter_rolls_again_while_no_die_can_be_used():
    game = moved(thrown(start("Ann", "Ben"), *OLIVIA), "Ann", choose("yellow", ("yellow.1", [0])))
    game = moved(game, "Ben", {"type": "pass"})
    assert game.roll() == Roll(ALL_DICE, "Ben")
    # Ben's sheet is empty: no heart balloon, candle, present, joker or pair of sweets
    game = thrown(game, "yellow blue", "yellow pink", "blue cake", "yellow blue", "blue donut")
    assert game.roll() == Roll(ALL_DICE, "Ben")
    view = game.view()
    assert view["waiting_for"] == [] and view["game"]["choices"] == {}
    assert view["status"] == "Turn 2: Ben can use no die and rolls all five again"
    with pytest.raises(IllegalMove, match="no die can be used, so the starting player rolls again"):
        game.move_event("Ben", choose("blue", ("blue.cake.1", [2, 4])))
    game = thrown(game, *OLIVIA)
    assert game.roll() is None and game.view()["waiting_for"] == ["Ben"]


def test_dice_event_reads_the_face_indices_of_the_starters_throw():
    game = start("Olivia", "Eric")
    assert game.dice_event([0, 1, 3, 2, 4]) == {
        "type": "dice_rolled",
        "player": "Olivia",
        "faces": [0, 1, 3, 2, 4],
    }
    dice = game.apply(game.dice_event([5, 5, 5, 0, 0])).view()["game"]["dice"]
    assert [d["name"] for d in dice] == ["joker", "joker", "joker", "yellow blue", "yellow green"]
    assert dice[3] == {
        "die": 3,
        "face": 0,
        "name": "yellow blue",
        "color": "yellow",
        "symbol": "blue",
    }
    assert dice[0]["color"] is None and dice[0]["symbol"] is None


@pytest.mark.parametrize(
    ("throw", "where", "problem"),
    [
        ([0, 1, 2, 3], "faces", "expected 5 faces, got 4"),
        ([0, 1, 2, 3, 4, 5], "faces", "expected 5 faces, got 6"),
        ([0, 1, 6, 3, 4], "faces[2]", "expected a face 0 to 5, got 6"),
        ([0, -1, 2, 3, 4], "faces[1]", "got -1"),
        ([0, 1, 2, True, 4], "faces[3]", "got True"),
    ],
)
def test_a_malformed_throw_is_refused_naming_the_die(throw, where, problem):
    with pytest.raises(InputError, match=problem) as caught:
        start("Ann").dice_event(throw)
    assert caught.value.where == where


def test_no_dice_are_read_while_the_game_waits_for_a_choice():
    game = thrown(start("Ann", "Ben"), *OLIVIA)
    with pytest.raises(IllegalMove, match="nobody rolls now: Turn 1: Ann chooses a colour"):
        game.dice_event(faces(*OLIVIA))


def test_olivias_yellow_turn_at_the_table():
    """The rule text's first example: the heart balloon, and the green one left to Eric."""
    game = thrown(start("Olivia", "Eric"), *OLIVIA)
    choices = game.view()["game"]["choices"]
    assert choices == {
        "Olivia": {
            "dice": [0, 1, 2, 3, 4],
            "colors": ["yellow", "green"],  # one candle is not enough for the first wagon's two
            "may_pass": False,
        }
    }
    with pytest.raises(IllegalMove, match=r"^Olivia cannot cross balloon 4 \(green\).*comes first"):
        game.move_event("Olivia", choose("yellow", ("yellow.1", [0]), ("yellow.4", [1])))
    game = moved(game, "Olivia", choose("yellow", ("yellow.1", [0])))
    view = game.view()
    assert view["game"]["left"] == [1, 2, 3, 4]
    assert view["waiting_for"] == ["Eric"]
    assert view["game"]["choices"]["Eric"] == {
        "dice": [1, 2, 3, 4],
        "colors": ["green"],
        "may_pass": True,
    }
    assert view["game"]["sheets"]["Olivia"]["crossed"] == ["yellow.1"]


def erics_bonus_turn() -> CleverTable:
    """Eric has the heart balloon (the text's state), and throws a joker and a pink balloon."""
    game = start("Eric", "Olivia")
    game = thrown(game, "yellow heart", "yellow pink", "green present", "red candle", "blue cake")
    game = moved(game, "Eric", choose("yellow", ("yellow.1", [0])))
    game = moved(game, "Olivia", {"type": "pass"})
    game = thrown(game, "yellow blue", "red candle", "green present", "blue cupcake", "blue cake")
    game = moved(game, "Olivia", choose("green", ("green.1.1", [2])))
    game = moved(game, "Eric", {"type": "pass"})
    return thrown(game, "joker", "yellow pink", "green present", "red candle", "blue cake")


def test_erics_bonus_chain_is_one_move():
    """The second example: joker for the blue balloon, the pink one, then the donuts with the
    blue bonus and the two candles with the red one, and a rainbow star."""
    game = erics_bonus_turn()
    move = choose(
        "yellow",
        ("yellow.2", [0]),
        ("yellow.3", [1]),
        bonuses=["blue.donut.1", "red.1"],
    )
    event = game.move_event("Eric", move)
    assert Event.from_json(event).to_json() == event
    assert event["type"] == "dice_chosen" and event["player"] == "Eric"
    game = step(game, event)
    sheet = game.view()["game"]["sheets"]["Eric"]
    assert sheet["crossed"] == [
        "yellow.1",
        "yellow.2",
        "yellow.3",
        "red.1",
        "blue.donut.1",
    ]
    assert sheet["stars"]["red"] == 1
    assert game.view()["scores"] == {"Eric": 1, "Olivia": 0}


def test_a_bonus_cross_goes_only_where_a_bonus_is_due():
    game = erics_bonus_turn()
    move = choose("yellow", ("yellow.2", [0]), ("yellow.3", [1]), bonuses=["red.1"])
    with pytest.raises(IllegalMove, match=r"^Eric cannot make a bonus cross on wagon 1.*due: blue"):
        game.move_event("Eric", move)


@pytest.mark.parametrize(
    ("seat", "move", "rule"),
    [
        ("Olivia", {"type": "pass"}, "the others choose after the starting player Eric"),
        ("Eric", {"type": "pass"}, "the starting player uses at least one die"),
        ("Eric", choose("yellow"), "a choice crosses at least one symbol with dice"),
        ("Eric", choose("red", ("red.1", [3])), r"wagon 1 \(2 candles\) \[red.1\] needs 2 dice"),
        ("Eric", choose("yellow", ("red.1", [3, 0])), "one colour area only, this one is yellow"),
        ("Eric", choose("blue", ("blue.cake.1", [4, 4])), "each die is used once"),
        ("Eric", choose("yellow", ("yellow.2", [7])), "die 7 is not among the dice left"),
        ("Eric", choose("yellow", ("yellow.13", [0])), "the sheet has no box .yellow.13."),
        (
            "Eric",
            choose("yellow", ("yellow.1", [0])),
            r"balloon 1 \(heart\) \[yellow.1\] is crossed",
        ),
        ("Nobody", {"type": "pass"}, "not a player of this game"),
    ],
)
def test_a_move_the_rules_forbid_is_refused_naming_the_player_and_the_rule(seat, move, rule):
    game = erics_bonus_turn()
    before = game.view()
    with pytest.raises(IllegalMove, match=rule) as caught:
        game.move_event(seat, move)
    assert str(caught.value).startswith(seat)
    assert game.view() == before


@pytest.mark.parametrize(
    ("move", "where", "problem"),
    [
        ([], "(top level)", "expected an object"),
        ({}, "type", "expected 'choose' or 'pass', got None"),
        ({"type": "roll"}, "type", "expected 'choose' or 'pass', got 'roll'"),
        ({"type": "pass", "color": "red"}, "color", "unknown key"),
        ({"type": "choose", "uses": []}, "color", "required key is missing"),
        ({"type": "choose", "color": "red"}, "uses", "required key is missing"),
        ({"type": "choose", "color": "pink", "uses": []}, "color", "expected a colour of the dice"),
        ({"type": "choose", "color": "red", "uses": {}}, "uses", "expected a list"),
        ({"type": "choose", "color": "red", "uses": [{"box": "red.1"}]}, "uses[0].dice", "missing"),
        (
            {"type": "choose", "color": "red", "uses": [{"box": "red.1", "dice": ["0"]}]},
            "uses[0].dice",
            "integers",
        ),
        ({"type": "choose", "color": "red", "uses": [], "bonuses": [3]}, "bonuses", "strings"),
        ({"type": "choose", "color": "red", "uses": [], "player": "Ben"}, "player", "unknown key"),
    ],
)
def test_a_malformed_move_is_refused_naming_the_key(move, where, problem):
    game = erics_bonus_turn()
    with pytest.raises(InputError, match=problem) as caught:
        game.move_event("Eric", move)
    assert (caught.value.source, caught.value.where) == ("clever move", where)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 8) | st.sampled_from(["red", "yellow.2", "x"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=8,
)
MOVES = st.fixed_dictionaries(
    {"type": st.sampled_from(["choose", "pass", "x"])},
    optional={
        "color": st.sampled_from(["yellow", "red", "green", "blue", "pink"]) | JSON,
        "uses": st.lists(
            st.fixed_dictionaries(
                {
                    "box": st.sampled_from(["yellow.2", "yellow.3", "red.2", "blue.cake.1"]) | JSON,
                    "dice": st.lists(st.integers(-1, 5), max_size=3) | JSON,
                }
            ),
            max_size=3,
        )
        | JSON,
        "bonuses": st.lists(st.sampled_from(["blue.donut.1", "red.2", "green.1.2"]), max_size=2)
        | JSON,
    },
)


@settings(max_examples=150, deadline=None)
@given(move=MOVES | JSON, seat=st.sampled_from(["Eric", "Olivia", "Zed"]))
def test_any_move_is_an_event_the_game_takes_or_one_clear_refusal(move, seat):
    game = erics_bonus_turn()
    before = game.view()
    try:
        event = game.move_event(seat, move)
    except (InputError, IllegalMove) as refused:
        assert str(refused)
        assert game.view() == before
        return
    after = step(game, event)
    assert event["player"] == seat == "Eric"
    assert after.view()["game"]["sheets"]["Eric"] != before["game"]["sheets"]["Eric"]


def test_the_view_offers_what_the_engine_allows_every_waiting_player():
    for seed in range(4):
        game = start("Ann", "Ben", "Cleo", seed=seed)
        rng = random.Random(seed)
        for _ in range(40):
            view = game.view()
            engine = game.game
            assert set(view["game"]["choices"]) == set(view["waiting_for"])
            for player, offered in view["game"]["choices"].items():
                assert offered["colors"] == [c.value for c in engine.colors(player)]
                assert offered["dice"] == sorted(engine.dice_for(player))
                assert offered["may_pass"] == (player != engine.starter)
            game, _ = advance(game, rng)


def advance(game: CleverTable, rng: random.Random) -> tuple[CleverTable, dict]:
    """One step of a game played through the adapter only: a throw of seeded faces, or the
    first waiting player's simulated move sent as JSON text; the new game and its event."""
    roll = game.roll()
    if roll is not None:
        event = game.dice_event([rng.randrange(6) for _ in roll.dice])
    else:
        player = game.view()["waiting_for"][0]
        move = game.auto_move(player, rng)
        assert move is not None
        event = game.move_event(player, json.loads(json.dumps(move)))
    return step(game, event), event


@pytest.mark.parametrize(
    ("players", "seed"), [(("Solo",), 1), (("Ann", "Ben"), 2), (("Ann", "Ben", "Cleo", "Dan"), 3)]
)
def test_a_whole_game_through_the_adapter_and_its_replay(players, seed):
    rng = random.Random(seed)
    journal = [CleverTable.first_event(Setup(players, seed))]
    game = CleverTable.replay(journal)
    while not game.over:
        assert len(journal) < 2000
        game, event = advance(game, rng)
        journal.append(event)
    view = game.view()
    assert game.roll() is None and view["waiting_for"] == [] and view["game"]["choices"] == {}
    assert any(sheet["completed"] for sheet in view["game"]["sheets"].values())
    best = max(view["scores"].values())
    assert view["winners"] == [p for p, s in view["scores"].items() if s == best]
    assert view["status"].startswith("Game over: ")
    assert all(game.auto_move(p, rng) is None for p in players)
    assert CleverTable.replay(journal).view() == view


def test_simulated_players_move_only_when_the_game_waits_for_them():
    game = start("Ann", "Ben")
    rng = random.Random(1)
    assert game.auto_move("Ann", rng) is None  # the dice come first
    game = thrown(game, *OLIVIA)
    assert game.auto_move("Ben", rng) is None
    move = game.auto_move("Ann", rng)
    assert move is not None and move["type"] == "choose"
    assert game.move_event("Ann", move)["player"] == "Ann"


def test_the_scores_are_rainbow_stars_and_ties_share_the_win():
    view = start("Ann", "Ben").view()
    assert (view["scores"], view["score_label"]) == ({"Ann": 0, "Ben": 0}, "stars")
    assert (view["title"], view["kind"], view["over"], view["winners"]) == (
        "Auch schon clever",
        "clever",
        False,
        [],
    )
    assert view["status"] == "Turn 1: Ann rolls the five dice"
    assert view["roll"] == {"dice": [0, 1, 2, 3, 4], "by": "Ann"}


def test_the_sheet_in_the_view_is_the_printed_layout():
    sheet = start("Ann").view()["game"]["sheet"]
    boxes = {box["id"]: box for box in sheet["boxes"]}
    assert boxes["yellow.3"] == {
        "id": "yellow.3",
        "area": "yellow",
        "symbol": "pink",
        "size": 1,
        "track": "yellow",
        "stars": 0,
        "bonus": "blue",
        "name": "balloon 3 (pink)",
    }
    assert boxes["red.9"]["size"] == 3 and boxes["blue.donut.1"]["bonus"] == "red"
    assert [t["name"] for t in sheet["tracks"]] == [
        "yellow",
        "red",
        "blue.cupcake",
        "blue.donut",
        "blue.cake",
    ]
    assert sheet["tracks"][4]["boxes"] == [f"blue.cake.{n}" for n in range(1, 6)]
    assert sheet["green"]["columns"][1] == ["green.1.2", "green.2.2", "green.3.2"]
    assert sheet["green"]["column_bonuses"] == {"2": "red", "3": "yellow", "4": "blue"}
    assert {box["area"] for box in sheet["boxes"]} == {c.value for c in Color}
