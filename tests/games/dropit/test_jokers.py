"""The jokers variant: spend after a broken drop for full points, each once, 3 points unused."""

import pytest

from firmware_host.errors import IllegalMove
from firmware_host.games.dropit.events import JokerSpent
from firmware_host.games.dropit.state import GameState
from tests.dropit_support import BROKEN, VALID, four_players, play, two_players, two_teams


def test_joker_scores_level_plus_bonus_of_a_broken_drop():
    state = play(GameState.start(four_players(jokers=True)), BROKEN)
    assert state.standing("Ann").scored == 0
    state = state.apply(JokerSpent(1))
    assert state.standing("Ann").scored == BROKEN.level + BROKEN.bonus == 7
    assert state.standing("Ann").jokers_left == 1
    assert state.drops[-1].joker and state.drops[-1].points == 7


def test_joker_on_a_valid_drop_is_refused():
    state = play(GameState.start(four_players(jokers=True)), VALID)
    with pytest.raises(IllegalMove, match="turn 1: a joker can only be spent on a drop that broke"):
        state.apply(JokerSpent(1))
    assert state.standing("Ann").jokers_left == 2


def test_joker_with_none_left_is_refused():
    state = GameState.start(two_teams(jokers=True))
    for turn in (1, 3):
        state = play(state, BROKEN).apply(JokerSpent(turn))
        state = play(state)
    state = play(state, BROKEN)
    with pytest.raises(IllegalMove, match="turn 5: Owls has no joker left"):
        state.apply(JokerSpent(5))
    assert state.standing("Owls").scored == 14


def test_each_joker_is_spent_once_per_drop():
    state = play(GameState.start(two_players(jokers=True)), BROKEN).apply(JokerSpent(1))
    with pytest.raises(IllegalMove, match="turn 1: a joker has already been spent on this drop"):
        state.apply(JokerSpent(1))


def test_joker_only_right_after_the_drop_before_the_next_turn():
    state = play(GameState.start(two_players(jokers=True)), BROKEN)
    state = play(state, VALID)
    with pytest.raises(IllegalMove, match="turn 1: a joker can only be spent right after"):
        state.apply(JokerSpent(1))
    with pytest.raises(IllegalMove, match="turn 1: no shape has been dropped yet"):
        GameState.start(two_players(jokers=True)).apply(JokerSpent(1))


def test_jokers_are_refused_when_the_variant_is_off():
    state = play(GameState.start(two_players(jokers=False)), BROKEN)
    with pytest.raises(IllegalMove, match="turn 1: jokers are not in play"):
        state.apply(JokerSpent(1))


def test_unused_jokers_are_worth_three_points_each_at_the_end_only():
    state = play(GameState.start(two_players(jokers=True)), BROKEN).apply(JokerSpent(1))
    state = play(state, VALID, turns=34)
    ann, ben = state.scores()
    assert (ann.unused_joker_points, ben.unused_joker_points) == (0, 0)
    assert ann.total == ann.scored and not state.over
    state = play(state, VALID)
    assert state.over
    ann, ben = state.scores()
    assert (ann.jokers_left, ann.unused_joker_points) == (1, 3)
    assert (ben.jokers_left, ben.unused_joker_points) == (2, 6)
    assert ann.total == 7 + 17 * 5 + 3
    assert ben.total == 18 * 5 + 6
    assert ann.track.points == ann.scored


def test_a_joker_may_be_spent_on_the_last_drop():
    state = play(GameState.start(two_players(jokers=True)), VALID, turns=35)
    state = play(state, BROKEN)
    assert state.over
    state = state.apply(JokerSpent(36))
    ben = state.standing("Ben")
    assert ben.scored == 17 * 5 + 7 and ben.jokers_left == 1
