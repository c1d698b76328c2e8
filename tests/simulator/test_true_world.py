"""The simulator's true world: its own physics, the hand's jitter and the per-drop spread
from the profile, readings through the forward models and the noise layer on the hub's
clock, all reproducible from the seed."""

from __future__ import annotations

import itertools
import os
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.config.noise import NoiseProfile, load_profile
from firmware_host.config.table import load_table
from firmware_host.games.dropit.rules.pieces import Color, Piece, Pose, Shape
from firmware_host.model import World, load_params
from firmware_host.model.supply import supply_piece
from firmware_host.sensors import EntryGate, StripModel
from simulator.true_world import PAUSE_US, TRUE_PARAMS, TrueWorld

TABLE = load_table()
CLEAN = load_profile("clean")
REALISTIC = load_profile("realistic")


def with_knobs(**sections: dict) -> NoiseProfile:
    """The clean profile with some knobs turned, e.g. ``with_knobs(drop={"x": 3.0})``."""
    data = CLEAN.model_dump()
    for section, knobs in sections.items():
        data[section].update(knobs)
    return NoiseProfile.model_validate(data)


def play(world: TrueWorld, drops: int = 12, seed_x: float = 37.0):
    """Drop the supply's first pieces at spread-out x and angles (same each call)."""
    out = []
    for k in range(drops):
        color, shape = supply_piece(k)
        out.append(world.drop(color, shape, x=40.0 + (k * seed_x) % 220.0, angle=(k * 53.0) % 360))
    return out


def test_the_true_physics_differ_from_the_hosts_model():
    true, host = load_params(TRUE_PARAMS), load_params()
    assert true.friction != host.friction
    assert true.elasticity != host.elasticity
    assert TrueWorld(TABLE, CLEAN, 1).params == true


def test_a_run_is_reproduced_exactly_from_its_seed():
    first = play(TrueWorld(TABLE, REALISTIC, seed=11))
    again = play(TrueWorld(TABLE, REALISTIC, seed=11))
    other = play(TrueWorld(TABLE, REALISTIC, seed=12))
    assert first == again
    assert [d.pieces for d in first] != [d.pieces for d in other]


RUN_IN_A_PROCESS = """
from firmware_host.config.noise import load_profile
from firmware_host.config.table import load_table
from simulator.true_world import TrueWorld
from tests.simulator.test_true_world import play
print(repr(play(TrueWorld(load_table(), load_profile("harsh"), seed=21), drops=6)))
"""


def test_a_run_is_the_same_in_another_process():
    """Nothing depends on the process: not on string hashing, not on object ids."""
    here = repr(play(TrueWorld(TABLE, load_profile("harsh"), seed=21), drops=6))
    for hash_seed in ("1", "2"):
        there = subprocess.run(
            [sys.executable, "-c", RUN_IN_A_PROCESS],
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            cwd=Path(__file__).resolve().parents[2],
        )
        assert there.stdout.strip() == here


def test_clean_readings_are_the_forward_models_readings_of_the_true_poses():
    world = TrueWorld(TABLE, CLEAN, seed=4)
    strips = StripModel(TABLE)
    for drop in play(world):
        assert drop.readings == drop.exact
        assert drop.exact.strips == strips.snapshot(drop.pieces)
        assert drop.actual.x == drop.intended.x and drop.actual.angle == drop.intended.angle
        assert drop.actual.spin == 0.0
        assert drop.params == world.params


def test_clean_entry_cuts_lie_under_the_piece_and_between_release_and_rest():
    world = TrueWorld(TABLE, CLEAN, seed=4)
    gate = EntryGate(TABLE)
    for drop in play(world, drops=8):
        cuts = drop.readings.entry
        assert cuts, "every drop falls through the entry gate"
        assert len({c.beam for c in cuts}) == len(cuts)
        for cut in cuts:
            assert abs(gate.beams[cut.beam] - drop.actual.x) <= gate.outlines.reach(
                drop.actual.shape
            )
            assert drop.readings.released_us < cut.cut_us < cut.clear_us < drop.readings.settled_us


def test_hub_time_runs_on_from_drop_to_drop():
    world = TrueWorld(TABLE, CLEAN, seed=4)
    drops = play(world, drops=3)
    assert drops[0].readings.released_us == PAUSE_US
    for before, after in itertools.pairwise(drops):
        assert after.readings.released_us == before.readings.settled_us + PAUSE_US
    last = drops[-1]
    assert last.readings.settled_us - last.readings.released_us == round(
        last.result.sim_time_s * 1e6
    )
    assert world.clock_us == last.readings.settled_us


