"""Untrusted actions: malformed messages are refused with the key named; each refusal of
:func:`check_action` (not your turn, not your shape, no such question, no joker on offer)."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.errors import InputError
from firmware_host.games.dropit.actions import (
    Answer,
    Confirm,
    Joker,
    Select,
    check_action,
    parse_action,
)
from firmware_host.games.dropit.rules.pieces import Color, Shape
from firmware_host.games.dropit.state import replay
from firmware_host.games.dropit.view import DropItView, Question, Selection
from firmware_host.web.actions import MAX_MESSAGE_BYTES, TABLE_SEAT, Again, Refused, Staff, StaffOp
from tests.dropit_support import random_game
from tests.web.support import FOUR, TEAMS, report


@pytest.mark.parametrize(
    ("raw", "where", "problem"),
    [
        ("{not json", "", "not JSON"),
        (b"\xff\xfe", "", "not JSON"),
        ("[1, 2]", "(top level)", "expected a JSON object"),
        ('{"yes": true}', "type", "unknown action None"),
        ('{"type": "drop_everything"}', "type", "unknown action 'drop_everything'"),
        ('{"type": "answer", "yes": true}', "question", "required key is missing"),
        ('{"type": "answer", "question": "q1", "yes": "yes"}', "yes", "valid boolean"),
        ('{"type": "answer", "question": "q1", "yes": 1}', "yes", "valid boolean"),
        ('{"type": "select", "color": "purple", "shape": "circle"}', "color", "red"),
        ('{"type": "select", "color": "red", "shape": "circle", "x": 1}', "x", "unknown key"),
        ('{"type": "staff", "op": "reboot", "pin": "1"}', "op", "abort"),
        ('{"type": "staff", "op": "abort", "pin": 2741}', "pin", "valid string"),
        ('{"type": "join", "seat": "", "code": "1"}', "seat", "at least 1"),
        ('{"type": "staff", "op": "new", "pin": "1", "players": ["<b>"]}', "players[0]", "pattern"),
        ('{"type": "staff", "op": "new", "pin": "1", "players": [" "]}', "players[0]", "pattern"),
        ('{"type": "staff", "op": "new", "pin": "1", "players": []}', "players", "at least 1"),
        ('{"type": "again", "token": 5}', "token", "valid string"),
        ('{"type": "confirm", "ref": "' + "r" * 65 + '"}', "ref", "at most 64"),
        ('{"type": "confirm", "pad": "' + "x" * MAX_MESSAGE_BYTES + '"}', "", "longer than"),
    ],
)
def test_malformed_messages_are_refused_naming_the_key(raw, where, problem):
    with pytest.raises(InputError) as caught:
        parse_action(raw)
    assert caught.value.source == "web message"
    assert caught.value.where == where
    assert problem in caught.value.problem


def test_well_formed_actions_are_read():
    assert parse_action('{"type": "select", "color": "red", "shape": "square"}') == Select(
        type="select", color=Color.RED, shape=Shape.SQUARE
    )
    staff = parse_action(
        '{"type": "staff", "op": "settings", "pin": "1", "settings": {"jokers": true}}'
    )
    assert isinstance(staff, Staff) and staff.op is StaffOp.SETTINGS and staff.settings.jokers
    new = parse_action('{"type": "staff", "op": "new", "pin": "1", "players": ["Ann", "Ben"]}')
    assert isinstance(new, Staff) and new.op is StaffOp.NEW and new.players == ["Ann", "Ben"]
    assert parse_action('{"type": "again"}') == Again(type="again")


def test_play_again_only_once_the_game_is_over_and_by_its_players(board):
    view = view_at_turn_17(board)
    with pytest.raises(Refused, match="not over yet"):
        check_action(Again(type="again"), view, TABLE_SEAT)
    over = DropItView(board, report(TEAMS).state, "g")
    assert over.current_player is None
    check_action(Again(type="again"), over, TABLE_SEAT)
    check_action(Again(type="again"), over, over.players[-1])
    with pytest.raises(Refused, match="Zed did not play") as caught:
        check_action(Again(type="again"), over, "Zed")
    assert caught.value.forbidden


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(
            [
                "type",
                "question",
                "yes",
                "color",
                "shape",
                "seat",
                "code",
                "pin",
                "op",
                "token",
                "ref",
                "spend",
                "settings",
            ]
        ),
        json_values
        | st.sampled_from(
            ["answer", "select", "join", "staff", "joker", "confirm", "red", "square"]
        ),
    )
)
def test_any_message_is_an_action_or_an_input_error(data):
    raw = json.dumps(data)
    try:
        action = parse_action(raw)
    except InputError as error:
        assert error.where is not None
    else:
        assert action.type == data["type"]


def view_at_turn_17(board, **extra):
    """Four players, turn 17: Ann's turn (red)."""
    return DropItView(board, report(FOUR).state, "g", **extra)


