"""The GOTTA2 puzzle sheet game through its table adapter only: moves, refusals, the view."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.errors import IllegalMove, InputError
from firmware_host.games.gotta2.engine import Gotta2Game
from firmware_host.games.gotta2.events import (
    BonusPiecePlaced,
    BonusPieceSkipped,
    GameStarted,
    PieceChosen,
    PiecePlaced,
)
from firmware_host.games.gotta2.table import Gotta2Table, move_json
from firmware_host.games.table_game import Setup
from tests.games.gotta2.test_engine import small_sheet

Game = Gotta2Table


def new(*players, seed=0):
    first = Game.first_event(Setup(players=players or ("ana", "ben"), seed=seed))
    return Game.replay([first]), [first]


def play(game, journal, *moves):
    """Each ``(seat, move)`` through move_event and apply, as the service does."""
    for seat, move in moves:
        event = game.move_event(seat, move)
        game = game.apply(event)
        journal.append(event)
    return game


def place(piece, row, column):
    return {"type": "place", "piece": piece, "row": row, "column": column}


def bonus(piece, row, column):
    return {"type": "bonus", "piece": piece, "row": row, "column": column}


def test_a_new_game_records_players_and_seed_and_waits_for_the_first_player():
    first = Game.first_event(Setup(players=("ana", "ben", "cleo"), seed=42))
    assert first == {"type": "game_started", "players": ["ana", "ben", "cleo"], "seed": 42}
    view = Game.replay([first]).view()
    assert view["kind"] == "gotta2" and view["players"] == ["ana", "ben", "cleo"]
    assert view["waiting_for"] == ["ana"] and view["roll"] is None and not view["over"]
    assert view["scores"] == {"ana": 0, "ben": 0, "cleo": 0} and view["winners"] == []
    assert view["status"] == "ana's turn: choose a piece and place it"


@pytest.mark.parametrize(
    ("setup", "problem"),
    [
        (Setup(players=()), "1 to 6 players, got 0"),
        (Setup(players=tuple("abcdefg")), "1 to 6 players, got 7"),
        (Setup(players=("ana", "ana")), "distinct"),
        (Setup(players=("ana", " ")), "not blank"),
        (Setup(players=("ana", "ben"), variant="team"), "no variants, got 'team'"),
    ],
)
def test_a_bad_setup_is_refused_by_name(setup, problem):
    with pytest.raises(ValueError, match=problem):
        Game.first_event(setup)


def test_the_game_has_no_dice():
    game, journal = new()
    assert Game.DICE == 0 and game.roll() is None
    with pytest.raises(IllegalMove, match=r"has no dice: a throw of \[3, 1\]"):
        game.dice_event([3, 1])
    game = play(game, journal, ("ana", place("2-1", 0, 0)))
    assert game.roll() is None


def test_a_place_move_shades_the_piece_as_printed_and_marks_it_for_everyone():
    game, _ = new("ana", "ben")
    event = game.move_event("ana", place("3-3", 2, 3))  # "#." over "##"
    assert event == {"type": "piece_placed", "player": "ana", "piece": "3-3", "row": 2, "column": 3}
    game = game.apply(event)
    sheets = game.view()["game"]["sheets"]
    assert sheets["ana"]["shaded"] == [[2, 3], [3, 3], [3, 4]] and sheets["ben"]["shaded"] == []
    assert sheets["ana"]["bonus"] == 3
    assert sheets["ana"]["placed"] == [{"piece": "3-3", "row": 2, "column": 3, "bonus": False}]
    piece = next(p for f in game.view()["game"]["frames"] for p in f["pieces"] if p["id"] == "3-3")
    assert piece == {
        "id": "3-3",
        "rows": 2,
        "columns": 2,
        "cells": [[0, 0], [1, 0], [1, 1]],
        "marks": 1,
        "capacity": 1,
    }
    assert "3-3" not in game.view()["game"]["legal"]["pieces"]  # ben may not choose it again
    assert game.view()["waiting_for"] == ["ben"]


def test_a_bonus_move_places_the_bonus_piece_reached_before_the_turn_ends():
    game, journal = new("ana", "ben")
    game = play(
        game,
        journal,
        ("ana", place("2-1", 0, 0)),  # +2
        ("ben", place("2-2", 0, 0)),
        ("ana", place("3-1", 2, 0)),  # +3 = 5: bonus piece B5
    )
    view = game.view()
    assert view["waiting_for"] == ["ana"] and view["game"]["pending_bonus"] == "B5"
    assert view["status"] == "ana reached a bonus piece: place B5 or skip it"
    assert view["game"]["legal"]["may_skip"]
    assert view["game"]["legal"]["move"] == "bonus"
    assert list(view["game"]["legal"]["pieces"]) == ["B5"]
    with pytest.raises(
        IllegalMove, match=r"ana placing piece 1-1 .* first place or skip bonus piece B5"
    ):
        game.move_event("ana", place("1-1", 7, 0))
    event = game.move_event("ana", bonus("B5", 0, 2))
    assert event["type"] == "bonus_piece_placed"
    game = game.apply(event)
    ana = game.view()["game"]["sheets"]["ana"]
    assert ana["rectangle"] | {"cells": None} == {
        "top": 0,
        "left": 0,
        "rows": 3,
        "columns": 3,
        "cells": None,
    }
    assert ana["points"] == 3 * 3 * 5 == game.view()["scores"]["ana"]
    assert game.view()["waiting_for"] == ["ben"] and game.view()["game"]["pending_bonus"] is None


def test_a_skip_move_leaves_the_bonus_piece_unplaced():
    game, journal = new("ana", "ben")
    game = play(
        game,
        journal,
        ("ana", place("2-1", 0, 0)),
        ("ben", place("2-2", 0, 0)),
        ("ana", place("3-1", 2, 0)),
    )
    event = game.move_event("ana", {"type": "skip", "piece": "B5"})
    assert event == {"type": "bonus_piece_skipped", "player": "ana", "piece": "B5"}
    game = game.apply(event)
    view = game.view()
    assert view["waiting_for"] == ["ben"] and view["game"]["sheets"]["ana"]["bonus"] == 5
    assert [p["piece"] for p in view["game"]["sheets"]["ana"]["placed"]] == ["2-1", "3-1"]


def test_a_choose_move_then_a_place_move():
    game, journal = new("ana", "ben")
    game = play(game, journal, ("ana", {"type": "choose", "piece": "3-1"}))
    view = game.view()
    assert view["waiting_for"] == ["ana"] and view["game"]["held"] == "3-1"
    assert view["status"] == "ana chose 3-1: place it"
    assert list(view["game"]["legal"]["pieces"]) == ["3-1"]
    assert view["game"]["frames"][2]["pieces"][0]["marks"] == 1  # marked when chosen
    with pytest.raises(IllegalMove, match="the piece ana chose is 3-1"):
        game.move_event("ana", place("2-1", 0, 0))
    game = play(game, journal, ("ana", place("3-1", 0, 0)))
    assert game.view()["waiting_for"] == ["ben"]


def test_choosing_a_piece_that_fits_nowhere_starts_the_final_round():
    sheet = small_sheet(1, 3, [(1, ["###", "#", "#", "#", "#", "#"])])
    engine = Gotta2Game.start(sheet, GameStarted(players=("ana", "ben", "cleo")))
    game, journal = Game(engine), []
    game = play(
        game,
        journal,
        ("ana", place("1-2", 0, 0)),
        ("ben", place("1-3", 0, 1)),
        ("cleo", place("1-4", 0, 2)),
        ("ana", place("1-5", 0, 1)),
    )
    legal = game.view()["game"]["legal"]
    assert legal["pieces"] == {"1-1": [], "1-6": [[0, 0], [0, 2]]}  # 1-1 fits nowhere
    game = play(game, journal, ("ben", {"type": "choose", "piece": "1-1"}))
    view = game.view()
    assert view["game"]["final_round"] and view["game"]["ended_by"] == "ben"
    assert view["waiting_for"] == ["cleo"] and not view["over"]
    assert view["status"] == "Final round (ben cannot place piece 1-1): cleo's turn: " + (
        "choose a piece and place it"
    )
    game = play(game, journal, ("cleo", place("1-6", 0, 0)))
    view = game.view()
    assert view["over"] and view["game"]["scoring_order"] == ["ben", "cleo", "ana"]
    assert view["game"]["turns"] == {"ana": 2, "ben": 2, "cleo": 2}
    assert view["status"].startswith("ben cannot place piece 1-1: game over. Scoring round: ben")


@pytest.mark.parametrize(
    ("seat", "move", "rule"),
    [
        ("ben", place("3-1", 0, 0), r"ben placing piece 3-1 at row 0, column 0 .* ana's turn"),
        ("cleo", place("3-1", 0, 0), "'cleo' cannot place a piece: not a player"),
        ("ana", place("2-1", 5, 0), r"ana placing piece 2-1 .* already marked used"),
        ("ana", place("1-1", 0, 4), r"never rotated or flipped.*leave the 8 x 8 board"),
        ("ana", place("3-2", 1, 0), r"cells \[\(1, 0\), \(1, 1\)\]|cells \[\(1, 0\)\]"),
        ("ana", place("9-9", 0, 0), "no such piece on the sheet"),
        ("ana", place("B5", 4, 4), "B5 is a bonus piece, not in the piece area"),
        ("ana", bonus("B5", 4, 4), "ana has no bonus piece to place now"),
    ],
)
def test_moves_against_the_rules_name_the_player_and_rule_and_change_nothing(seat, move, rule):
    game, journal = new("ana", "ben")
    game = play(game, journal, ("ana", place("2-1", 0, 0)), ("ben", place("2-2", 0, 0)))
    before = game.view()
    with pytest.raises(IllegalMove, match=rule):
        game.move_event(seat, move)
    assert game.view() == before


@pytest.mark.parametrize(
    ("move", "key", "problem"),
    [
        ([1, 2], "(top level)", "expected a JSON object"),
        ({"type": "place", "piece": "3-1", "row": 0}, "column", "missing"),
        (place("3-1", 0, 0) | {"player": "ben"}, "player", "unknown key"),
        (place("3-1", 0, 0) | {"type": "rotate"}, "type", "expected one of 'choose', 'place'"),
        ({"type": "choose", "piece": "3-1", "row": 0}, "row", "unknown key"),
        ({"type": "skip"}, "piece", "missing"),
        ({"piece": "3-1"}, "type", "missing"),
        (place(31, 0, 0), "piece", "expected a piece id"),
        (place("", 0, 0), "piece", "expected a piece id"),
        (place("3-1", 0.0, 0), "row", "expected a whole number, got 0.0"),
        (place("3-1", 0, True), "column", "expected a whole number, got True"),
    ],
)
def test_malformed_moves_name_the_key(move, key, problem):
    game, _ = new()
    with pytest.raises(InputError, match=problem) as raised:
        game.move_event("ana", move)
    assert raised.value.source == "move" and raised.value.where == key


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 10) | st.floats() | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=6,
)
MOVE_LIKE = st.fixed_dictionaries(
    {
        "type": st.sampled_from(["choose", "place", "bonus", "skip", "roll"]) | JSON,
        "piece": st.sampled_from(["1-1", "3-3", "4-1", "B5", "X"]) | JSON,
        "row": st.integers(-2, 9) | JSON,
        "column": st.integers(-2, 9) | JSON,
    },
    optional={"extra": JSON},
)
STARTED, _ = new()


@settings(max_examples=300, deadline=None)
@given(move=MOVE_LIKE | JSON, seat=st.sampled_from(["ana", "ben", "zoe"]))
def test_any_request_is_an_event_the_engine_takes_or_one_clear_error(move, seat):
    before = STARTED.view()
    try:
        event = STARTED.move_event(seat, move)
    except (InputError, IllegalMove):
        assert STARTED.view() == before
        return
    after = STARTED.apply(json.loads(json.dumps(event)))
    if move["type"] == "choose":
        assert after.view()["game"]["held"] == move["piece"]
    else:
        assert after.view()["game"]["sheets"][seat]["placed"][0]["piece"] == move["piece"]


def legal_from_view(game):
    """The engine events the view offers, rebuilt from the view's ``legal`` part."""
    legal = game.view()["game"]["legal"]
    if legal is None:
        return set()
    player = legal["player"]
    if legal["move"] == "place" and legal["held"] is None:
        engine = game.game
        for piece, spots in legal["pieces"].items():  # each with every spot it fits
            assert [tuple(s) for s in spots] == list(engine.placements(player, piece))
        return {PieceChosen(player, piece) for piece in legal["pieces"]}
    event = PiecePlaced if legal["move"] == "place" else BonusPiecePlaced
    offered = {
        event(player, piece, row, column)
        for piece, spots in legal["pieces"].items()
        for row, column in spots
    }
    if legal["may_skip"]:
        offered |= {BonusPieceSkipped(player, piece) for piece in legal["pieces"]}
    return offered


