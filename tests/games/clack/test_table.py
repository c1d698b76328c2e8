"""Clack! at the table: the adapter the service drives (firmware_host/games/clack/table.py)."""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_host.errors import IllegalMove, InputError
from firmware_host.games.clack import table as clack
from firmware_host.games.clack.engine import ClackGame
from firmware_host.games.clack.events import DiscClaimed, GameStarted
from firmware_host.games.clack.table import ClackTable
from firmware_host.games.table_game import Roll, Setup
from firmware_host.i18n import translator

RED_STARS = [10, 18, 22, 23]  # the discs showing a red star in config/games/clack.yaml
STAR, WHITE_SHAPE = 1, 5  # shape die faces (config/games/clack.yaml: shape_die)
RED, BLUE, WHITE_COLOUR = 0, 3, 5  # colour die faces


def new(*players, variant=None, seed=0):
    setup = Setup(players=players or ("ana", "ben"), seed=seed, variant=variant)
    return ClackTable.replay([ClackTable.first_event(setup)])


def red_star_round(*players, variant=None):
    game = new(*players, variant=variant)
    return game.apply(game.dice_event([STAR, RED]))


def claim(disc, round=1):
    return {"type": "claim", "disc": disc, "round": round}


def play(game, seat, move):
    return game.apply(game.move_event(seat, move))


# -- starting ----------------------------------------------------------------------------------


def test_a_new_game_is_the_race_with_the_first_player_to_roll():
    event = ClackTable.first_event(Setup(players=("ana", "ben", "cleo"), seed=5))
    assert event == {
        "type": "game_started",
        "players": ["ana", "ben", "cleo"],
        "variant": "race",
        "seed": 5,
    }
    game = ClackTable.replay([event])
    assert game.players == ("ana", "ben", "cleo") and not game.over
    assert game.roll() == Roll(dice=(0, 1), by="ana")
    assert ClackTable.KIND == "clack" and ClackTable.DICE == 2
    assert ClackTable.VARIANTS == ("race", "turns")


@pytest.mark.parametrize(
    ("players", "variant", "problem"),
    [
        (("ana",), None, "at least 2 players"),
        (("ana", "ana"), None, "distinct"),
        (("ana", " "), None, "distinct"),
        (("ana", "ben"), "speed", "no variant 'speed'"),
    ],
)
def test_a_bad_setup_is_a_value_error_naming_it(players, variant, problem):
    with pytest.raises(ValueError, match=problem):
        ClackTable.first_event(Setup(players=players, variant=variant))


def test_replay_refuses_a_journal_that_does_not_start_with_the_set_up():
    with pytest.raises(IllegalMove, match="journal is empty"):
        ClackTable.replay([])
    roll = {"type": "dice_rolled", "round": 1, "shape": "star", "color": "red"}
    with pytest.raises(IllegalMove, match="must begin with its set-up"):
        ClackTable.replay([roll])
    started = ClackTable.first_event(Setup(players=("ana", "ben")))
    with pytest.raises(InputError, match="clack event 1: round"):
        ClackTable.replay([started, roll | {"round": "1"}])
    with pytest.raises(IllegalMove, match="already started"):
        ClackTable.replay([started, started])


# -- the dice ----------------------------------------------------------------------------------


def test_the_dice_event_reads_the_shape_die_then_the_colour_die_by_face_index():
    game = new()
    assert game.dice_event([STAR, RED]) == {
        "type": "dice_rolled",
        "round": 1,
        "shape": "star",
        "color": "red",
    }
    assert game.dice_event([WHITE_SHAPE, BLUE])["shape"] == "white"
    assert game.dice_event([STAR, WHITE_COLOUR])["color"] == "white"


@pytest.mark.parametrize(
    ("faces", "where"),
    [
        ([STAR], "dice: faces: expected 2 face indices, got 1"),
        ([STAR, RED, RED], "dice: faces"),
        ([6, RED], "shape die: face index: expected 0..5, got 6"),
        ([STAR, -1], "colour die: face index"),
        ([STAR, True], "colour die: face index: expected an integer"),
        (["1", RED], "shape die: face index: expected an integer"),
    ],
)
def test_bad_faces_are_an_input_error_naming_the_die(faces, where):
    with pytest.raises(InputError, match=where):
        new().dice_event(faces)


