"""The flow of a game: rolls, the starting player's choice, the others, the end and the winners."""

from dataclasses import replace

import pytest

from firmware_host.errors import IllegalMove
from firmware_host.games.clever.events import DiceRolled, GameStarted
from firmware_host.games.clever.game import Game, Phase
from firmware_host.games.clever.layout import Color
from tests.clever_support import choose, new_game, passed, play, roll

USELESS = ("yellow blue", "yellow pink", "blue cake", "yellow blue", "yellow green")
"""A roll a fresh sheet can use nothing of: no heart, no candle, no present, no pair, no joker."""

GREENS = ("green present",) * 5


def test_the_first_starting_player_rolls_first():
    game = new_game("Ann", "Ben", "Cid", first="Ben")
    assert game.phase is Phase.ROLL and game.waiting_for == ("Ben",)
    with pytest.raises(IllegalMove, match=r"^Ann cannot roll the dice: Ben is the starting player"):
        game.apply(roll("Ann", *GREENS))
    with pytest.raises(IllegalMove, match=r"^Ben cannot choose green: Ben has not rolled the dice"):
        game.apply(choose("Ben", "green", ("green.1.1", (0,))))
    assert game.apply(roll("Ben", *GREENS)).phase is Phase.START


def test_a_game_needs_distinct_players_and_a_first_among_them():
    with pytest.raises(IllegalMove, match=r"not one of the players"):
        Game.start(new_game("Ann").sheet, GameStarted(("Ann", "Ben"), "Zoe", 1))
    with pytest.raises(IllegalMove, match=r"a name twice"):
        Game.start(new_game("Ann").sheet, GameStarted(("Ann", "Ann"), "Ann", 1))
    with pytest.raises(IllegalMove, match=r"without players"):
        Game.start(new_game("Ann").sheet, GameStarted((), "Ann", 1))


def test_a_roll_has_one_existing_face_per_die():
    game = new_game("Ann", "Ben")
    with pytest.raises(IllegalMove, match=r"a roll has 5 dice, got 4 faces"):
        game.apply(DiceRolled("Ann", (0, 0, 0, 0)))
    with pytest.raises(IllegalMove, match=r"die 2 has faces 0 to 5, got 6"):
        game.apply(DiceRolled("Ann", (0, 0, 6, 0, 0)))


def test_the_starting_player_rolls_again_while_nothing_is_usable():
    game = play(new_game("Ann", "Ben"), roll("Ann", *USELESS))
    assert game.must_reroll and game.waiting_for == ("Ann",)
    with pytest.raises(IllegalMove, match=r"no die can be used, so the starting player rolls"):
        game.apply(choose("Ann", "yellow", ("yellow.1", (0,))))
    with pytest.raises(IllegalMove, match=r"uses at least one die, rolling again if needed"):
        game.apply(passed("Ann"))
    game = game.apply(roll("Ann", *GREENS))
    assert not game.must_reroll
    with pytest.raises(IllegalMove, match=r"rolls again only when no die can be used"):
        game.apply(roll("Ann", *USELESS))


def test_the_starting_player_crosses_at_least_one_symbol():
    game = play(new_game("Ann", "Ben"), roll("Ann", *GREENS))
    with pytest.raises(IllegalMove, match=r"a choice crosses at least one symbol with dice"):
        game.apply(choose("Ann", "green"))


def test_the_others_choose_from_the_dice_the_starter_did_not_use_and_share_them():
    game = play(
        new_game("Ann", "Ben", "Cid"),
        roll("Ann", "red candle", "green present", "green present", "blue cupcake", "yellow green"),
        choose("Ann", "green", ("green.1.1", (1,))),
    )
    assert sorted(game.dice_for("Ben")) == [0, 2, 3, 4]
    with pytest.raises(
        IllegalMove, match=r"die 1 is not among the dice left to use \(0, 2, 3, 4\)"
    ):
        game.apply(choose("Ben", "green", ("green.1.1", (1,))))
    game = game.apply(choose("Ben", "green", ("green.1.1", (2,))))
    assert game.waiting_for == ("Cid",)
    game = game.apply(choose("Cid", "green", ("green.3.3", (2,))))
    assert game.sheets == {"Ann": {"green.1.1"}, "Ben": {"green.1.1"}, "Cid": {"green.3.3"}}


