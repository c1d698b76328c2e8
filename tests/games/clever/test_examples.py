"""The two worked examples of the rule text, played through the engine."""

import pytest

from firmware_host.errors import IllegalMove
from firmware_host.games.clever.game import Phase
from firmware_host.games.clever.layout import Color
from tests.clever_support import choose, new_game, passed, play, roll

OLIVIA_ROLL = roll(
    "Olivia", "yellow heart", "yellow green", "green present", "red candle", "blue cake"
)


def test_olivia_crosses_the_red_heart_balloon_and_leaves_the_green_one():
    """Olivia picks yellow: the red heart balloon is crossed, the green balloon cannot be
    (the blue balloon comes first) and goes to the other players with the unused dice."""
    game = play(new_game("Olivia", "Eric"), OLIVIA_ROLL)
    draft = game.draft("Olivia", Color.YELLOW)
    assert [(u.box, u.dice) for u in draft.use_options()] == [("yellow.1", (0,))]

    draft = draft.use(draft.use_options()[0])
    assert draft.use_options() == []
    with pytest.raises(IllegalMove, match=r"Olivia .*balloon 2 \(blue\) \[yellow\.2\] comes first"):
        draft.use(choose("Olivia", "yellow", ("yellow.4", (1,))).uses[0])
    with pytest.raises(IllegalMove, match=r"yellow green, which is not the blue needed"):
        draft.use(choose("Olivia", "yellow", ("yellow.2", (1,))).uses[0])

    game = game.apply(draft.event())
    assert game.sheets["Olivia"] == {"yellow.1"}
    assert game.phase is Phase.OTHERS
    assert game.dice_for("Eric")[1].describe() == "yellow green"
    assert sorted(game.dice_for("Eric")) == [1, 2, 3, 4]
    assert game.colors("Eric") == [Color.GREEN]  # one candle: the first wagon needs two


def test_olivia_may_not_cross_the_green_balloon_in_her_choice():
    game = play(new_game("Olivia", "Eric"), OLIVIA_ROLL)
    illegal = choose("Olivia", "yellow", ("yellow.1", (0,)), ("yellow.4", (1,)))
    with pytest.raises(IllegalMove, match=r"^Olivia cannot cross balloon 4 \(green\)"):
        game.apply(illegal)
    assert game.phase is Phase.START and game.sheets["Olivia"] == frozenset()


def erics_game_before_his_bonus_turn():
    """The state the text implies: Eric has crossed the red heart balloon (the blue balloon
    is next) and nothing else; his train is untouched."""
    return play(
        new_game("Eric", "Olivia"),
        roll("Eric", "yellow heart", "yellow pink", "green present", "red candle", "blue cake"),
        choose("Eric", "yellow", ("yellow.1", (0,))),
        passed("Olivia"),
        roll("Olivia", "yellow blue", "red candle", "green present", "blue cupcake", "blue cake"),
        choose("Olivia", "green", ("green.1.1", (2,))),
        passed("Eric"),
    )


def test_eric_bonus_chain_pink_balloon_to_donuts_to_two_candles_and_a_star():
    game = erics_game_before_his_bonus_turn()
    assert game.starter == "Eric" and game.sheets["Eric"] == {"yellow.1"}
    game = game.apply(
        roll("Eric", "joker", "yellow pink", "green present", "red candle", "blue cake")
    )

    draft = game.draft("Eric", Color.YELLOW)
    draft = draft.use(choose("Eric", "yellow", ("yellow.2", (0,))).uses[0])  # joker: blue
    draft = draft.use(choose("Eric", "yellow", ("yellow.3", (1,))).uses[0])  # pink, blue circle
    assert draft.pending == (Color.BLUE,)
    assert draft.bonus_options() == ["blue.cupcake.1", "blue.donut.1", "blue.cake.1"]
    draft = draft.bonus("blue.donut.1")  # both donuts at once, in a red circle
    assert draft.pending == (Color.RED,)
    assert draft.bonus_options() == ["red.1"]
    draft = draft.bonus("red.1")  # "the two candles", the first wagon, whole, with its star
    assert draft.pending == ()

    game = game.apply(draft.event())
    assert game.sheets["Eric"] == {
        "yellow.1",
        "yellow.2",
        "yellow.3",
        "blue.donut.1",
        "red.1",
    }
    assert game.stars("Eric")[Color.RED] == 1
    assert game.scores()["Eric"] == 1


def test_eric_cannot_spend_his_blue_bonus_in_red():
    game = erics_game_before_his_bonus_turn().apply(
        roll("Eric", "joker", "yellow pink", "green present", "red candle", "blue cake")
    )
    illegal = choose("Eric", "yellow", ("yellow.2", (0,)), ("yellow.3", (1,)), bonuses=["red.1"])
    with pytest.raises(IllegalMove, match=r"^Eric cannot make a bonus cross on wagon 1.*due: blue"):
        game.apply(illegal)
