"""The physics model: time per drop, a whole 36-shape game's real-time factor, where a
game's time goes (Chipmunk's stepping, building the spaces), snapshots.

Also compares ways of saving a live pymunk space (``Space.copy``, pickle, rebuilding from
the bodies' states) by what each costs and whether it continues a run bit-for-bit.
"""

from __future__ import annotations

import math
import pickle
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pymunk

from firmware_host.config.board import Board, load_board
from firmware_host.games.dropit.rules.pieces import Color, Shape
from firmware_host.model import PhysicsParams, World, load_params
from firmware_host.model import world as world_module
from firmware_host.model.space import (
    BodyState,
    add_piece,
    run_until_settled,
    space_of,
    state_of,
)
from firmware_host.model.supply import GAME_DROPS, play

GAMES = 8
SEED = 2024


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


def bench_drops_and_games(board, params) -> World:
    """Time every drop of GAMES games; print per-drop and per-game figures.

    Returns a world holding the first game's final board (36 pieces at rest).
    """
    drop_times: list[float] = []
    game_cpus: list[float] = []
    game_walls: list[float] = []
    game_sims: list[float] = []
    unsettled = 0
    game = play(board, params, GAMES * GAME_DROPS, SEED)
    full_board = None
    for _ in range(GAMES):
        wall = sim = 0.0
        cpu = time.process_time()
        for _ in range(GAME_DROPS):
            start = time.perf_counter()
            simulated = next(game)
            took = time.perf_counter() - start
            drop_times.append(took)
            wall += took
            sim += simulated.result.sim_time_s
            unsettled += not simulated.result.settled
        full_board = full_board or simulated.pieces
        game_cpus.append(time.process_time() - cpu)
        game_walls.append(wall)
        game_sims.append(sim)
    print(
        f"drop until settled: median {statistics.median(drop_times) * 1e3:.1f} ms, "
        f"p95 {_p95(drop_times) * 1e3:.1f} ms over {len(drop_times)} drops "
        f"({unsettled} did not settle)"
    )
    factors = [s / w for s, w in zip(game_sims, game_walls, strict=True)]
    print(
        f"36-shape game: median {statistics.median(game_walls):.2f} s wall for "
        f"{statistics.median(game_sims):.1f} s simulated; real-time factor median "
        f"{statistics.median(factors):.0f}x, worst {min(factors):.0f}x over {GAMES} games"
    )
    on_cpu = [s / c for s, c in zip(game_sims, game_cpus, strict=True)]
    print(
        f"36-shape game on this process's CPU time (what a shared machine's load does not "
        f"stretch): real-time factor median {statistics.median(on_cpu):.0f}x"
    )
    return World.at_rest(board, params, full_board)


