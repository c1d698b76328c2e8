"""The scoring track: marker position 0..25 and the +25/+50 point tokens."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.games.dropit.events import JokerSpent, ShapeDropped
from firmware_host.games.dropit.state import GameState
from firmware_host.games.dropit.track import TokenFace, track_state
from tests.dropit_support import BROKEN, VALID, B, R, play, random_game, two_players

P25, P50 = TokenFace.PLUS_25, TokenFace.PLUS_50


# total, position, token faces with one token, with two tokens, unshown with one, with two
TRACK = [
    (0, 0, [None], [None, None], 0, 0),
    (1, 1, [None], [None, None], 0, 0),
    (25, 25, [None], [None, None], 0, 0),
    (26, 1, [P25], [P25, None], 0, 0),
    (50, 25, [P25], [P25, None], 0, 0),
    (51, 1, [P50], [P50, None], 0, 0),
    (75, 25, [P50], [P50, None], 0, 0),
    (76, 1, [P50], [P50, P25], 25, 0),
    (100, 25, [P50], [P50, P25], 25, 0),
    (101, 1, [P50], [P50, P50], 50, 0),
    (125, 25, [P50], [P50, P50], 50, 0),
    (126, 1, [P50], [P50, P50], 75, 25),
]


@pytest.mark.parametrize(("points", "position", "one", "two", "unshown1", "unshown2"), TRACK)
def test_track_position_and_tokens_follow_more_than_25_and_more_than_50(
    points, position, one, two, unshown1, unshown2
):
    single = track_state(points, (R,))
    double = track_state(points, (R, B))
    assert single.position == double.position == position
    assert [t.face for t in single.tokens] == one
    assert [t.face for t in double.tokens] == two
    assert [t.color for t in double.tokens] == [R, B]
    assert (single.unshown, double.unshown) == (unshown1, unshown2)


@given(st.integers(0, 400), st.integers(1, 2))
def test_track_shows_the_points_exactly_with_what_it_cannot_show(points, tokens):
    state = track_state(points, (R, B)[:tokens])
    assert 0 <= state.position <= 25
    assert (state.position == 0) == (points == 0)
    assert state.position + sum(t.value for t in state.tokens) + state.unshown == points
    assert state.unshown % 25 == 0


def test_track_json_form():
    assert track_state(80, (R, B)).to_json() == {
        "position": 5,
        "tokens": [{"color": "red", "face": "+50"}, {"color": "blue", "face": "+25"}],
        "unshown": 0,
    }


def test_two_player_game_uses_the_second_token_past_75():
    state = play(GameState.start(two_players()), VALID, turns=32)
    ann = state.scores()[0]
    assert ann.scored == 80
    assert [str(t.face) for t in ann.track.tokens] == ["+50", "+25"]
    assert ann.track.position == 5


@given(st.integers(0, 10_000))
def test_scores_and_track_never_go_back_during_a_game(seed):
    events = random_game(seed)
    state = GameState.start(events[0])
    for event in events[1:]:
        before = state.scores()
        state = state.apply(event)
        for old, new in zip(before, state.scores(), strict=True):
            assert new.scored >= old.scored
            if isinstance(event, ShapeDropped | JokerSpent):
                continue
            assert new.scored == old.scored


def test_broken_drop_leaves_the_marker_where_it_was():
    state = play(GameState.start(two_players()), VALID)
    marker = state.scores()[0].track
    state = play(play(state, VALID), BROKEN)
    assert state.scores()[0].track == marker
