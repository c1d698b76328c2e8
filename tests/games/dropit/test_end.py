"""End of the game and winners: most points win, every tied player wins."""

from firmware_host.games.dropit.events import JokerSpent, Ruling
from firmware_host.games.dropit.state import GameState
from tests.dropit_support import (
    BROKEN,
    VALID,
    drop,
    first_in_supply,
    play,
    three_players,
    two_players,
    two_teams,
)


def test_no_winners_before_the_end():
    assert play(GameState.start(two_players()), turns=35).winners() == ()


def test_most_points_win():
    state = GameState.start(three_players())
    for turn in range(36):
        ruling = Ruling((), level=1 + (turn % 3 == 1), bonus=0)
        state = state.apply(drop(state, *first_in_supply(state), ruling))
    assert [s.total for s in state.scores()] == [12, 24, 12]
    assert state.winners() == ("Ben",)


def test_every_tied_player_wins():
    state = play(GameState.start(three_players()), VALID, turns=36)
    assert [s.total for s in state.scores()] == [60, 60, 60]
    assert state.winners() == ("Ann", "Ben", "Cleo")


def test_unused_joker_points_decide_the_winner():
    # Owls score 7 with a joker on turn 1; Foxes score 5 on turn 2 and 2 more later, keep both
    # jokers. Scored: Owls 7 + 17 * 0 = 7, Foxes 5 + 2 = 7; unused jokers: Owls 1, Foxes 2.
    state = play(GameState.start(two_teams(jokers=True)), BROKEN).apply(JokerSpent(1))
    state = play(state, VALID)
    for turn in range(3, 37):
        ruling = Ruling((), level=2, bonus=0) if turn == 4 else BROKEN
        state = state.apply(drop(state, *first_in_supply(state), ruling))
    owls, foxes = state.scores()
    assert (owls.scored, foxes.scored) == (7, 7)
    assert (owls.total, foxes.total) == (10, 13)
    assert state.winners() == ("Foxes",)
