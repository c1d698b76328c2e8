"""The events' JSON form: stable, round-trips, and bad input is one clear error."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.errors import InputError
from firmware_host.games.clever.events import (
    DiceChosen,
    DiceRolled,
    Event,
    GameStarted,
    Passed,
    Use,
)
from firmware_host.games.clever.layout import Color

names = st.text(min_size=1, max_size=8)
indices = st.lists(st.integers(0, 5), max_size=5).map(tuple)
events = st.one_of(
    st.builds(GameStarted, st.lists(names, max_size=4).map(tuple), names, st.integers()),
    st.builds(DiceRolled, names, indices),
    st.builds(
        DiceChosen,
        names,
        st.sampled_from(Color),
        st.lists(st.builds(Use, names, indices), max_size=4).map(tuple),
        st.lists(names, max_size=3).map(tuple),
    ),
    st.builds(Passed, names),
)


@given(events)
def test_every_event_survives_a_trip_through_json_text(event):
    text = json.dumps(event.to_json())
    assert Event.from_json(json.loads(text)) == event
    assert type(event).from_json(json.loads(text)) == event


def test_the_json_form_is_the_documented_one():
    event = DiceChosen("Eric", Color.YELLOW, (Use("yellow.2", (0,)),), ("blue.donut.1", "red.2"))
    assert event.to_json() == {
        "type": "dice_chosen",
        "player": "Eric",
        "color": "yellow",
        "uses": [{"box": "yellow.2", "dice": [0]}],
        "bonuses": ["blue.donut.1", "red.2"],
    }
    assert GameStarted(("Olivia", "Eric"), "Olivia", 7).to_json() == {
        "type": "game_started",
        "players": ["Olivia", "Eric"],
        "first": "Olivia",
        "seed": 7,
    }
    assert DiceRolled("Eric", (5, 0, 3, 2, 4)).to_json() == {
        "type": "dice_rolled",
        "player": "Eric",
        "faces": [5, 0, 3, 2, 4],
    }
    assert Passed("Eric").to_json() == {"type": "passed", "player": "Eric"}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "clever event: (top level): expected an object, got []"),
        (
            {"type": "dance"},
            "clever event: type: expected one of game_started, dice_rolled, "
            "dice_chosen, passed, got 'dance'",
        ),
        ({"type": "passed"}, "clever event: player: required key is missing"),
        ({"type": "passed", "player": "A", "x": 1}, "clever event: x: unknown key"),
        ({"type": "passed", "player": ""}, "clever event: player: expected a non-empty string"),
        (
            {"type": "dice_rolled", "player": "A", "faces": [1, True]},
            "faces: expected a list of integers",
        ),
        ({"type": "dice_rolled", "player": "A", "faces": "12"}, "faces: expected a list, got '12'"),
        (
            {"type": "game_started", "players": ["A"], "first": "A", "seed": 1.5},
            "seed: expected an integer",
        ),
        (
            {"type": "dice_chosen", "player": "A", "color": "pink", "uses": [], "bonuses": []},
            "color: expected a colour of the dice, got 'pink'",
        ),
        (
            {
                "type": "dice_chosen",
                "player": "A",
                "color": "red",
                "uses": [{"box": "red.1"}],
                "bonuses": [],
            },
            "uses[0].dice: required key is missing",
        ),
        (
            {"type": "dice_chosen", "player": "A", "color": "red", "uses": [3], "bonuses": []},
            "uses[0]: expected an object",
        ),
    ],
)
def test_a_malformed_event_names_the_key_and_the_problem(data, message):
    with pytest.raises(InputError) as caught:
        Event.from_json(data)
    assert message in str(caught.value)


def test_a_concrete_event_reads_only_its_own_type():
    with pytest.raises(InputError, match=r"type: expected 'passed', got 'dice_rolled'"):
        Passed.from_json({"type": "dice_rolled", "player": "A", "faces": []})
