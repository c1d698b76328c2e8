"""Turn order, supplies and illegal moves: each refused with the turn and the rule named."""

from collections import Counter

import pytest

from firmware_host.errors import IllegalMove
from firmware_host.games.dropit.events import PieceMove, PiecesMoved, ShapeDropped
from firmware_host.games.dropit.rules.pieces import Piece, Pose, Shape
from firmware_host.games.dropit.state import GameState
from tests.dropit_support import (
    BROKEN,
    VALID,
    B,
    R,
    drop,
    first_in_supply,
    four_players,
    play,
    three_players,
    two_players,
    two_teams,
)


def players_in_order(state: GameState, turns: int) -> list[str]:
    order = []
    for _ in range(turns):
        order.append(state.current.player)
        state = play(state)
    return order


def test_players_drop_in_clockwise_order_as_listed():
    assert players_in_order(GameState.start(four_players()), 6) == [
        "Ann",
        "Ben",
        "Cleo",
        "Dev",
        "Ann",
        "Ben",
    ]
    assert players_in_order(GameState.start(two_players()), 3) == ["Ann", "Ben", "Ann"]


def test_teams_alternate_and_members_take_their_teams_turns_in_order():
    state = GameState.start(two_teams())
    assert players_in_order(state, 8) == ["Ann", "Cleo", "Ben", "Dev", "Ann", "Eli", "Ben", "Cleo"]


def test_every_member_of_a_team_gets_the_same_number_of_turns():
    state = play(GameState.start(two_teams()), turns=36)
    assert state.over
    per_member = Counter(d.player for d in state.drops)
    assert per_member == {"Ann": 9, "Ben": 9, "Cleo": 6, "Dev": 6, "Eli": 6}
    assert Counter(d.competitor for d in state.drops) == {"Owls": 18, "Foxes": 18}


def test_team_score_marker_advances_whoever_of_the_team_scores():
    state = play(GameState.start(two_teams()), turns=4)
    assert [s.scored for s in state.scores()] == [10, 10]


@pytest.mark.parametrize("setup", [four_players, three_players, two_players, two_teams])
def test_game_ends_when_every_shape_has_been_dropped(setup):
    state = play(GameState.start(setup()), turns=35)
    assert not state.over and state.shapes_left == 1
    state = play(state)
    assert state.over and state.current is None


def test_player_out_of_turn_is_refused_and_state_unchanged():
    state = play(GameState.start(four_players()))
    event = ShapeDropped(2, "Cleo", Piece("t2", R, Shape.CIRCLE, Pose(1, 1)), VALID)
    with pytest.raises(IllegalMove, match=r"^turn 2: it is Ben's turn, not Cleo's \(players drop"):
        state.apply(event)
    assert state.next_turn == 2 and state.current.player == "Ben"


def test_team_member_out_of_turn_is_refused():
    state = play(GameState.start(two_teams()), turns=2)
    event = ShapeDropped(3, "Ann", Piece("t3", R, Shape.CIRCLE, Pose(1, 1)), VALID)
    with pytest.raises(
        IllegalMove,
        match=r"turn 3: it is Ben's turn, not Ann's \(team Owls drops; teams alternate\)",
    ):
        state.apply(event)


def test_shape_not_in_the_supply_is_refused():
    state = GameState.start(four_players())
    with pytest.raises(IllegalMove, match="turn 1: Ann has no blue circle in the supply"):
        state.apply(drop(state, B, Shape.CIRCLE))
    for _ in range(2):
        state = state.apply(drop(state, R, Shape.SQUARE))
        state = play(state, turns=3)
    with pytest.raises(IllegalMove, match="turn 9: Ann has no red square in the supply"):
        state.apply(drop(state, R, Shape.SQUARE))


def test_turn_after_the_end_is_refused():
    state = play(GameState.start(two_players()), turns=36)
    late = ShapeDropped(37, "Ann", Piece("t37", R, Shape.CIRCLE, Pose(1, 1)), VALID)
    with pytest.raises(IllegalMove, match="turn 37: the game is over"):
        state.apply(late)


def test_drop_out_of_sequence_or_with_a_used_id_is_refused():
    state = play(GameState.start(two_players()))
    color, shape = first_in_supply(state)
    with pytest.raises(IllegalMove, match="turn 5: out of sequence, the next drop is turn 2"):
        state.apply(ShapeDropped(5, "Ben", Piece("x", color, shape, Pose(1, 1)), VALID))
    with pytest.raises(IllegalMove, match="turn 2: a piece with id 't1' is already on the board"):
        state.apply(ShapeDropped(2, "Ben", Piece("t1", color, shape, Pose(1, 1)), VALID))


def test_points_are_added_immediately_and_only_for_valid_drops():
    state = GameState.start(two_players())
    state = play(state, VALID)
    assert state.standing("Ann").scored == 5
    state = play(state, BROKEN)
    assert state.standing("Ben").scored == 0


def test_moved_pieces_change_the_board_but_never_the_score():
    state = play(GameState.start(two_players()), turns=2)
    before = state.scores()
    moved = state.apply(PiecesMoved((PieceMove("t1", Pose(150.0, 20.0, 30.0)),)))
    assert moved.board[0].pose == Pose(150.0, 20.0, 30.0)
    assert moved.board[1] == state.board[1]
    assert moved.scores() == before
    assert moved.landing(Piece("t3", R, Shape.CIRCLE, Pose(1, 1))).pieces == moved.board


def test_moving_a_piece_not_on_the_board_is_refused():
    state = play(GameState.start(two_players()))
    with pytest.raises(IllegalMove, match="turn 2: no piece with id 't7' is on the board"):
        state.apply(PiecesMoved((PieceMove("t7", Pose(1, 1)),)))


def test_a_second_set_up_is_refused():
    state = GameState.start(two_players())
    with pytest.raises(IllegalMove, match="turn 1: the game has already started"):
        state.apply(two_players())