@contextmanager
def _timed(names: tuple[str, ...], spent: dict[str, float]) -> Iterator[None]:
    """Add the CPU time of each call of the functions ``names`` that ``World.drop`` calls
    (module globals of ``firmware_host.model.world``) into ``spent``, while the block runs."""
    originals = {name: getattr(world_module, name) for name in names}

    def timer(name: str, call: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.process_time()
            try:
                return call(*args, **kwargs)
            finally:
                spent[name] = spent.get(name, 0.0) + time.process_time() - start

        return timed

    for name, call in originals.items():
        setattr(world_module, name, timer(name, call))
    try:
        yield
    finally:
        for name, call in originals.items():
            setattr(world_module, name, call)


def bench_game_split(board: Board, params: PhysicsParams) -> None:
    """Where a game's CPU time goes: Chipmunk stepping each drop until it settles
    (``run_until_settled``: its loop calls Chipmunk's step and sleep test directly), building
    and priming each drop's space (``space_of``), and the rest; and the real-time factor
    the stepping alone would allow, the ceiling of any change that leaves it as it is."""
    spent: dict[str, float] = {}
    game = play(board, params, 4 * GAME_DROPS, SEED)
    simulated = 0.0
    with _timed(("run_until_settled", "space_of"), spent):
        start = time.process_time()
        for _ in range(4 * GAME_DROPS):
            simulated += next(game).result.sim_time_s
        total = time.process_time() - start
    stepping, building = spent["run_until_settled"], spent["space_of"]
    rest = total - stepping - building
    print(
        f"4 games' CPU time: {total:.2f} s for {simulated:.1f} s simulated "
        f"({simulated / total:.0f}x); stepping {100 * stepping / total:.0f} %, building "
        f"and priming the spaces {100 * building / total:.0f} %, the rest "
        f"{100 * rest / total:.0f} %; the stepping alone allows {simulated / stepping:.0f}x"
    )


def bench_snapshots(board, params, world: World) -> None:
    """Save + restore of a full board, and the rebuild the next drop pays."""
    n = 2000
    start = time.perf_counter()
    for _ in range(n):
        saved = world.snapshot()
        world.restore(saved)
    save_restore = (time.perf_counter() - start) / n
    rebuilds = []
    for _ in range(200):
        start = time.perf_counter()
        space_of(board, params, world.bodies)
        rebuilds.append(time.perf_counter() - start)
    rebuild = statistics.median(rebuilds)
    print(
        f"snapshot of {len(world.bodies)} pieces: save + restore {save_restore * 1e6:.1f} us; "
        f"+ rebuilding the space (paid by the next drop) median {rebuild * 1e3:.2f} ms, "
        f"p95 {_p95(rebuilds) * 1e3:.2f} ms; total {(save_restore + rebuild) * 1e3:.2f} ms"
    )


def _continue(space: pymunk.Space, board, params) -> list[tuple[float, float, float]]:
    """Drop one fixed piece into ``space`` and return every body's final pose."""
    bodies = list(space.bodies)
    extra = BodyState("x", Color.GREEN, Shape.DIAMOND, 140.0, 330.0, math.radians(20.0))
    dropped = add_piece(space, board, params, extra)
    run_until_settled(space, [dropped, *reversed(bodies)], params)
    return [(b.position.x, b.position.y, b.angle) for b in space.bodies]


def bench_copy_methods(board, params, world: World) -> None:
    """Cost of each way to save a live space, and whether it continues bit-for-bit."""
    states = world.bodies[:-1]
    space, bodies = space_of(board, params, states)
    last = world.bodies[-1]
    lifted = BodyState(last.id, last.color, last.shape, 150.0, 330.0, last.angle)
    body = add_piece(space, board, params, lifted)
    run_until_settled(space, [body, *reversed(bodies)], params)
    live = list(space.bodies)

    def timed(make, runs=50):
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            made = make()
            times.append(time.perf_counter() - start)
        return made, statistics.median(times)

    templates = [*states, lifted]
    methods = {
        "Space.copy()": lambda: space.copy(),
        "pickle dumps + loads": lambda: pickle.loads(pickle.dumps(space)),
        "rebuild from body states": lambda: space_of(
            board,
            params,
            [state_of(t, b, at_rest=False) for t, b in zip(templates, live, strict=True)],
        )[0],
    }
    copies = {name: timed(make) for name, make in methods.items()}
    reference = _continue(space, board, params)
    for name, (copied, cost) in copies.items():
        poses = _continue(copied, board, params)
        worst = max(
            math.hypot(a[0] - b[0], a[1] - b[1]) for a, b in zip(poses, reference, strict=True)
        )
        same = "bit-for-bit" if poses == reference else f"differs (up to {worst:.3g} mm)"
        print(f"live space, {name}: {cost * 1e3:.2f} ms; continued run {same}")


def main() -> None:
    """Print the physics figures."""
    board, params = load_board(), load_params()
    world = bench_drops_and_games(board, params)
    bench_game_split(board, params)
    bench_snapshots(board, params, world)
    bench_copy_methods(board, params, world)
