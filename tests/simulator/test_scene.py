"""The true world's scene: every piece watched as the physics runs, the run unchanged."""

from __future__ import annotations

from firmware_host.config.table import load_table
from firmware_host.model import Drop, World, load_params
from firmware_host.model.supply import supply_piece
from firmware_host.sensors import Trajectory
from simulator.scene import PERIOD_S, watched_drop

TABLE = load_table()
PARAMS = load_params()


def pile(world: World, drops: int) -> None:
    for k in range(drops):
        color, shape = supply_piece(k)
        world.drop(Drop(color, shape, 40.0 + (k * 37.0) % 220.0, world.top() + 40.0, k * 53.0))


def test_a_watched_drop_is_the_same_run_as_world_drop() -> None:
    plain, watched = World(TABLE.board, PARAMS), World(TABLE.board, PARAMS)
    pile(plain, 8)
    watched.restore(plain.snapshot())
    drop = Drop(*supply_piece(8), 150.0, plain.top() + 40.0, 20.0, spin=30.0)
    path = Trajectory()
    expected = plain.drop(drop, "p9", observer=path.record)
    result, trajectory, scene = watched_drop(watched, drop, "p9")
    assert result == expected
    assert watched.bodies == plain.bodies
    assert trajectory.samples == path.samples
    assert scene.frames[-1].pieces == plain.pieces


def test_the_scene_shows_the_pushed_pile_moving_before_the_drop_settles() -> None:
    world = World(TABLE.board, PARAMS)
    pile(world, 8)
    before = world.pieces
    drop = Drop(*supply_piece(8), 60.0, world.top() + 60.0, 45.0)
    result, _, scene = watched_drop(world, drop, "p9")
    times = [frame.t for frame in scene.frames]
    assert times[0] == 0.0 and times[-1] == result.sim_time_s
    for k, t in enumerate(times[1:-1], 1):  # the first step at or after each period
        assert k * PERIOD_S - 1e-9 <= t < k * PERIOD_S + PARAMS.time_step
    moved = {p.id for p, q in zip(before, world.pieces, strict=False) if p.pose != q.pose}
    assert moved, "this drop pushes part of the pile"
    final = {p.id: p.pose for p in world.pieces}
    for piece_id in moved:
        path = [p.pose for f in scene.frames[:-1] for p in f.pieces if p.id == piece_id]
        assert len(set(path)) > 2
        assert abs(path[-1].x - final[piece_id].x) + abs(path[-1].y - final[piece_id].y) < 0.1