def test_the_dice_are_asked_for_only_between_race_rounds():
    game = red_star_round()
    assert game.roll() is None
    with pytest.raises(IllegalMove, match="the dice are not due: Round 1: claim every disc"):
        game.dice_event([STAR, RED])
    for disc in RED_STARS:
        game = play(game, "ana", claim(disc))
    assert game.roll() == Roll(dice=(0, 1), by="ben")
    assert game.dice_event([STAR, RED])["round"] == 2


def test_in_the_turns_variant_the_roll_hands_the_roller_every_matching_disc():
    game = red_star_round(variant="turns")
    assert game.game.stack("ana") == tuple(reversed(RED_STARS))  # each went under the stack
    assert game.roll() == Roll(dice=(0, 1), by="ben")
    view = game.view()
    assert view["waiting_for"] == [] and view["game"]["claimable"] == []
    assert view["game"]["last"] == "Round 1: ana rolled a red star and takes discs 10, 18, 22, 23"
    game = game.apply(game.dice_event([STAR, RED]))  # every red star is gone already
    assert game.view()["game"]["last"] == (
        "Round 2: ben rolled a red star; no disc on the table matches"
    )
    assert game.roll() == Roll(dice=(0, 1), by="ana")
    with pytest.raises(IllegalMove, match="the roller takes every matching disc"):
        game.move_event("ben", claim(1, 2))


# -- claims ------------------------------------------------------------------------------------


def test_a_claim_of_a_matching_disc_takes_it():
    game = red_star_round("ana", "ben", "cleo")
    event = game.move_event("cleo", claim(18))
    assert event == {"type": "disc_claimed", "round": 1, "player": "cleo", "disc": 18}
    game = game.apply(event)
    view = game.view()
    assert view["scores"] == {"ana": 0, "ben": 0, "cleo": 1}
    assert view["game"]["stacks"]["cleo"] == [18] and 18 not in view["game"]["table"]
    assert view["game"]["last"] == "cleo takes disc 18"
    assert view["game"]["left"] == 3


def test_a_claim_without_a_round_is_for_the_open_round():
    game = red_star_round()
    assert game.move_event("ben", {"type": "claim", "disc": 10})["round"] == 1
    with pytest.raises(IllegalMove, match="ana's claim of disc 3 is refused: no round is open"):
        new().move_event("ana", {"type": "claim", "disc": 3})


def test_a_wrong_claim_returns_the_disc_and_a_penalty_disc():
    game = play(play(red_star_round(), "ben", claim(10)), "ben", claim(22))
    game = play(game, "ben", claim(1))  # disc 1 shows no red star
    view = game.view()
    # 22 went under the stack, so the top disc, the penalty, is 10 (taken first)
    assert view["game"]["stacks"]["ben"] == [22] and view["scores"]["ben"] == 1
    assert 1 in view["game"]["table"] and 10 in view["game"]["table"]
    assert view["game"]["last"] == (
        "ben's disc 1 does not match; it stays on the table and ben returns disc 10 as a penalty"
    )
    fresh = red_star_round()
    after = play(fresh, "ana", claim(1))
    assert after.game.table == fresh.game.table and after.view()["scores"]["ana"] == 0


@pytest.mark.parametrize(
    ("seat", "move", "refusal"),
    [
        ("ben", claim(10), "ben's claim of disc 10 in round 1 is refused: disc 10 is already in "),
        ("ben", claim(99), "ben's claim of disc 99 in round 1 is refused: there is no disc 99"),
        ("ben", claim(18, 2), "round 2 has not started"),
        ("ben", claim(18, 0), "too late, round 0 is over"),
        ("cleo", claim(18), "'cleo' cannot claim disc 18: not a player of this game"),
    ],
)
def test_refused_claims_name_the_player_and_the_rule(seat, move, refusal):
    game = play(red_star_round(), "ana", claim(10))
    with pytest.raises(IllegalMove, match=refusal):
        game.move_event(seat, move)


def test_a_late_claim_for_a_round_that_is_over_is_refused():
    game = red_star_round()
    for disc in RED_STARS:
        game = play(game, "ana", claim(disc))
    with pytest.raises(IllegalMove, match="ben's claim of disc 18 in round 1 is refused: too late"):
        game.move_event("ben", claim(18))
    game = game.apply(game.dice_event([WHITE_SHAPE, WHITE_COLOUR]))  # round 2: every disc
    with pytest.raises(IllegalMove, match="claim of disc 1 in round 1 is refused: too late"):
        game.move_event("ben", claim(1, round=1))  # the same disc, claimed for round 1
    assert game.move_event("ben", claim(1, round=2))["player"] == "ben"


