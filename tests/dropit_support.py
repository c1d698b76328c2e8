"""Helpers for the Drop It game tests: set-ups, rulings, and seeded random legal games."""

from __future__ import annotations

import random

from firmware_host.config.board import EdgeFace
from firmware_host.games.dropit.events import (
    Event,
    GameStarted,
    JokerSpent,
    PieceMove,
    PiecesMoved,
    Ruling,
    ShapeDropped,
)
from firmware_host.games.dropit.lineup import Competitor, Variants
from firmware_host.games.dropit.rules.landing import Rule
from firmware_host.games.dropit.rules.pieces import Color, Piece, Pose, Shape
from firmware_host.games.dropit.state import GameState

R, B, Y, G = Color.RED, Color.BLUE, Color.YELLOW, Color.GREEN


def players(*specs: tuple[str, tuple[Color, ...]]) -> tuple[Competitor, ...]:
    """Competitors for a players game: ``("Ann", (R,))`` ..."""
    return tuple(Competitor(name, (name,), colors) for name, colors in specs)


def four_players(jokers: bool = False, edges: EdgeFace = EdgeFace.COLOR) -> GameStarted:
    return GameStarted(
        players(("Ann", (R,)), ("Ben", (B,)), ("Cleo", (Y,)), ("Dev", (G,))),
        teams=False,
        variants=Variants(edges, jokers),
    )


def three_players(jokers: bool = False) -> GameStarted:
    return GameStarted(
        players(("Ann", (R,)), ("Ben", (B,)), ("Cleo", (Y,))), False, Variants(jokers=jokers)
    )


def two_players(jokers: bool = False) -> GameStarted:
    return GameStarted(players(("Ann", (R, B)), ("Ben", (Y, G))), False, Variants(jokers=jokers))


def two_teams(jokers: bool = False) -> GameStarted:
    return GameStarted(
        (
            Competitor("Owls", ("Ann", "Ben"), (R, B)),
            Competitor("Foxes", ("Cleo", "Dev", "Eli"), (Y, G)),
        ),
        teams=True,
        variants=Variants(jokers=jokers),
    )


VALID = Ruling(broken=(), level=3, bonus=2)
"""A valid landing worth 5."""

BROKEN = Ruling(broken=(Rule.COLOR,), level=4, bonus=3)
"""A landing that broke the colour rule: 0 points, 7 with a joker."""


def drop(state: GameState, color: Color, shape: Shape, ruling: Ruling = VALID) -> ShapeDropped:
    """The current player's drop of ``color`` ``shape`` with ``ruling``."""
    turn = state.current
    assert turn is not None
    n = turn.number
    return ShapeDropped(n, turn.player, Piece(f"t{n}", color, shape, Pose(n, n, 0)), ruling)


def first_in_supply(state: GameState) -> tuple[Color, Shape]:
    """A shape the current player or team still has."""
    turn = state.current
    assert turn is not None
    color, shape, _ = next(iter(state.standing(turn.competitor.name).supply))
    return color, shape


def play(state: GameState, ruling: Ruling = VALID, turns: int = 1) -> GameState:
    """``turns`` drops of the first shape in each supply, each with ``ruling``."""
    for _ in range(turns):
        state = state.apply(drop(state, *first_in_supply(state), ruling))
    return state


SETUPS = (four_players, three_players, two_players, two_teams)


def random_game(seed: int, turns: int = 36) -> list[Event]:
    """A legal game of up to ``turns`` drops, random but reproducible from ``seed``."""
    rng = random.Random(seed)
    started = rng.choice(SETUPS)(jokers=rng.random() < 0.7)
    started = GameStarted(
        started.competitors,
        started.teams,
        Variants(rng.choice(list(EdgeFace)), started.variants.jokers),
    )
    events: list[Event] = [started]
    state = GameState.start(started)
    for _ in range(turns):
        if state.over:
            break
        name = state.current.competitor.name
        kinds = [(c, s) for c, s, n in state.standing(name).supply for _ in range(n)]
        color, shape = rng.choice(kinds)
        broken = tuple(sorted(rng.sample(list(Rule), rng.randint(0, 2)), key=list(Rule).index))
        ruling = Ruling(broken, rng.randint(1, 8), rng.choice((0, 0, 1, 2, 3, 5)))
        new = [drop(state, color, shape, ruling)]
        if (
            broken
            and state.started.variants.jokers
            and state.standing(name).jokers_left
            and rng.random() < 0.5
        ):
            new.append(JokerSpent(new[0].turn))
        if state.board and rng.random() < 0.2:
            moved = rng.choice(state.board)
            new.append(
                PiecesMoved(
                    (
                        PieceMove(
                            moved.id,
                            Pose(rng.uniform(0, 300), rng.uniform(0, 300), rng.uniform(-180, 180)),
                        ),
                    )
                )
            )
        for event in new:
            state = state.apply(event)
        events += new
    return events
