"""The perfect eye that carries its own board: it carries the boards it decided, weighs with
a floor, takes the answers' verdict, and its command runs and refuses bad options."""

from __future__ import annotations

import math
import sys

import pytest

from benchmarks import __main__ as bench_main
from firmware_host.config.noise import load_profile
from firmware_host.config.table import load_table
from firmware_host.model import Snapshot
from firmware_host.sensors import Bits, StripSnapshot
from simulator.bound import ExactNoise
from simulator.noise import Gate, StuckBeam
from simulator.track_bound import Landing, carried, track

TABLE = load_table()
CLEAN = load_profile("clean")
REALISTIC = load_profile("realistic")
SIZES = (60, 1, 30, 30, 30)  # curtain, top gate, left, bottom, right


def snapshot(*values: int) -> StripSnapshot:
    return StripSnapshot(*(Bits(size, value) for size, value in zip(SIZES, values, strict=True)))


def test_on_the_clean_profile_the_carried_board_is_the_true_one():
    """Every clean landing is the drop itself: a tracker that carries the board it decided
    is right on every drop of a game without a question (one that lost its board between
    drops would land later pieces on the wrong pile)."""
    found = track(TABLE, CLEAN, drops=8, seed=2, samples=2, particles=1)
    assert (found.wrong, found.asked, found.staff, found.map_right) == (0, 0, 0, 8)


def test_a_release_known_to_a_micrometre_loses_the_clean_board():
    """The same clean drops with each landing's release x a micrometre off: a pile's
    physics makes some of them land elsewhere, and the tracker's board goes astray."""
    found = track(TABLE, CLEAN, drops=36, seed=1, samples=1, particles=1, release_mm=0.001)
    assert found.wrong + found.staff > 0


def test_asking_on_every_drop_takes_the_answers_verdict():
    """Asking below a share above 1 asks on every drop, and the answers name the true
    verdict: nothing is decided wrong."""
    found = track(TABLE, REALISTIC, drops=10, seed=1, samples=4, particles=2, ask_below=1.01)
    assert found.asked == 10 and found.wrong == 0
    assert found.staff <= found.asked


def test_the_floor_keeps_an_impossible_reading_finite():
    """A reading the landing cannot produce (an element pressed where none is, a stuck
    beam reading otherwise) costs the floor per bit with one, and rules the landing out
    without."""
    stuck = [StuckBeam(Gate.CURTAIN, 3, True)]
    exact, read = snapshot(0, 0, 0, 0, 0), snapshot(0, 0, 0, 0b1, 0)
    noise = REALISTIC.sensors
    assert ExactNoise(noise).strips(exact, read) == -math.inf
    floored = ExactNoise(noise, floor=1e-4)
    free = ExactNoise(noise, floor=1e-4).strips(exact, exact)
    assert floored.strips(exact, read) == pytest.approx(free + math.log(1e-4))
    assert ExactNoise(noise, stuck).strips(exact, exact) == -math.inf
    with_stuck = ExactNoise(noise, stuck, floor=1e-4)
    assert with_stuck.strips(exact, snapshot(1 << 3, 0, 0, 0, 0)) > with_stuck.strips(exact, exact)
    assert math.isfinite(with_stuck.strips(exact, exact))


def test_the_heaviest_landings_are_carried_with_their_weights():
    landings = [Landing(w, w, ("k",), Snapshot(())) for w in (-5.0, -2.0, -4.0, -3.0)]
    assert [w for w, _ in carried(landings, 3)] == [0.0, -1.0, -2.0]
    assert len(carried(landings, 10)) == 4


def test_the_benchmark_command_runs(monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["benchmarks"])
    bench_main.main(
        ["eye_track", "--drops", "3", "--samples", "2", "--particles", "1", "--profiles", "clean"]
    )
    out = capsys.readouterr().out
    assert "wrong at most 1 % with at most 25 % asked" in out
    assert out.count("clean          3 drops") == 2 and "MAP right 100.0 %" in out


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (["--ask-below", "0.9,high"], "is not a list of numbers"),
        (["--ask-below", "1.5"], "must lie between 0 and 1"),
        (["--particles", "0"], "must be at least 1"),
        (["--release-mm", "-1"], "--release-mm must be at least 0"),
    ],
)
def test_the_benchmark_command_refuses_bad_options(monkeypatch, capsys, option, message):
    monkeypatch.setattr(sys, "argv", ["benchmarks"])
    with pytest.raises(SystemExit) as stopped:
        bench_main.main(["eye_track", *option])
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err
