"""The rules of Clack!, one test per rule, and whole seeded games."""

import random

import pytest

from firmware_host.errors import IllegalMove
from firmware_host.games.clack.arbiter import Arbiter
from firmware_host.games.clack.dice import VirtualDice
from firmware_host.games.clack.discs import load_disc_set
from firmware_host.games.clack.engine import ClackGame, replay
from firmware_host.games.clack.events import DiceRolled, DiscClaimed, GameStarted, read_event
from firmware_host.games.gotta2.events import PiecePlaced

DISCS = load_disc_set()
RED_STARS = (10, 18, 22, 23)  # the discs showing a red star in config/games/clack.yaml


def start(*players, variant="race"):
    return ClackGame.start(DISCS, GameStarted(players=players or ("ana", "ben"), variant=variant))


def red_star_round():
    return start().apply(DiceRolled(round=1, shape="star", color="red"))


def test_a_roll_opens_a_round_with_the_matching_discs():
    game = red_star_round()
    assert game.round == 1 and game.round_open
    assert game.matching() == RED_STARS
    assert game.roller == "ana"


def test_a_matching_claim_takes_the_disc_onto_the_stack():
    game = red_star_round().apply(DiscClaimed(1, "ben", 22))
    assert game.stack("ben") == (22,)
    assert 22 not in game.table
    assert game.matching() == (10, 18, 23)


def test_the_round_lasts_until_no_matching_disc_is_left_then_the_next_player_rolls():
    game = red_star_round()
    for disc in RED_STARS[:-1]:
        game = game.apply(DiscClaimed(1, "ana", disc))
        assert game.round_open and game.roller == "ana"
    game = game.apply(DiscClaimed(1, "ben", RED_STARS[-1]))
    assert not game.round_open and game.awaiting_roll
    assert game.roller == "ben"
    assert game.heights() == {"ana": 3, "ben": 1}


def test_a_roll_nothing_matches_ends_its_round_at_once():
    game = red_star_round()
    for disc in RED_STARS:
        game = game.apply(DiscClaimed(1, "ana", disc))
    game = game.apply(DiceRolled(round=2, shape="star", color="red"))
    assert game.round == 2 and not game.round_open
    assert game.roller == "ana"  # ben rolled round 2; play passes back to ana


def test_a_disc_picked_up_goes_under_the_stack():
    # "they put the discs they've already collected on top of the matching discs"
    game = red_star_round().apply(DiscClaimed(1, "ben", 10)).apply(DiscClaimed(1, "ben", 18))
    assert game.stack("ben") == (18, 10)  # bottom first: 10, taken first, is on top


def test_a_wrong_claim_returns_the_disc_and_the_top_disc_of_the_stack():
    # "they return this disc plus one penalty disc": with the text's pick-up the disc on
    # top of the stack is the first one taken (10), not the last (18)
    game = red_star_round().apply(DiscClaimed(1, "ben", 10)).apply(DiscClaimed(1, "ben", 18))
    outcome = game.judge_claim(DiscClaimed(1, "ben", 1))
    assert not outcome.taken and outcome.penalty == 10
    after = game.apply(DiscClaimed(1, "ben", 1))
    assert after.stack("ben") == (18,)
    assert 1 in after.table and 10 in after.table
    assert after.matching() == (10, 22, 23)  # the penalty disc can be grabbed again


def test_a_wrong_claim_costs_nothing_to_a_player_without_discs():
    game = red_star_round()
    after = game.apply(DiscClaimed(1, "ana", 1))
    assert game.judge_claim(DiscClaimed(1, "ana", 1)).penalty is None
    assert after.table == game.table and after.stacks == game.stacks


@pytest.mark.parametrize(
    ("claim", "reason"),
    [
        (DiscClaimed(1, "ben", 10), "disc 10 is already in ana's stack"),
        (DiscClaimed(2, "ben", 18), "round 2 has not started"),
        (DiscClaimed(1, "cleo", 18), "'cleo' cannot claim disc 18: not a player"),
        (DiscClaimed(1, "ben", 99), "there is no disc 99 in the set"),
    ],
)
def test_refused_claims_change_nothing(claim, reason):
    game = red_star_round().apply(DiscClaimed(1, "ana", 10))
    with pytest.raises(IllegalMove, match=reason):
        game.apply(claim)
    assert game.stack("ana") == (10,) and game.matching() == (18, 22, 23)


def test_a_late_claim_for_an_earlier_round_is_refused():
    game = red_star_round()
    for disc in RED_STARS:
        game = game.apply(DiscClaimed(1, "ana", disc))
    game = game.apply(DiceRolled(round=2, shape="arrow", color="white"))
    assert game.round_open
    arrow_disc = game.matching()[0]
    with pytest.raises(
        IllegalMove, match=r"ben.s claim of disc \d+ in round 1 is refused: too late"
    ):
        game.apply(DiscClaimed(1, "ben", arrow_disc))
    with pytest.raises(IllegalMove, match="too late"):
        red_star_round().apply(DiscClaimed(0, "ben", 10))