def autoplay(players, seed):
    """A whole game through the adapter only: simulated players, a seeded RNG."""
    rng = random.Random(seed)
    game, journal = new(*players, seed=seed)
    steps = 0
    while not game.over:
        assert legal_from_view(game) == set(game.game.legal_moves())
        assert game.roll() is None
        (waiting,) = game.view()["waiting_for"]
        assert all(game.auto_move(p, rng) is None for p in players if p != waiting)
        game = play(game, journal, (waiting, game.auto_move(waiting, rng)))
        steps += 1
    return game, journal, steps


@pytest.mark.parametrize(("players", "seed"), [(("ana", "ben"), 7), (("a", "b", "c", "d"), 8)])
def test_a_whole_game_plays_to_the_end_and_replays_from_its_journal(players, seed):
    game, journal, steps = autoplay(players, seed)
    assert steps > len(players)
    view = game.view()
    assert view["over"] and view["waiting_for"] == [] and view["game"]["legal"] is None
    assert all(game.auto_move(p, random.Random(0)) is None for p in players)
    assert legal_from_view(game) == set()
    ended_by = view["game"]["ended_by"]
    order = view["game"]["scoring_order"]
    assert order[0] == ended_by and sorted(order) == sorted(players)
    assert ended_by in view["status"] and "game over" in view["status"]
    assert len(set(view["game"]["turns"].values())) == 1  # the final round: equal turns
    best = max((s["points"], -s["unshaded"]) for s in view["game"]["sheets"].values())
    assert view["winners"] == [
        p for p, s in view["game"]["sheets"].items() if (s["points"], -s["unshaded"]) == best
    ]
    for player, sheet in view["game"]["sheets"].items():
        rectangle = sheet["rectangle"]
        assert len(rectangle["cells"]) == rectangle["rows"] * rectangle["columns"]
        assert {tuple(c) for c in rectangle["cells"]} <= {tuple(c) for c in sheet["shaded"]}
        assert view["scores"][player] == rectangle["rows"] * rectangle["columns"] * sheet["bonus"]
    with pytest.raises(IllegalMove, match="the game is over"):
        game.move_event(ended_by, place("4-1", 0, 0))
    stored = json.loads(json.dumps(journal))
    assert Game.replay(stored) == game and Game.replay(stored).view() == view
    assert autoplay(players, seed)[1] == journal  # the seed reproduces the game


