"""Events: stable JSON forms, read back exactly; replay gives the same state every time."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.config.board import Side
from firmware_host.errors import IllegalMove, InputError
from firmware_host.games.dropit.events import (
    JokerSpent,
    PieceMove,
    PiecesMoved,
    Ruling,
    ShapeDropped,
    event_from_json,
)
from firmware_host.games.dropit.rules.landing import EdgeContact, Rule
from firmware_host.games.dropit.rules.pieces import Color, Piece, Pose, Shape
from firmware_host.games.dropit.state import replay
from tests.dropit_support import random_game


def test_shape_dropped_json_form_is_stable():
    event = ShapeDropped(
        3,
        "Ann",
        Piece("t3", Color.RED, Shape.SQUARE, Pose(17.5, 163.0, 0.0)),
        Ruling((Rule.COLOR, Rule.EDGE), 5, 2, ("t1",), (EdgeContact(Side.LEFT, "red"),)),
    )
    assert event.to_json() == {
        "type": "shape_dropped",
        "turn": 3,
        "by": "Ann",
        "piece": {
            "id": "t3",
            "color": "red",
            "shape": "square",
            "pose": {"x": 17.5, "y": 163.0, "angle": 0.0},
        },
        "ruling": {
            "broken": ["color", "edge"],
            "level": 5,
            "bonus": 2,
            "touching": ["t1"],
            "edges": [{"side": "left", "symbol": "red"}],
        },
    }
    assert event_from_json(json.loads(json.dumps(event.to_json()))) == event


def test_other_events_json_forms():
    assert PiecesMoved((PieceMove("t1", Pose(1.0, 2.0, 3.0)),)).to_json() == {
        "type": "pieces_moved",
        "moves": [{"id": "t1", "pose": {"x": 1.0, "y": 2.0, "angle": 3.0}}],
    }
    assert JokerSpent(4).to_json() == {"type": "joker_spent", "turn": 4}


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32))
def test_every_event_of_a_game_round_trips_through_json(seed):
    for event in random_game(seed):
        text = json.dumps(event.to_json())
        assert event_from_json(json.loads(text)) == event


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 36))
def test_replay_is_deterministic_and_survives_the_journal(seed, turns):
    events = random_game(seed, turns)
    journal = [json.dumps(e.to_json()) for e in events]
    first = replay(events)
    assert replay(events) == first
    assert replay(event_from_json(json.loads(line)) for line in journal) == first
    assert len(first.drops) == turns


@pytest.mark.parametrize(
    ("data", "where", "problem"),
    [
        ({"type": "meteor"}, "type", "unknown event type 'meteor'"),
        ({"type": "joker_spent", "turn": 0}, "turn", "greater than or equal to 1"),
        ({"type": "joker_spent", "turn": 2, "extra": 1}, "extra", "unknown key"),
        (
            {"type": "pieces_moved", "moves": [{"id": "t1", "pose": {"x": 1, "y": 1, "z": 0}}]},
            "moves[0].pose.z",
            "unknown key",
        ),
        (
            {"type": "pieces_moved", "moves": [{"id": "t1", "pose": {"x": "a", "y": 1}}]},
            "moves[0].pose.x",
            "valid number",
        ),
        ([1, 2], "type", "unknown event type none"),
    ],
)
def test_bad_event_json_names_the_key(data, where, problem):
    with pytest.raises(InputError) as caught:
        event_from_json(data, "journal")
    assert caught.value.source == "journal"
    assert caught.value.where == where
    assert problem in caught.value.problem.lower()


def test_replay_needs_a_set_up_first():
    with pytest.raises(IllegalMove, match="must begin with its set-up"):
        replay([JokerSpent(1)])
    with pytest.raises(IllegalMove, match="must begin with its set-up"):
        replay([])
