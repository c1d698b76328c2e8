"""The journal form of the game events: every event survives JSON text, bad input is named."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.errors import InputError
from firmware_host.games.clack import events as clack
from firmware_host.games.clack.dice import roll_from_faces
from firmware_host.games.clack.discs import load_disc_set
from firmware_host.games.gotta2 import events as sheet

names = st.text(min_size=1, max_size=12)
ints = st.integers(-(2**40), 2**40)
shape_faces = st.sampled_from(["arrow", "star", "puzzle", "flower", "foot", "white"])
color_faces = st.sampled_from(["red", "green", "yellow", "blue", "purple", "white"])

clack_events = st.one_of(
    st.builds(
        clack.GameStarted,
        players=st.lists(names, max_size=6).map(tuple),
        variant=st.sampled_from(["race", "turns"]),
        seed=ints,
    ),
    st.builds(clack.DiceRolled, round=ints, shape=shape_faces, color=color_faces),
    st.builds(clack.DiscClaimed, round=ints, player=names, disc=ints),
)
sheet_events = st.one_of(
    st.builds(sheet.GameStarted, players=st.lists(names, max_size=6).map(tuple)),
    st.builds(sheet.PiecePlaced, player=names, piece=names, row=ints, column=ints),
    st.builds(sheet.BonusPiecePlaced, player=names, piece=names, row=ints, column=ints),
)


@given(
    st.one_of(
        clack_events.map(lambda e: (e, clack.read_event)),
        sheet_events.map(lambda e: (e, sheet.read_event)),
    )
)
def test_every_event_survives_json_text(case):
    event, read_event = case
    back = read_event(json.loads(json.dumps(event.to_json())))
    assert back == event and type(back) is type(event)
    assert back.to_json() == event.to_json()


@pytest.mark.parametrize(
    ("data", "where", "problem"),
    [
        ([1, 2], "(top level)", "expected a JSON object"),
        ({"type": "piece_placed", "player": "a", "piece": "1-1", "row": 0}, "column", "missing"),
        (
            {"type": "piece_placed", "player": "a", "piece": "1-1", "row": 0.5, "column": 0},
            "row",
            "integer",
        ),
        (
            {"type": "piece_placed", "player": 7, "piece": "1-1", "row": 0, "column": 0},
            "player",
            "string",
        ),
        (
            {
                "type": "piece_placed",
                "player": "a",
                "piece": "1-1",
                "row": 0,
                "column": 0,
                "turn": 3,
            },
            "turn",
            "unknown key",
        ),
        ({"type": "game_started", "players": "ana"}, "players", "valid array"),
        ({"type": "rolled"}, "type", "unknown event type 'rolled'"),
        ({"player": "a"}, "type", "unknown event type None"),
    ],
)
def test_malformed_events_name_the_key(data, where, problem):
    with pytest.raises(InputError) as caught:
        sheet.read_event(data, source="request 12")
    assert caught.value.source == "request 12"
    assert caught.value.where == where
    assert problem in caught.value.problem


def test_an_event_read_as_another_type_is_refused():
    data = clack.DiscClaimed(1, "ana", 3).to_json()
    with pytest.raises(InputError, match="type: expected 'dice_rolled', got 'disc_claimed'"):
        clack.DiceRolled.from_json(data)


def test_dice_faces_come_from_the_hub_face_indices():
    discs = load_disc_set()
    rolls = {(s, c): roll_from_faces(discs, 4, s, c) for s in range(6) for c in range(6)}
    assert rolls[(0, 0)] == clack.DiceRolled(round=4, shape="arrow", color="red")
    assert rolls[(5, 4)] == clack.DiceRolled(round=4, shape="white", color="purple")
    assert len({(r.shape, r.color) for r in rolls.values()}) == 36
    with pytest.raises(InputError, match=r"colour die: face index: expected 0\.\.5, got 6"):
        roll_from_faces(discs, 1, 0, 6)
    with pytest.raises(InputError, match=r"shape die: face index: expected 0\.\.5, got -1"):
        roll_from_faces(discs, 1, -1, 0)