def test_the_second_of_two_claims_of_one_disc_is_refused_and_the_first_stands():
    game = red_star_round("ana", "ben", "cleo")
    first = game.move_event("ben", claim(23))
    second = game.move_event("cleo", claim(23))  # both judged against the same view
    game = game.apply(first)
    with pytest.raises(IllegalMove, match="disc 23 is already in ben's stack"):
        game.apply(second)
    assert game.view()["game"]["stacks"] == {"ana": [], "ben": [23], "cleo": []}


def test_no_claim_once_the_game_is_over():
    game = new().apply(new().dice_event([WHITE_SHAPE, WHITE_COLOUR]))
    for disc in range(1, 37):
        game = play(game, "ana" if disc <= 20 else "ben", claim(disc))
    assert game.over and game.roll() is None
    with pytest.raises(IllegalMove, match="ben's claim of disc 1 in round 1 is refused: the game"):
        game.move_event("ben", claim(1))
    with pytest.raises(IllegalMove, match="the dice are not due: Game over: ana wins with 20"):
        game.dice_event([STAR, RED])


@pytest.mark.parametrize(
    ("move", "where"),
    [
        ([], "clack move: (top level): expected a JSON object"),
        ({"disc": 3}, "clack move: type: expected 'claim', got None"),
        ({"type": "roll", "disc": 3}, "clack move: type: expected 'claim'"),
        ({"type": "claim"}, "clack move: disc: missing"),
        ({"type": "claim", "disc": "3"}, "clack move: disc: expected a disc id"),
        ({"type": "claim", "disc": 3.0}, "clack move: disc: expected a disc id"),
        ({"type": "claim", "disc": True}, "clack move: disc: expected a disc id"),
        ({"type": "claim", "disc": 3, "round": "1"}, "clack move: round: expected a round"),
        ({"type": "claim", "disc": 3, "player": "ben"}, "clack move: player: unknown key"),
    ],
)
def test_a_malformed_move_is_an_input_error_naming_the_key(move, where):
    with pytest.raises(InputError) as caught:
        red_star_round().move_event("ana", move)
    assert str(caught.value).startswith(where)


JSON_VALUES = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5)
MOVES = st.dictionaries(
    st.sampled_from(["type", "disc", "round", "player", ""]),
    JSON_VALUES | st.sampled_from(["claim"]) | st.integers(0, 40),
    max_size=4,
)
GAME = play(red_star_round("ana", "ben"), "ana", claim(10))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(move=MOVES, seat=st.sampled_from(["ana", "ben", "cleo"]))
def test_any_move_gives_a_claim_the_game_takes_or_one_clear_refusal(move, seat):
    before = GAME.view()
    try:
        event = GAME.move_event(seat, move)
    except (InputError, IllegalMove) as refusal:
        assert str(refusal)
    else:
        assert event == DiscClaimed(move.get("round", 1), seat, move["disc"]).to_json()
        assert move["disc"] in before["game"]["claimable"]
        GAME.apply(event)
    assert GAME.view() == before


# -- the view ----------------------------------------------------------------------------------


def test_the_view_has_the_common_keys_and_is_json():
    view = red_star_round("ana", "ben").view()
    assert json.loads(json.dumps(view)) == view
    assert view["kind"] == "clack" and view["title"] == "Clack!"
    assert view["players"] == ["ana", "ben"] and view["score_label"] == "discs"
    assert view["waiting_for"] == ["ana", "ben"] and view["roll"] is None
    assert view["status"] == "Round 1: claim every disc showing a red star!"
    assert not view["over"] and view["winners"] == []
    part = view["game"]
    assert part["variant"] == "race" and part["round"] == 1 and part["round_open"]
    assert part["dice"] == {"shape": "star", "color": "red"} and part["roller"] == "ana"
    assert len(part["discs"]) == 36 and part["discs"][0]["symbols"] == [
        "red arrow",
        "green star",
        "yellow foot",
    ]
    assert part["claimable"] == part["table"] == list(range(1, 37))
    assert part["left"] == 4
    before = new().view()
    assert before["roll"] == {"dice": [0, 1], "by": "ana"}
    assert before["status"] == "Round 1: ana rolls the dice" and before["waiting_for"] == []
    assert before["game"]["dice"] is None and before["game"]["last"] is None


