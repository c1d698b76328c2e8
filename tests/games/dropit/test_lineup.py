"""Set-up rules of Drop It: player counts, supplies, colours, teams, jokers."""

import pytest

from firmware_host.errors import IllegalMove
from firmware_host.games.dropit.events import GameStarted
from firmware_host.games.dropit.lineup import Competitor, Variants, deal_colors
from firmware_host.games.dropit.rules.pieces import Color, Shape
from firmware_host.games.dropit.state import GameState
from firmware_host.games.dropit.supply import Supply
from tests.dropit_support import (
    B,
    G,
    R,
    Y,
    four_players,
    players,
    three_players,
    two_players,
    two_teams,
)

C, S, D, T = Shape.CIRCLE, Shape.SQUARE, Shape.DIAMOND, Shape.TRIANGLE


def supply_of(state: GameState, name: str) -> dict[tuple[Color, Shape], int]:
    return {(c, s): n for c, s, n in state.standing(name).supply}


def test_four_players_own_one_complete_set_each():
    state = GameState.start(four_players())
    for name, color in (("Ann", R), ("Ben", B), ("Cleo", Y), ("Dev", G)):
        assert supply_of(state, name) == {
            (color, C): 3,
            (color, S): 2,
            (color, D): 2,
            (color, T): 2,
        }
    assert state.shapes_left == 36


def test_three_players_share_the_fourth_colour_in_the_documented_split():
    state = GameState.start(three_players())
    own = {(R, C): 3, (R, S): 2, (R, D): 2, (R, T): 2}
    assert supply_of(state, "Ann") == own | {(G, C): 1, (G, S): 2}
    assert supply_of(state, "Ben") == {
        (B, C): 3,
        (B, S): 2,
        (B, D): 2,
        (B, T): 2,
        (G, C): 1,
        (G, D): 2,
    }
    assert supply_of(state, "Cleo") == {
        (Y, C): 3,
        (Y, S): 2,
        (Y, D): 2,
        (Y, T): 2,
        (G, C): 1,
        (G, T): 2,
    }
    assert [len(s.supply) for s in state.standings] == [12, 12, 12]
    every = sum((s.supply for s in state.standings), Supply(()))
    assert every == Supply.complete_sets(*Color)


@pytest.mark.parametrize("setup", [two_players, two_teams])
def test_two_players_or_teams_own_two_complete_sets(setup):
    state = GameState.start(setup())
    for standing in state.standings:
        assert standing.supply == Supply.complete_sets(*standing.competitor.colors)
        assert len(standing.supply) == 18


@pytest.mark.parametrize("count", [0, 1, 5])
def test_player_counts_outside_two_to_four_are_refused(count):
    names = [("Ann", (R,)), ("Ben", (B,)), ("Cleo", (Y,)), ("Dev", (G,)), ("Eli", (R,))]
    started = GameStarted(players(*names[:count]), False, Variants())
    with pytest.raises(IllegalMove, match=r"set-up: Drop It is for 2, 3 or 4 players"):
        GameState.start(started)


def test_teams_variant_needs_exactly_two_teams():
    owls = Competitor("Owls", ("Ann",), (R,))
    foxes = Competitor("Foxes", ("Ben",), (B,))
    bats = Competitor("Bats", ("Cy",), (Y,))
    with pytest.raises(IllegalMove, match="exactly 2 teams, got 3"):
        GameState.start(GameStarted((owls, foxes, bats), True, Variants()))


@pytest.mark.parametrize("size", [4, 5, 7])
def test_team_size_that_cannot_share_18_shapes_equally_is_refused(size):
    members = tuple(f"p{i}" for i in range(size))
    started = GameStarted(
        (Competitor("Owls", members, (R, B)), Competitor("Foxes", ("Cy",), (Y, G))),
        True,
        Variants(),
    )
    with pytest.raises(IllegalMove, match=rf"team Owls has {size} members.*1, 2, 3, 6 or 9"):
        GameState.start(started)


@pytest.mark.parametrize("size", [1, 2, 3, 6, 9])
def test_team_sizes_dividing_18_are_accepted(size):
    members = tuple(f"p{i}" for i in range(size))
    started = GameStarted(
        (Competitor("Owls", members, (R, B)), Competitor("Foxes", ("Cy",), (Y, G))),
        True,
        Variants(),
    )
    assert GameState.start(started).current.player == "p0"


def test_colours_must_be_distinct_and_the_right_number():
    with pytest.raises(IllegalMove, match="colour red is given twice"):
        GameState.start(
            GameStarted(players(("Ann", (R,)), ("Ben", (R,)), ("Cy", (B,))), False, Variants())
        )
    with pytest.raises(IllegalMove, match=r"Ann has 1 colour.*each owns 2"):
        GameState.start(GameStarted(players(("Ann", (R,)), ("Ben", (B, G))), False, Variants()))


def test_names_must_be_unique_across_teams_and_members():
    started = GameStarted(
        (Competitor("Owls", ("Ann",), (R, B)), Competitor("Foxes", ("Ann",), (Y, G))),
        True,
        Variants(),
    )
    with pytest.raises(IllegalMove, match="name 'Ann' is used twice"):
        GameState.start(started)


def test_colours_not_chosen_are_dealt_from_the_free_ones_in_default_order():
    assert deal_colors([None, [Color.RED], None]) == ((B,), (R,), (Y,))
    assert deal_colors([None, None]) == ((R, B), (Y, G))


@pytest.mark.parametrize("setup", [four_players, three_players, two_players, two_teams])
def test_jokers_variant_gives_two_jokers_to_every_player_or_team(setup):
    assert [s.jokers_left for s in GameState.start(setup(jokers=True)).standings] == [2] * len(
        setup().competitors
    )
    assert all(s.jokers_left == 0 for s in GameState.start(setup(jokers=False)).standings)