def test_the_piece_reader_reads_the_dropped_pieces_tag():
    drop = TrueWorld(TABLE, CLEAN, seed=1).drop(Color.YELLOW, Shape.DIAMOND, 100.0, 0.0)
    assert drop.readings.tag == "yellow-diamond"


def test_release_height_jitter_sets_the_lowest_point_above_the_entry_row():
    world = TrueWorld(TABLE, with_knobs(drop={"release_height": [5.0, 30.0]}), seed=2)
    gaps = []
    for _ in range(30):
        drop = world.drop(Color.RED, Shape.SQUARE, 150.0, 0.0)
        gaps.append(drop.actual.y - 17.0 - TABLE.entry_row)
        world.clear()
    assert all(5.0 <= g <= 30.0 for g in gaps)
    assert max(gaps) - min(gaps) > 15.0


def test_release_is_above_a_pile_that_reaches_the_entry_row():
    world = TrueWorld(TABLE, CLEAN, seed=2)
    tall = TABLE.entry_row + 5.0
    tower = Piece("tower", Color.RED, Shape.SQUARE, Pose(20.0, tall - 17.0))
    world.world = World.at_rest(TABLE.board, world.params, [tower])
    drop = world.drop(Color.BLUE, Shape.CIRCLE, 200.0, 0.0)
    assert drop.actual.y - 18.0 == pytest.approx(tall + 10.0)  # the clean release height


@pytest.mark.parametrize(("knob", "sigma"), [("x", 3.0), ("angle", 6.0), ("spin", 30.0)])
def test_hand_jitter_scatters_the_drop_by_its_standard_deviation(knob, sigma):
    world = TrueWorld(TABLE, with_knobs(drop={knob: sigma}), seed=3)
    errors = []
    for _ in range(60):
        drop = world.drop(Color.RED, Shape.CIRCLE, 150.0, 10.0)
        intended = {"x": drop.intended.x, "angle": drop.intended.angle, "spin": 0.0}[knob]
        errors.append(getattr(drop.actual, knob) - intended)
        world.clear()
    assert statistics.pstdev(errors) == pytest.approx(sigma, rel=0.3)
    others = {"x", "angle", "spin"} - {knob}
    assert all(
        getattr(drop.actual, o) == {"x": 150.0, "angle": 10.0, "spin": 0.0}[o] for o in others
    )


def test_x_jitter_never_pushes_a_piece_into_a_wall():
    world = TrueWorld(TABLE, with_knobs(drop={"x": 20.0}), seed=8)
    for _ in range(20):
        drop = world.drop(Color.RED, Shape.SQUARE, 18.0, 0.0)
        assert drop.actual.x >= 17.0
        world.clear()


@pytest.mark.parametrize("knob", ["friction", "elasticity"])
def test_physics_spread_varies_each_coefficient_per_drop(knob):
    world = TrueWorld(TABLE, with_knobs(physics_spread={knob: 0.2}), seed=5)
    values = []
    for _ in range(40):
        drop = world.drop(Color.RED, Shape.CIRCLE, 150.0, 0.0)
        values.append(getattr(drop.params, knob).piece_piece)
        other = "elasticity" if knob == "friction" else "friction"
        assert getattr(drop.params, other) == getattr(world.params, other)
        world.clear()
    base = getattr(world.params, knob).piece_piece
    assert statistics.pstdev(values) / base == pytest.approx(0.2, rel=0.35)
    assert statistics.mean(values) == pytest.approx(base, rel=0.1)


def test_physics_spread_changes_where_pieces_come_to_rest():
    def final(profile: NoiseProfile):
        return [d.pieces for d in play(TrueWorld(TABLE, profile, seed=6), drops=8)]

    assert final(with_knobs(physics_spread={"friction": 0.3, "elasticity": 0.3})) != final(CLEAN)


def test_noisy_readings_differ_from_exact_ones_only_where_the_profile_says():
    world = TrueWorld(TABLE, with_knobs(sensors={"missed_contacts": 0.5}), seed=9)
    drops = play(world, drops=12)
    for drop in drops:
        noisy, exact = drop.readings.strips, drop.exact.strips
        assert (noisy.curtain, noisy.top_gate, drop.readings.entry) == (
            exact.curtain,
            exact.top_gate,
            drop.exact.entry,
        )
        assert noisy.bottom.value & ~exact.bottom.value == 0
    assert any(d.readings.strips.bottom != d.exact.strips.bottom for d in drops)