def test_the_status_says_what_a_wild_roll_asks_for():
    game = new()
    said = {
        (STAR, WHITE_COLOUR): "a star of any colour",
        (WHITE_SHAPE, BLUE): "any blue symbol",
        (WHITE_SHAPE, WHITE_COLOUR): "any symbol",
    }
    for faces, words in said.items():
        status = game.apply(game.dice_event(list(faces))).view()["status"]
        assert status == f"Round 1: claim every disc showing {words}!"


def test_the_view_names_the_winners_ties_all_win():
    game = new("ana", "ben", "cleo")
    game = game.apply(game.dice_event([WHITE_SHAPE, WHITE_COLOUR]))
    for disc in range(1, 37):
        game = play(game, "ana" if disc <= 14 else "ben" if disc <= 28 else "cleo", claim(disc))
    view = game.view()
    assert view["over"] and view["winners"] == ["ana", "ben"]
    assert view["status"] == "Game over: ana and ben tie with 14 discs"
    assert view["scores"] == {"ana": 14, "ben": 14, "cleo": 8}
    assert view["waiting_for"] == [] and view["roll"] is None


def legal_claims(game, player):
    """The discs the engine accepts a claim of from ``player`` now, found by asking it."""
    accepted = []
    for disc in range(1, 37):
        try:
            game.game.judge_claim(DiscClaimed(game.game.round, player, disc))
        except IllegalMove:
            continue
        accepted.append(disc)
    return accepted


# -- whole games -------------------------------------------------------------------------------


def autoplay(players, variant, seed):
    """A whole game through the adapter only: seeded faces for the dice, auto_move for the
    players; at every step the view offers exactly the claims the engine accepts."""
    rng = random.Random(seed)
    journal = [ClackTable.first_event(Setup(players=players, seed=seed, variant=variant))]
    game = ClackTable.replay(journal)
    for _ in range(5_000):
        if game.over:
            return game, journal
        view = game.view()
        for player in players:
            offered = view["game"]["claimable"] if player in view["waiting_for"] else []
            assert offered == legal_claims(game, player)
        if game.roll() is not None:
            event = game.dice_event([rng.randrange(6), rng.randrange(6)])
        else:
            player = rng.choice(view["waiting_for"])
            event = game.move_event(player, game.auto_move(player, rng))
        game = game.apply(event)
        journal.append(event)
    raise AssertionError("the game did not end in 5 000 events")


@pytest.mark.parametrize(("variant", "seed"), [("race", 1), ("race", 2), ("turns", 3)])
def test_a_whole_game_plays_to_the_end_and_replays_from_its_journal(variant, seed):
    players = ("ana", "ben", "cleo")
    game, journal = autoplay(players, variant, seed)
    view = game.view()
    held = sorted(d for stack in view["game"]["stacks"].values() for d in stack)
    assert held == list(range(1, 37)) and view["game"]["table"] == []
    assert view["winners"] and view["status"].startswith("Game over: ")
    assert sum(view["scores"].values()) == 36
    assert ClackTable.replay(json.loads(json.dumps(journal))) == game
    assert autoplay(players, variant, seed)[1] == journal  # same seed, same game
    assert all(game.auto_move(p, random.Random(0)) is None for p in players)


def test_simulated_players_sometimes_grab_a_wrong_disc_and_pay_for_it():
    _, journal = autoplay(("ana", "ben"), "race", 2)
    game = ClackTable.replay(journal[:1])
    penalties = 0
    for event in journal[1:]:
        game = game.apply(event)
        penalties += "as a penalty" in str(game.last or "")
    assert penalties > 0


def test_a_refused_claim_is_said_in_the_players_language():
    game = ClackGame.start(clack.disc_set(), GameStarted(players=("ana", "ben"), seed=1))
    with pytest.raises(IllegalMove) as refused:
        game.judge_claim(DiscClaimed(2, "ben", 3))
    assert translator("de").say(refused.value.text) == (
        "ben bekommt Scheibe 3 in Runde 2 nicht: Runde 2 hat noch nicht begonnen"
    )
