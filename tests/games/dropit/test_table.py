"""Drop It's binding to the table: the set-up, a drop the referee saw land ruled into its
events, the joker's offer, the staff's next game."""

import pytest

from firmware_host.config.board import EdgeFace
from firmware_host.errors import IllegalMove
from firmware_host.games.dropit.events import PiecesMoved, ShapeDropped
from firmware_host.games.dropit.gamefile import piece_id
from firmware_host.games.dropit.rules.pieces import Color
from firmware_host.games.dropit.state import GameState
from firmware_host.games.dropit.table import DropItTable, joker_on_offer, rule_drop
from firmware_host.web.actions import Staff
from tests.builders import piece


def started(jokers=True):
    return GameState.start(DropItTable.first_event(("Ann", "Ben"), EdgeFace.COLOR, jokers))


def square(state, x, y):
    turn = state.current
    color = state.standing(turn.competitor.name).competitor.colors[0]
    return piece(str(color), "square", x, y, id=piece_id(turn.number))


def test_a_new_game_deals_each_player_their_colours():
    state = started()
    assert [c.name for c in state.started.competitors] == ["Ann", "Ben"]
    assert not set(state.started.competitors[0].colors) & set(state.started.competitors[1].colors)
    assert state.started.variants.jokers and state.started.variants.edges is EdgeFace.COLOR


def test_a_drop_is_its_event_and_verdict_and_a_shifted_pile_is_journaled_before_it(board):
    state = started()
    first = square(state, 200, 17)
    ruled = rule_drop(state, board, (first,))
    assert ruled.moved == 0 and ruled.verdict.valid
    assert [type(e) for e in ruled.events] == [ShapeDropped]
    state = state.apply(ruled.events[0])
    shifted = piece(str(first.color), "square", 202, 17, id=first.id)
    ruled = rule_drop(state, board, (shifted, square(state, 60, 17)))
    assert ruled.moved == 1
    moved, dropped = ruled.events
    assert isinstance(moved, PiecesMoved) and moved.moves[0].id == first.id
    assert isinstance(dropped, ShapeDropped) and dropped.by == "Ben"


@pytest.mark.parametrize("jokers", [True, False])
def test_a_joker_is_on_offer_after_a_broken_drop_only_when_played_with_jokers(board, jokers):
    state = started(jokers)
    state = state.apply(rule_drop(state, board, (square(state, 200, 17),)).events[0])
    assert not joker_on_offer(state)
    below = state.board[0]
    ruled = rule_drop(state, board, (below, square(state, 200, 17 + 34 + 0.5)))
    assert not ruled.verdict.valid
    assert joker_on_offer(state.apply(ruled.events[-1])) is jokers


def test_the_staff_set_up_the_next_game_with_its_players_and_colours():
    before = started().started
    staff = Staff(type="staff", op="new", pin="0", players=["Cleo", "Dev"], colors=[["red"], []])
    after = DropItTable.set_up(before, staff)
    assert [c.name for c in after.competitors] == ["Cleo", "Dev"]
    assert after.competitors[0].colors[0] is Color.RED
    assert after.variants == before.variants
    team = {"name": "Owls", "members": ["A"]}
    both = Staff(type="staff", op="new", pin="0", players=["A"], teams=[team])
    with pytest.raises(IllegalMove, match="name the players or the teams, not both"):
        DropItTable.set_up(before, both)