def select(color, shape):
    return Select(type="select", color=color, shape=shape)


def test_only_the_current_player_selects_and_only_own_shapes(board):
    view = view_at_turn_17(board)
    assert view.current_player == "Ann"
    ann_has = next(iter(view.current_standing.supply))
    check_action(select(ann_has[0], ann_has[1]), view, "Ann")
    check_action(select(ann_has[0], ann_has[1]), view, TABLE_SEAT)
    with pytest.raises(Refused, match="it is Ann's turn, not Ben's") as caught:
        check_action(select(ann_has[0], ann_has[1]), view, "Ben")
    assert caught.value.forbidden
    with pytest.raises(Refused, match="Ann has no blue circle left") as caught:
        check_action(select(Color.BLUE, Shape.CIRCLE), view, "Ann")
    assert not caught.value.forbidden


def test_confirm_needs_the_players_own_selection(board):
    confirm = Confirm(type="confirm")
    with pytest.raises(Refused, match="has not selected"):
        check_action(confirm, view_at_turn_17(board), "Ann")
    with pytest.raises(Refused, match="has not selected"):
        check_action(
            confirm,
            view_at_turn_17(board, selection=Selection("Dev", Color.GREEN, Shape.CIRCLE)),
            "Ann",
        )
    chosen = view_at_turn_17(board, selection=Selection("Ann", Color.RED, Shape.TRIANGLE))
    check_action(confirm, chosen, "Ann")
    with pytest.raises(Refused, match="Ann's turn, not Cleo's"):
        check_action(confirm, chosen, "Cleo")


def test_only_a_pending_question_and_only_by_the_player_asked(board):
    answer = Answer(type="answer", question="q2", yes=True)
    with pytest.raises(Refused, match="no pending question 'q2'"):
        check_action(answer, view_at_turn_17(board), "Ann")
    asked = view_at_turn_17(board, question=Question("q1", "Has it come to rest?", "Ann"))
    with pytest.raises(Refused, match="no pending question 'q2'"):
        check_action(answer, asked, "Ann")
    right = Answer(type="answer", question="q1", yes=False)
    check_action(right, asked, "Ann")
    check_action(right, asked, TABLE_SEAT)
    with pytest.raises(Refused, match="the question is for Ann, not Dev") as caught:
        check_action(right, asked, "Dev")
    assert caught.value.forbidden


def test_a_joker_only_on_offer_and_only_by_its_team(board):
    refereed = report(TEAMS)
    state = replay(refereed.events[:1])
    for event in refereed.events[1:]:
        state = state.apply(event)
        if len(state.drops) == 14:
            break  # Cleo's green diamond broke a rule; the joker is not spent yet
    spend = Joker(type="joker", spend=True)
    with pytest.raises(Refused, match="no joker is on offer"):
        check_action(spend, DropItView(board, state, "g"), "Cleo")
    offered = DropItView(board, state, "g", joker_offer=True)
    for member in ("Cleo", "Dev", "Eli", TABLE_SEAT):
        check_action(spend, offered, member)
    with pytest.raises(Refused, match="the joker is Foxes's, not Ann's") as caught:
        check_action(spend, offered, "Ann")
    assert caught.value.forbidden


def test_nothing_to_select_once_the_game_is_over(board):
    over = DropItView(board, report(TEAMS).state, "g")
    with pytest.raises(Refused, match="the game is over"):
        check_action(select(Color.RED, Shape.CIRCLE), over, TABLE_SEAT)


@settings(max_examples=80, deadline=None)
@given(
    st.integers(0, 10_000),
    st.integers(0, 35),
    st.sampled_from(list(Color)),
    st.sampled_from(list(Shape)),
    st.sampled_from(["Ann", "Ben", "Cleo", "Dev", "Eli", TABLE_SEAT]),
)
def test_a_selection_is_allowed_exactly_for_the_current_players_own_shapes(
    board, seed, turns, color, shape, seat
):
    state = replay(random_game(seed, turns))
    view = DropItView(board, state, "g")
    turn = state.current
    allowed = (
        turn is not None
        and seat in (TABLE_SEAT, turn.player)
        and state.standing(turn.competitor.name).supply.count(color, shape) > 0
    )
    try:
        check_action(select(color, shape), view, seat)
    except Refused:
        assert not allowed
    else:
        assert allowed