def test_with_four_players_frame_3_and_4_pieces_are_offered_twice_then_no_more():
    game, journal = new("a", "b", "c", "d")
    game = play(game, journal, ("a", place("4-1", 0, 0)))
    assert "4-1" in game.view()["game"]["legal"]["pieces"]
    game = play(game, journal, ("b", place("4-1", 0, 0)))
    piece = game.view()["game"]["frames"][3]["pieces"][0]
    assert (piece["id"], piece["marks"], piece["capacity"]) == ("4-1", 2, 2)
    assert "4-1" not in game.view()["game"]["legal"]["pieces"]


def test_a_journal_with_a_malformed_or_illegal_event_is_refused_by_name():
    _, journal = new()
    bad = {"type": "piece_placed", "player": "ana", "piece": "2-1", "row": "0", "column": 0}
    with pytest.raises(InputError, match="event 1: row"):
        Game.replay([*journal, bad])
    with pytest.raises(IllegalMove, match=r"ben placing piece 2-1 .* ana's turn"):
        Game.replay([*journal, bad | {"player": "ben", "row": 0}])
    with pytest.raises(IllegalMove, match="must begin with its set-up"):
        Game.replay([])


def test_moves_and_events_are_inverse():
    game, _ = new()
    for event in Gotta2Game.legal_moves(game.game)[:50]:
        assert game.move_event(event.player, move_json(event)) == event.to_json()