def test_a_claim_between_rounds_is_late():
    game = red_star_round()
    for disc in RED_STARS:
        game = game.apply(DiscClaimed(1, "ana", disc))
    with pytest.raises(IllegalMove, match="too late, round 1 is over"):
        game.apply(DiscClaimed(1, "ben", 1))


def test_rolls_come_one_round_at_a_time():
    game = red_star_round()
    with pytest.raises(IllegalMove, match="round 1 goes on while matching discs"):
        game.apply(DiceRolled(round=2, shape="star", color="red"))
    with pytest.raises(IllegalMove, match="the next round is round 1"):
        start().apply(DiceRolled(round=3, shape="star", color="red"))
    with pytest.raises(IllegalMove, match="already started"):
        game.apply(GameStarted(players=("x", "y")))


def test_both_white_every_disc_matches_and_the_last_disc_ends_the_game():
    game = start("ana", "ben", "cleo").apply(DiceRolled(round=1, shape="white", color="white"))
    assert game.matching() == tuple(range(1, 37))
    players = ["ana", "ben", "cleo"]
    for disc in range(1, 37):
        assert not game.over
        game = game.apply(DiscClaimed(1, players[disc % 3], disc))
    assert game.over and not game.table and not game.awaiting_roll
    with pytest.raises(IllegalMove, match="the game is over"):
        game.apply(DiscClaimed(1, "ana", 1))
    with pytest.raises(IllegalMove, match="the game is over"):
        game.apply(DiceRolled(round=2, shape="star", color="red"))


def test_the_tallest_stack_wins_and_ties_all_win():
    game = start("ana", "ben", "cleo").apply(DiceRolled(round=1, shape="white", color="white"))
    for disc in range(1, 37):
        game = game.apply(
            DiscClaimed(1, "ana" if disc <= 14 else "ben" if disc <= 28 else "cleo", disc)
        )
    assert game.heights() == {"ana": 14, "ben": 14, "cleo": 8}
    assert game.winners() == ("ana", "ben")
    game = start("ana", "ben").apply(DiceRolled(round=1, shape="white", color="white"))
    for disc in range(1, 37):
        assert game.winners() == ()
        game = game.apply(DiscClaimed(1, "ana" if disc <= 19 else "ben", disc))
    assert game.winners() == ("ana",)


def test_young_children_variant_the_roller_takes_every_matching_disc():
    game = start(variant="turns").apply(DiceRolled(round=1, shape="star", color="red"))
    assert game.stack("ana") == tuple(reversed(RED_STARS))  # each went under the stack
    assert not game.round_open and game.roller == "ben"
    game = game.apply(DiceRolled(round=2, shape="white", color="blue"))
    assert len(game.stack("ben")) == len(DISCS.matching("white", "blue")) - 1  # 23 went to ana
    with pytest.raises(IllegalMove, match="the roller takes every matching disc"):
        start(variant="turns").apply(DiceRolled(1, "star", "red")).apply(DiscClaimed(1, "ben", 1))


def test_starting_needs_two_distinct_players():
    with pytest.raises(IllegalMove, match="at least 2 players"):
        start("ana")
    with pytest.raises(IllegalMove, match="distinct"):
        start("ana", "ana")


def play_game(discs, started, blunder=0.1):
    """A whole game through an arbiter, seeded random players choosing among the moves the
    engine offers; now and then a player grabs a wrong disc."""
    table = Arbiter(discs, started)
    dice = VirtualDice(discs, started.seed)
    choose = random.Random(started.seed + 1)
    for _ in range(10_000):
        game = table.game
        if game.over:
            return table
        if game.awaiting_roll:
            assert table.submit(dice.roll(game.round + 1)).accepted
            continue
        player = choose.choice(game.players)
        pool = game.table if choose.random() < blunder else game.legal_claims()
        decision = table.submit(DiscClaimed(game.round, player, choose.choice(pool)))
        assert decision.accepted, decision.message
    raise AssertionError("the game did not end in 10 000 moves")


@pytest.mark.parametrize(
    ("seed", "variant"), [(1, "race"), (2, "race"), (3, "turns"), (4, "turns")]
)
def test_a_whole_seeded_game_plays_to_the_end_and_replays_from_its_json(seed, variant):
    started = GameStarted(players=("ana", "ben", "cleo", "dan"), variant=variant, seed=seed)
    table = play_game(DISCS, started)
    game = table.game
    assert game.over
    assert sorted(d for s in game.stacks for d in s) == list(range(1, 37))
    assert game.winners()
    journal = [e.to_json() for e in table.events()]
    assert replay(DISCS, [read_event(e) for e in journal]) == game
    assert play_game(DISCS, started).events() == table.events()  # same seed, same game


def test_an_event_of_another_game_is_refused():
    with pytest.raises(IllegalMove, match="is not an event of a Clack! game"):
        red_star_round().apply(PiecePlaced("ana", "1-1", 0, 0))