def test_the_others_choose_after_the_starter_and_once():
    game = play(new_game("Ann", "Ben", "Cid"), roll("Ann", *GREENS))
    with pytest.raises(IllegalMove, match=r"^Ben cannot choose green: the others choose after"):
        game.apply(choose("Ben", "green", ("green.1.1", (0,))))
    game = game.apply(choose("Ann", "green", ("green.1.1", (0,))))
    with pytest.raises(IllegalMove, match=r"the starting player has made their choice"):
        game.apply(choose("Ann", "green", ("green.1.2", (1,))))
    game = game.apply(choose("Ben", "green", ("green.1.1", (1,))))
    with pytest.raises(IllegalMove, match=r"^Ben cannot pass: each other player chooses once"):
        game.apply(passed("Ben"))
    with pytest.raises(IllegalMove, match=r"^Zoe cannot pass: not a player of this game"):
        game.apply(passed("Zoe"))


NOTHING_FOR_A_FRESH_SHEET = (
    "yellow blue",
    "yellow pink",
    "green present",
    "yellow blue",
    "blue cake",
)
"""Once the starter takes the present, a fresh sheet can use none of the rest."""


def test_a_player_who_can_use_nothing_loses_out_and_the_turn_moves_on():
    game = play(
        new_game("Ann", "Ben"),
        roll("Ann", *NOTHING_FOR_A_FRESH_SHEET),
        choose("Ann", "green", ("green.1.1", (2,))),
    )
    assert game.phase is Phase.ROLL and game.starter == "Ben" and game.turn == 2
    assert game.sheets["Ben"] == frozenset()


def test_only_the_players_who_can_use_something_are_waited_for():
    game = near_the_end(new_game("Ann", "Ben", "Cid"), "Cid", {"yellow.1"})
    game = play(game, roll("Ann", *NOTHING_FOR_A_FRESH_SHEET))
    game = game.apply(choose("Ann", "green", ("green.1.1", (2,))))
    assert not game.can_use("Ben") and game.waiting_for == ("Cid",)
    with pytest.raises(IllegalMove, match=r"^Ben cannot pass: none of the dice left"):
        game.apply(passed("Ben"))
    game = game.apply(choose("Cid", "yellow", ("yellow.2", (0,))))
    assert game.starter == "Ben" and game.phase is Phase.ROLL


def test_the_others_may_pass():
    game = play(
        new_game("Ann", "Ben"), roll("Ann", *GREENS), choose("Ann", "green", ("green.1.1", (0,)))
    )
    assert game.waiting_for == ("Ben",)
    game = game.apply(passed("Ben"))
    assert game.starter == "Ben" and game.phase is Phase.ROLL and game.sheets["Ben"] == frozenset()


def test_the_starting_player_passes_clockwise():
    game = new_game("Ann", "Ben", "Cid")
    for row, starter in enumerate(("Ann", "Ben", "Cid", "Ann"), start=1):
        assert game.starter == starter
        game = game.apply(roll(starter, *GREENS))
        game = game.apply(choose(starter, "green", (f"green.1.{row}", (0,))))
        game = play(game, *(passed(p) for p in game.waiting_for))


def test_an_illegal_event_leaves_the_game_as_it_was():
    game = play(new_game("Ann", "Ben"), roll("Ann", *GREENS))
    before = replace(game)
    with pytest.raises(IllegalMove):
        game.apply(choose("Ann", "green", ("green.1.1", (0,)), ("green.1.1", (1,))))
    assert game == before and game.sheets["Ann"] == frozenset()


