"""The crossing rules of each area and the bonus crosses, one rule per test."""

import pytest

from firmware_host.errors import IllegalMove
from firmware_host.games.clever.events import Use
from firmware_host.games.clever.layout import Color, Face
from firmware_host.games.clever.turn import Draft
from tests.clever_support import sheet


def draft_after(color, *shown, crossed=()):
    """Olivia's turn in ``color`` with dice showing ``shown``, her sheet holding ``crossed``.

    The faces need not be possible with the reference dice: the rules hold for any faces.
    """
    dice = {d: Face.parse(name) for d, name in enumerate(shown)}
    return Draft(sheet(), "Olivia", Color(color), dice, frozenset(crossed))


ALL_JOKERS = ("joker", "joker", "joker", "blue cupcake", "blue cake")


def test_only_dice_of_the_chosen_colour_and_jokers():
    draft = draft_after(
        "green", "red candle", "green present", "joker", "blue cupcake", "yellow green"
    )
    assert {u.dice for u in draft.use_options() if u.box == "green.1.1"} == {(1,), (2,)}
    with pytest.raises(IllegalMove, match=r"die 0 shows red candle: a turn uses the dice of one"):
        draft.use(Use("green.1.1", (0,)))


def test_all_crosses_of_a_turn_in_one_area():
    draft = draft_after(
        "green", "red candle", "green present", "joker", "blue cupcake", "yellow green"
    )
    draft = draft.use(Use("green.1.1", (1,)))
    with pytest.raises(IllegalMove, match=r"one colour area only, this one is green"):
        draft.use(Use("red.1", (2,)))


def test_a_joker_alone_crosses_in_any_area():
    for color, box in (("yellow", "yellow.1"), ("red", "red.1"), ("blue", "blue.cake.1")):
        draft = draft_after(color, *ALL_JOKERS)
        needed = 1 if color == "yellow" else 2  # the first wagon carries two candles
        assert draft.use(Use(box, (0, 1)[:needed])).crossed == {box}


def test_each_die_is_used_once():
    draft = draft_after(
        "green", "green present", "green present", "green present", "joker", "joker"
    )
    draft = draft.use(Use("green.1.1", (0,)))
    with pytest.raises(IllegalMove, match=r"die 0 is used already this turn"):
        draft.use(Use("green.1.2", (0,)))
    with pytest.raises(IllegalMove, match=r"each die is used once"):
        draft_after("blue", *ALL_JOKERS).use(Use("blue.cake.1", (1, 1)))


def test_balloons_left_to_right_without_skipping():
    draft = draft_after(
        "yellow", "yellow heart", "yellow pink", "green present", "yellow blue", "joker"
    )
    with pytest.raises(IllegalMove, match=r"balloon 1 \(heart\) \[yellow\.1\] comes first"):
        draft.use(Use("yellow.2", (3,)))
    draft = draft.use(Use("yellow.1", (0,))).use(Use("yellow.2", (3,))).use(Use("yellow.3", (1,)))
    assert draft.crossed == {"yellow.1", "yellow.2", "yellow.3"}
    assert [u.box for u in draft.use_options()] == ["yellow.4"]  # the joker as the green balloon


def test_a_balloon_needs_its_own_kind():
    draft = draft_after(
        "yellow", "yellow blue", "yellow pink", "green present", "red candle", "yellow green"
    )
    assert draft.use_options() == []
    with pytest.raises(IllegalMove, match=r"yellow blue, which is not the heart needed"):
        draft.use(Use("yellow.1", (0,)))


def test_candle_wagons_left_to_right():
    draft = draft_after("red", "red candle", "red candle", "red candle", "red candle", "red candle")
    with pytest.raises(IllegalMove, match=r"wagon 1 \(2 candles\) \[red\.1\] comes first"):
        draft.use(Use("red.3", (0,)))


def test_a_wagon_of_two_candles_needs_two_candle_dice_at_once():
    draft = draft_after(
        "red",
        "red candle",
        "green present",
        "joker",
        "blue cupcake",
        "yellow green",
    )
    with pytest.raises(IllegalMove, match=r"wagon 1 \(2 candles\) \[red\.1\] needs 2 dice at once"):
        draft.use(Use("red.1", (0,)))
    assert [u.dice for u in draft.use_options()] == [(0, 2)]  # the candle and the joker
    alone = draft_after(
        "red",
        "red candle",
        "green present",
        "green present",
        "blue cupcake",
        "yellow green",
    )
    assert alone.use_options() == []


def test_one_roll_pays_for_a_single_wagon_and_then_a_double_one():
    draft = draft_after(
        "red",
        "red candle",
        "red candle",
        "red candle",
        "blue cupcake",
        "yellow green",
        crossed={"red.1", "red.2"},
    )
    draft = draft.use(Use("red.3", (0,))).use(Use("red.4", (1, 2)))
    assert draft.crossed == {"red.1", "red.2", "red.3", "red.4"}


def test_the_last_wagon_needs_three_candles_at_once():
    wagons = [f"red.{i}" for i in range(1, 9)]
    draft = draft_after(
        "red", "red candle", "red candle", "joker", "blue cupcake", "yellow green", crossed=wagons
    )
    assert draft.sheet.box("red.9").size == 3
    with pytest.raises(IllegalMove, match=r"wagon 9 \(3 candles\) \[red\.9\] needs 3 dice at once"):
        draft.use(Use("red.9", (0, 1)))
    assert draft.use(Use("red.9", (0, 1, 2))).crossed >= {"red.9"}


