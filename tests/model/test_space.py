"""The model is physical: no piece rests in mid-air, a drop moves only what its contacts
reach, a rebuilt pile holds where it lies, and the same seed plays the same game.

Games of 36 drops through ``tabletop simulate``'s engine (:func:`model.supply.play`) and
through the simulator's true world (its own physics, drawn per drop). Before, a piece whose
only support was woken and moved off in one step stayed asleep in mid-air (seed 4711, the
blue square ``p22`` from drop 23 on, up to 11 mm above anything), and a woken pile, rebuilt
with no contacts, crept (9 states in 10 moved a piece up to 0.37 mm with nothing dropped).
"""

from __future__ import annotations

import math
import random
import statistics
from dataclasses import replace

from firmware_host.config.board import load_board
from firmware_host.config.noise import load_profile
from firmware_host.config.table import load_table
from firmware_host.games.dropit.rules.pieces import Pose
from firmware_host.model import Snapshot, World, load_params
from firmware_host.model.space import BodyState, space_of
from firmware_host.model.supply import GAME_DROPS, play, random_drop, supply_piece
from simulator.evaluate import turns
from simulator.true_world import TrueWorld
from tests.physics_support import STILL_MM, follow_drop, moved, unsupported, woken_creep

BOARD = load_board()
PARAMS = load_params()
MODEL_SEEDS = (4711, 7, 3, 11, 1, 2, 4, 5, 6, 8, 9, 10)
"""Seeds of the model's games (one game each, 4711 the one the mid-air piece was seen in;
with the true world's 8, 20 games)."""
TRUE_SEEDS = (1, 2)
"""Seeds of the true world's runs (:data:`TRUE_GAMES` games between them)."""
TRUE_GAMES = 8
UNPUSHED_MM = 0.1
"""A piece of a woken pile that nothing moving touched may still shift this much (a
piece held near the limit of its friction; at most 0.092 mm over 16 games)."""


def test_no_piece_rests_in_mid_air_and_a_drop_moves_only_what_it_reaches():
    for seed in MODEL_SEEDS:
        rng = random.Random(seed)
        world = World(BOARD, PARAMS)
        for n in range(1, GAME_DROPS + 1):
            drop = random_drop(world, *supply_piece(n - 1), rng)
            new = BodyState(
                f"p{n}", drop.color, drop.shape, drop.x, drop.y, math.radians(drop.angle)
            )
            followed = follow_drop(BOARD, PARAMS, world.bodies, new)
            assert max(followed.untouched.values(), default=0.0) <= STILL_MM, (seed, n)
            assert max(followed.unpushed.values(), default=0.0) <= UNPUSHED_MM, (seed, n)
            assert unsupported(BOARD, PARAMS, followed.final) == {}, (seed, n)
            world.restore(Snapshot(followed.final))


def test_the_followed_drop_is_the_worlds_drop():
    """The check above steps the drop itself: it is World.drop's run, bit for bit."""
    rng = random.Random(5)
    world = World(BOARD, PARAMS)
    for n in range(1, 13):
        drop = random_drop(world, *supply_piece(n - 1), rng)
        new = BodyState(f"p{n}", drop.color, drop.shape, drop.x, drop.y, math.radians(drop.angle))
        followed = follow_drop(BOARD, PARAMS, world.bodies, new)
        world.drop(drop, f"p{n}")
        assert world.bodies == followed.final


def test_the_simulated_games_repeat_exactly():
    first = [(d.result, d.pieces) for d in play(BOARD, PARAMS, 2 * GAME_DROPS, 4711)]
    second = [(d.result, d.pieces) for d in play(BOARD, PARAMS, 2 * GAME_DROPS, 4711)]
    assert first == second


def _true_games(seed: int) -> list[tuple]:
    table = load_table()
    world = TrueWorld(table, load_profile("realistic"), seed)
    played = []
    for number, color, shape, x, angle in turns(table, TRUE_GAMES // 2 * GAME_DROPS, seed):
        if number > 1 and (number - 1) % GAME_DROPS == 0:
            world.clear()
        true = world.drop(color, shape, x, angle)
        played.append((true.actual, true.result, true.pieces, true.readings))
    return played


def test_the_true_worlds_pieces_rest_on_supports_and_a_seed_repeats_its_games():
    table = load_table()
    params = TrueWorld(table, load_profile("realistic"), 0).params
    for seed in TRUE_SEEDS:
        played = _true_games(seed)
        assert played == _true_games(seed)
        for _, result, pieces, _ in played:
            assert result.settled
            states = World.at_rest(table.board, params, pieces).bodies
            assert unsupported(table.board, params, states) == {}


def test_a_rebuilt_pile_holds_where_it_lies():
    """Rebuilding the space from a settled state, waking every piece and letting it sleep
    again moves (almost) nothing: at most 0.05 mm for 9 states in 10."""
    creeps = [
        woken_creep(BOARD, PARAMS, World.at_rest(BOARD, PARAMS, drop.pieces).bodies)
        for seed in MODEL_SEEDS[:3]
        for drop in play(BOARD, PARAMS, GAME_DROPS, seed)
    ]
    assert statistics.quantiles(creeps, n=10)[-1] <= STILL_MM
    assert statistics.median(creeps) <= 0.01


def test_rebuilding_a_space_moves_no_piece_and_every_pile_sleeps():
    """Priming steps the rebuilt space, yet every body stays where its state has it, to the
    last bit, and asleep."""
    *_, last = play(BOARD, PARAMS, GAME_DROPS, 4711)
    states = World.at_rest(BOARD, PARAMS, last.pieces).bodies
    _, bodies = space_of(BOARD, PARAMS, states)
    for state, body in zip(states, bodies, strict=True):
        assert (body.position.x, body.position.y, body.angle) == (state.x, state.y, state.angle)
        assert body.is_sleeping, state.id


def test_a_board_from_poses_is_seated_into_its_contacts():
    """Poses someone saw are not a state the physics made: the camera locates a piece on the
    floor touching it, not ``collision_slop`` into it. Lifted so, a settled board's bottom
    pieces hover with no contact to prime, and its pile does not hold when woken; seated
    (:meth:`World.seated`), it holds, and no piece moved more than 0.5 mm from the lifted
    pose (0.4 mm at most over seeds 4711, 7 and 3: a piece settling into its contacts). A
    board the physics made moves no more than a woken pile does."""
    *_, last = play(BOARD, PARAMS, GAME_DROPS, 4711)
    made = World.at_rest(BOARD, PARAMS, last.pieces)
    lifted = World.at_rest(
        BOARD,
        PARAMS,
        [
            replace(p, pose=Pose(p.pose.x, p.pose.y + PARAMS.collision_slop, p.pose.angle))
            for p in last.pieces
        ],
    )
    assert woken_creep(BOARD, PARAMS, lifted.bodies) > STILL_MM
    seated = lifted.seated()
    assert woken_creep(BOARD, PARAMS, seated.bodies) <= STILL_MM
    assert max(moved(lifted.bodies, seated.bodies).values()) <= 0.5
    assert max(moved(made.bodies, made.seated().bodies).values()) <= STILL_MM