def near_the_end(game, player, crossed):
    """``game`` with ``player``'s sheet set to ``crossed`` (a short cut to a late position)."""
    return replace(game, sheets={**game.sheets, player: frozenset(crossed)})


ELEVEN_PRESENTS = {f"green.{r}.{c}" for r in (1, 2, 3) for c in (1, 2, 3, 4)} - {"green.3.4"}


def test_the_starter_completing_an_area_ends_the_game_after_the_others_use_the_dice():
    game = near_the_end(new_game("Ann", "Ben"), "Ann", ELEVEN_PRESENTS)
    game = play(
        game,
        roll("Ann", "red candle", "green present", "green present", "blue cupcake", "yellow green"),
    )
    game = game.apply(choose("Ann", "green", ("green.3.4", (1,)), bonuses=["blue.cupcake.1"]))
    assert game.completed("Ann") == [Color.GREEN]
    assert not game.over and game.waiting_for == ("Ben",)
    assert sorted(game.dice_for("Ben")) == [0, 2, 3, 4]
    game = game.apply(choose("Ben", "green", ("green.1.1", (2,))))
    assert game.over and game.waiting_for == ()
    assert game.scores() == {"Ann": 4, "Ben": 0}
    assert game.winners() == ("Ann",)
    with pytest.raises(IllegalMove, match=r"the game is over"):
        game.apply(roll("Ann", *GREENS))


def test_another_player_completing_an_area_ends_the_game_at_the_end_of_the_turn():
    game = near_the_end(new_game("Ann", "Ben", "Cid"), "Ben", ELEVEN_PRESENTS)
    game = play(game, roll("Ann", *GREENS), choose("Ann", "green", ("green.1.1", (0,))))
    game = game.apply(choose("Ben", "green", ("green.3.4", (1,))))
    assert not game.over and game.waiting_for == ("Cid",)
    game = game.apply(passed("Cid"))
    assert game.over


def test_winners_share_a_tie():
    game = near_the_end(new_game("Ann", "Ben", "Cid"), "Ben", ELEVEN_PRESENTS)
    yellow_to_7 = {f"yellow.{i}" for i in range(1, 8)}  # stars beside balloons 4 and 7
    game = near_the_end(game, "Cid", yellow_to_7 | {"red.1", "red.2"})  # star beside wagon 1
    assert game.winners() == ()
    game = play(game, roll("Ann", *GREENS), choose("Ann", "green", ("green.1.1", (0,))))
    game = play(game, choose("Ben", "green", ("green.3.4", (1,))), passed("Cid"))
    assert game.over
    assert game.scores() == {"Ann": 0, "Ben": 4, "Cid": 3}
    assert game.winners() == ("Ben",)
    cid_ties = near_the_end(
        game, "Cid", yellow_to_7 | {"red.1", "red.2", "red.3", "red.4", "red.5"}
    )
    assert cid_ties.winners() == ("Ben", "Cid")


def test_bonus_crosses_are_optional_and_lapse_at_the_end_of_the_turn():
    game = near_the_end(new_game("Ann", "Ben"), "Ann", {"red.1", "red.2"})
    game = play(
        game,
        roll("Ann", "red candle", "green present", "green present", "blue cupcake", "yellow green"),
    )
    draft = game.draft("Ann", Color.RED).use(choose("Ann", "red", ("red.3", (0,))).uses[0])
    assert draft.pending == (Color.GREEN,)
    game = game.apply(draft.event())
    assert game.sheets["Ann"] == {"red.1", "red.2", "red.3"}
    assert game.phase is Phase.OTHERS


def test_a_game_starts_once():
    game = new_game("Ann", "Ben")
    with pytest.raises(IllegalMove, match=r"cannot happen during a game \(it starts one\)"):
        game.apply(GameStarted(("Ann", "Ben"), "Ann", 1))
    with pytest.raises(IllegalMove, match="must begin with its set-up"):
        Game.replay(game.sheet, [roll("Ann", *GREENS)])