def test_sweets_need_two_dice_of_the_same_sweet():
    draft = draft_after(
        "blue", "blue cupcake", "blue donut", "blue cake", "blue cupcake", "blue cake"
    )
    with pytest.raises(IllegalMove, match=r"blue donut, which is not the cupcake needed"):
        draft.use(Use("blue.cupcake.1", (0, 1)))
    with pytest.raises(
        IllegalMove, match=r"cupcake pair 1 \[blue\.cupcake\.1\] needs 2 dice at once"
    ):
        draft.use(Use("blue.cupcake.1", (0,)))
    assert {u.box: u.dice for u in draft.use_options()} == {
        "blue.cupcake.1": (0, 3),
        "blue.cake.1": (2, 4),
    }


def test_a_joker_completes_a_pair_of_sweets():
    draft = draft_after(
        "blue", "joker", "blue donut", "green present", "red candle", "yellow green"
    )
    assert [(u.box, u.dice) for u in draft.use_options()] == [("blue.donut.1", (0, 1))]


def test_each_row_of_sweets_left_to_right():
    draft = draft_after(
        "blue", "blue cupcake", "blue donut", "blue cake", "blue cupcake", "blue cake"
    )
    with pytest.raises(IllegalMove, match=r"cake pair 1 \[blue\.cake\.1\] comes first"):
        draft.use(Use("blue.cake.2", (2, 4)))


def test_presents_in_any_order():
    draft = draft_after(
        "green", "green present", "green present", "green present", "green present", "green present"
    )
    draft = (
        draft.use(Use("green.3.4", (0,))).use(Use("green.1.2", (1,))).use(Use("green.2.1", (2,)))
    )
    assert draft.crossed == {"green.3.4", "green.1.2", "green.2.1"}
    with pytest.raises(IllegalMove, match=r"green\.1\.2\] is crossed already"):
        draft.use(Use("green.1.2", (3,)))


def test_unknown_box_and_die():
    draft = draft_after(
        "green", "green present", "green present", "green present", "green present", "green present"
    )
    with pytest.raises(IllegalMove, match=r"the sheet has no box 'green.9.9'"):
        draft.use(Use("green.9.9", (0,)))
    with pytest.raises(
        IllegalMove, match=r"die 7 is not among the dice left to use \(0, 1, 2, 3, 4\)"
    ):
        draft.use(Use("green.1.1", (7,)))


def test_a_bonus_circle_earns_a_cross_in_its_colour_at_the_end_of_the_turn():
    draft = draft_after(
        "red",
        "red candle",
        "red candle",
        "red candle",
        "red candle",
        "yellow green",
        crossed={"red.1", "red.2"},
    )
    draft = draft.use(Use("red.3", (0,)))  # green circle
    assert draft.pending == (Color.GREEN,)
    assert len(draft.bonus_options()) == 12
    draft = draft.bonus("green.2.2")
    with pytest.raises(
        IllegalMove, match=r"crosses with dice come first; bonus crosses end the turn"
    ):
        draft.use(Use("red.4", (1, 2)))
    assert draft.use_options() == []


def test_a_bonus_cross_is_a_whole_symbol_and_follows_the_order():
    """A red bonus crosses the whole next wagon (both candles), never a later one."""
    draft = draft_after(
        "blue",
        "joker",
        "blue donut",
        "green present",
        "red candle",
        "yellow green",
    )
    draft = draft.use(Use("blue.donut.1", (0, 1)))
    with pytest.raises(IllegalMove, match=r"wagon 1 \(2 candles\) \[red\.1\] comes first"):
        draft.bonus("red.2")
    assert draft.bonus("red.1").crossed >= {"red.1"}


def test_no_bonus_cross_without_a_bonus():
    draft = draft_after(
        "green", "green present", "green present", "green present", "green present", "green present"
    )
    draft = draft.use(Use("green.1.1", (0,)))
    with pytest.raises(IllegalMove, match=r"due: none"):
        draft.bonus("green.1.2")


def test_a_full_green_column_earns_its_colour_bonus_once():
    crossed = {"green.1.2", "green.2.2"}
    draft = draft_after(
        "green",
        "green present",
        "green present",
        "green present",
        "green present",
        "green present",
        crossed=crossed,
    )
    draft = draft.use(Use("green.3.2", (0,)))  # completes column 2: red
    assert draft.pending == (Color.RED,)
    draft = draft.use(Use("green.1.3", (1,)))  # column 3 not full
    assert draft.pending == (Color.RED,)


def test_the_left_column_earns_no_bonus_cross():
    draft = draft_after(
        "green",
        "green present",
        "green present",
        "green present",
        "green present",
        "green present",
        crossed={"green.1.1", "green.2.1"},
    )
    assert draft.use(Use("green.3.1", (0,))).pending == ()


def test_bonus_chains_through_a_green_column():
    """A red bonus crosses a wagon in a green circle, whose present completes a column (yellow)."""
    crossed = {"red.1", "red.2", "green.1.3", "green.2.3"}
    draft = draft_after(
        "blue",
        "joker",
        "blue donut",
        "green present",
        "red candle",
        "yellow green",
        crossed=crossed,
    )
    draft = draft.use(Use("blue.donut.1", (0, 1))).bonus("red.3").bonus("green.3.3")
    assert draft.pending == (Color.YELLOW,)
    draft = draft.bonus("yellow.1")
    assert draft.event().bonuses == ("red.3", "green.3.3", "yellow.1")


def test_every_offered_option_is_legal():
    draft = draft_after("blue", "joker", "blue donut", "joker", "blue donut", "joker")
    options = draft.use_options()
    assert len(options) > 1
    for option in options:
        assert draft.use(option).crossed == {option.box}
