"""The game file: the reference layout is faithful to the rule text, bad files are named."""

from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.errors import InputError
from firmware_host.games.clever.layout import REFERENCE_LAYOUT, Color, Face, load_layout
from firmware_host.games.clever.sheet import Sheet


def test_five_dice_of_six_faces_with_three_jokers_in_all():
    layout = load_layout()
    assert [len(die) for die in layout.dice] == [6] * 5
    # the text: "There are also three sides with a joker symbol" (not one on each die)
    assert sum(face.joker for die in layout.dice for face in die) == 3
    assert [sum(face.joker for face in die) for die in layout.dice] == [1, 1, 1, 0, 0]
    colours = {face.color for die in layout.dice for face in die if not face.joker}
    assert colours == set(Color)


def test_the_balloons_start_with_the_red_heart_then_blue_then_pink_in_a_blue_circle():
    balloons = load_layout().yellow.balloons
    assert [b.symbol for b in balloons[:3]] == ["heart", "blue", "pink"]
    assert balloons[2].bonus is Color.BLUE
    assert "green" in {b.symbol for b in balloons[3:]}


def test_the_train_has_wagons_of_one_two_and_three_candles_ending_with_three():
    wagons = load_layout().red.wagons
    assert {w.candles for w in wagons} == {1, 2, 3}
    assert wagons[-1].candles == 3


def test_the_first_wagon_has_two_candles_and_a_star():
    # the second example: Eric's red bonus cross, on an untouched train, takes "the two
    # candles" and he "collects a rainbow star"
    first = load_layout().red.wagons[0]
    assert (first.candles, first.stars) == (2, 1)


def test_three_rows_of_sweets_the_first_donuts_in_a_red_circle():
    rows = load_layout().blue.rows
    assert [r.symbol for r in rows] == ["cupcake", "donut", "cake"]
    assert rows[1].pairs[0].bonus is Color.RED


def test_the_presents_grid_rewards_its_second_to_fourth_columns_with_colours():
    green = load_layout().green
    assert len(green.grid) == 3 and all(len(row) == 4 for row in green.grid)
    assert set(green.column_bonuses) == {2, 3, 4}
    assert green.left_column_stars == 1 and green.row_stars == 1


def test_every_face_can_cross_something_on_a_sheet():
    sheet = Sheet(load_layout())
    for die in sheet.layout.dice:
        for face in die:
            if not face.joker:
                assert any(b.symbol == face.symbol for b in sheet.areas[face.color]), (
                    face.describe()
                )


@given(st.sampled_from(list(Color)), st.from_regex(r"[a-z_]{1,10}", fullmatch=True))
def test_a_face_reads_back_what_it_writes(color, symbol):
    face = Face.parse(f"{color} {symbol}")
    assert (face.color, face.symbol, face.joker) == (color, symbol, False)
    assert Face.parse(face.describe()) == face


@given(st.text(max_size=20))
def test_any_text_is_a_face_or_a_clear_error(text):
    try:
        face = Face.parse(text)
    except ValueError as exc:
        assert "expected 'joker' or '<colour> <symbol>'" in str(exc)
    else:
        assert face.joker == (text == "joker")


def reference() -> dict:
    return yaml.safe_load(REFERENCE_LAYOUT.read_text())


def mutate(data: dict, path: str, value) -> dict:
    """``data`` with the value at a dotted path (numbers index lists) replaced or removed."""
    *parents, last = [int(k) if k.isdigit() else k for k in path.split(".")]
    node = data
    for key in parents:
        node = node[key]
    if value is REMOVE:
        del node[last]
    else:
        node[last] = value
    return data


REMOVE = object()


@pytest.mark.parametrize(
    ("path", "value", "where", "problem"),
    [
        ("version", 2, "version", "input should be 1"),
        ("colour", "x", "colour", "unknown key"),
        ("dice.2.4", "blue brownie", "dice[2][4]", "no 'brownie' in the blue area"),
        ("dice.0.0", "purple heart", "dice[0][0]", "expected 'joker' or '<colour> <symbol>'"),
        ("dice.0.0", 3, "dice[0][0]", "expected a face name, got 3"),
        ("dice.1", ["joker"] * 5, "dice[1]", "expected a list of 6 faces"),
        ("dice.4", REMOVE, "dice", "at least 5 items"),
        ("yellow.balloons.1.bonus", "pink", "yellow.balloons[1].bonus", "input should be"),
        ("yellow.balloons.1.stars", -1, "yellow.balloons[1].stars", "greater than or equal to 0"),
        ("red.wagons.8.candles", 4, "red.wagons[8].candles", "less than or equal to 3"),
        ("red.wagons.0.symbol", "candle", "red.wagons[0].symbol", "unknown key"),
        ("blue.rows.2.symbol", "donut", "blue.rows[2].symbol", "'donut' has a row already"),
        ("blue.rows.0.pairs", [], "blue.rows[0].pairs", "at least 1 item"),
        ("green.grid.1", ["present"], "green.grid[1]", "has 1 presents, the first row has 4"),
        ("green.column_bonuses", {5: "red"}, "green.column_bonuses.5", "no such column"),
        ("green.row_stars", REMOVE, "green.row_stars", "required key is missing"),
    ],
)
def test_a_bad_game_file_names_the_file_the_key_and_the_problem(
    tmp_path: Path, path, value, where, problem
):
    bad = tmp_path / "clever.yaml"
    bad.write_text(yaml.safe_dump(mutate(reference(), path, value)))
    with pytest.raises(InputError) as caught:
        load_layout(bad)
    assert caught.value.source == str(bad)
    assert caught.value.where == where
    assert problem in caught.value.problem


def test_a_missing_or_malformed_file(tmp_path: Path):
    with pytest.raises(InputError, match="file not found"):
        load_layout(tmp_path / "none.yaml")
    broken = tmp_path / "broken.yaml"
    broken.write_text("dice: [\n")
    with pytest.raises(InputError, match="malformed YAML"):
        load_layout(broken)
