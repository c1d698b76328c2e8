"""The perfect eye's bound: it simulates the true world's own drops, its likelihood is the
noise layer's exact one, its trade-off arithmetic is right, and its command runs."""

from __future__ import annotations

import math
import random
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmarks import __main__ as bench_main
from firmware_host.config.noise import load_profile
from firmware_host.config.table import load_table
from firmware_host.eye import verdict_key
from firmware_host.model import load_params
from firmware_host.sensors import Bits, StripSnapshot
from simulator import bound
from simulator.bound import (
    Decision,
    ExactNoise,
    Figures,
    Forward,
    Level,
    Posterior,
    Sensors,
    bound_drops,
    flickered,
    least_asked,
    measure,
    posterior,
    tradeoff,
    true_drops,
)
from simulator.evaluate import in_process_drops, oracle_of
from simulator.noise import Gate, StuckBeam
from simulator.pane_grid import PaneGrid
from simulator.true_world import TRUE_PARAMS, TrueWorld

TABLE = load_table()
CLEAN = load_profile("clean")
REALISTIC = load_profile("realistic")
HARSH = load_profile("harsh")
NOISE = REALISTIC.sensors.model_copy(update={"beam_flicker": 0.01, "missed_contacts": 0.1})
LIKELIHOOD = ExactNoise(NOISE)
SIZES = (60, 1, 30, 30, 30)  # curtain, top gate, left, bottom, right


def snapshot(*values: int) -> StripSnapshot:
    return StripSnapshot(*(Bits(size, value) for size, value in zip(SIZES, values, strict=True)))


def test_the_bound_replays_the_true_worlds_drops_exactly():
    """A sample with the drop's own physics and spin is the drop itself: the same final
    poses bit for bit, the same verdict (the bound simulates the true world, not another)."""
    forward = Forward(TABLE, load_params(TRUE_PARAMS), PaneGrid(TABLE.board))
    played = list(true_drops(TrueWorld(TABLE, HARSH, 3), 8, seed=3))
    for number, before, drop in played:
        pieces = forward.pieces(before, drop.actual, f"p{number}", drop.params)
        assert pieces == drop.pieces
        assert forward.outcome(pieces).key == verdict_key(oracle_of(TABLE, drop.pieces).verdict)
        assert forward.outcome(pieces).strips == drop.exact.strips
    # and the host's physics would not replay them all (the check can fail)
    host = Forward(TABLE, load_params(), PaneGrid(TABLE.board))
    assert any(
        host.pieces(before, drop.actual, f"p{n}", load_params()) != drop.pieces
        for n, before, drop in played
    )


def test_the_bound_plays_the_evaluations_drops():
    ours = [drop.readings for _, _, drop in true_drops(TrueWorld(TABLE, REALISTIC, 4), 5, 4)]
    theirs = [drop.readings for drop in in_process_drops(TABLE, REALISTIC, 5, seed=4)]
    assert ours == theirs


def test_on_the_clean_profile_every_sample_is_the_drop_and_the_perfect_eye_is_certain():
    drops = list(bound_drops(TABLE, CLEAN, 4, seed=5, samples=3))
    for drop in drops:
        for level in Level:
            assert drop.keys[level] == [drop.truth] * 3
            for sensors in Sensors:
                assert drop.weights[level, sensors] == [0.0] * 3  # log 1: readings equal
                belief = drop.posterior(level, sensors, 3)
                assert belief == Posterior(drop.truth, 1.0, True, True, 3.0)


def test_a_sample_that_reads_otherwise_on_the_clean_profile_has_no_weight():
    clean = ExactNoise(CLEAN.sensors)
    exact = snapshot(0b111, 0, 0, 0b110, 0)
    assert clean.strips(exact, exact) == 0.0
    assert clean.strips(exact, snapshot(0b011, 0, 0, 0b110, 0)) == -math.inf
    assert clean.strips(exact, snapshot(0b111, 0, 0, 0b100, 0)) == -math.inf
    assert posterior([(1,), (2,)], [-math.inf, -math.inf]) == Posterior(
        None, 0.0, False, False, 0.0
    )


def test_the_likelihood_of_exact_readings_has_every_factor():
    exact = snapshot(0b1111, 1, 0b11, 0b1, 0)
    # 61 beams read right, 3 pressed elements read pressed
    assert LIKELIHOOD.strips(exact, exact) == pytest.approx(61 * math.log(0.99) + 3 * math.log(0.9))
    # two beams flickered, one pressed element missed
    read = snapshot(0b1011111, 1, 0b01, 0b1, 0)
    assert LIKELIHOOD.strips(exact, read) == pytest.approx(
        2 * math.log(0.01) + 59 * math.log(0.99) + math.log(0.1) + 2 * math.log(0.9)
    )
    # an element pressed that nothing presses cannot be read
    assert LIKELIHOOD.strips(exact, snapshot(0b1111, 1, 0b11, 0b11, 0)) == -math.inf


def test_stuck_beams_read_their_value_whatever_is_there():
    stuck = ExactNoise(NOISE, [StuckBeam(Gate.CURTAIN, 5, True), StuckBeam(Gate.TOP, 0, False)])
    read = snapshot(0b100000, 0, 0, 0, 0)
    # curtain beam 5 stuck cut, the top gate stuck clear: 59 free beams, both agree
    assert stuck.strips(snapshot(0, 0, 0, 0, 0), read) == pytest.approx(59 * math.log(0.99))
    assert stuck.strips(snapshot(0b100000, 1, 0, 0, 0), read) == pytest.approx(59 * math.log(0.99))
    # a stuck-cut beam read clear cannot happen
    assert stuck.strips(snapshot(0, 0, 0, 0, 0), snapshot(0, 0, 0, 0, 0)) == -math.inf


def test_the_true_worlds_noisy_readings_are_always_possible_under_the_exact_model():
    """Whatever the harsh noise layer did (flicker, stuck beams, missed contacts), its
    readings have a nonzero likelihood given the drop's exact ones."""
    world = TrueWorld(TABLE, HARSH, 6)
    exact = ExactNoise(HARSH.sensors, world.noise.stuck)
    for _, _, drop in true_drops(world, 12, seed=6):
        assert exact.strips(drop.exact.strips, drop.readings.strips) > -math.inf


bits = st.integers(0, (1 << 60) - 1)
contacts = st.integers(0, (1 << 30) - 1)


@given(bits, st.integers(0, 1), contacts, contacts, contacts, st.sets(st.integers(0, 59)))
def test_flipping_beams_lowers_the_weight_by_the_flicker_odds_each(
    curtain, top, left, bottom, right, flips
):
    exact = snapshot(curtain, top, left, bottom, right)
    mask = sum(1 << i for i in flips)
    read = snapshot(curtain ^ mask, top, left, bottom, right)
    best = LIKELIHOOD.strips(exact, exact)
    assert LIKELIHOOD.strips(exact, read) == pytest.approx(
        best + len(flips) * math.log(0.01 / 0.99)
    )
    assert LIKELIHOOD.strips(exact, read) <= best


@given(bits, contacts, contacts, st.data())
def test_missing_contacts_lower_the_weight_by_the_missed_odds_each(curtain, left, bottom, data):
    exact = snapshot(curtain, 0, left, bottom, 0)
    missed = data.draw(st.sets(st.sampled_from(Bits(30, bottom).indices() or (0,))))
    missed &= set(Bits(30, bottom).indices())
    read = snapshot(curtain, 0, left, bottom & ~sum(1 << i for i in missed), 0)
    best = LIKELIHOOD.strips(exact, exact)
    assert LIKELIHOOD.strips(exact, read) == pytest.approx(best + len(missed) * math.log(0.1 / 0.9))


@given(bits, contacts, bits, contacts)
def test_the_readings_themselves_are_the_most_likely_exact_ones_for_them(c1, b1, c2, b2):
    exact, other = snapshot(c1, 0, 0, b1, 0), snapshot(c2, 0, 0, b2, 0)
    assert LIKELIHOOD.strips(exact, exact) >= LIKELIHOOD.strips(exact, other)


def test_the_grid_flickers_like_the_curtain():
    exact = Bits(900, (1 << 450) - 1)
    read = flickered(exact, 0.01, random.Random(1))
    flipped = (read.value ^ exact.value).bit_count()
    assert 1 <= flipped <= 25
    assert LIKELIHOOD.beams(exact, read) == pytest.approx(
        flipped * math.log(0.01) + (900 - flipped) * math.log(0.99)
    )
    assert flickered(exact, 0.0, random.Random(1)) == exact


def test_the_posterior_sums_each_verdicts_weight():
    belief = posterior([(1,), (2,), (1,), (3,)], [math.log(2), math.log(3), math.log(1), -math.inf])
    assert belief.key == (1,) and belief.p_max == pytest.approx(0.5)
    assert not belief.certain and belief.consistent
    assert belief.effective == pytest.approx(36 / 14)
    assert posterior([(1,), (2,)], [0.0, -math.inf]) == Posterior((1,), 1.0, True, True, 1.0)


DECISIONS = [
    Decision(1.0, True),
    Decision(0.4, False),
    Decision(0.9, True),
    Decision(0.95, False),
    Decision(1.0, True),
    Decision(0.7, True),
    Decision(1.0, True),
    Decision(0.99, True),
    Decision(1.0, False),
    Decision(0.8, True),
]


def test_the_trade_off_asks_the_lowest_p_max_first():
    nothing = tradeoff(DECISIONS, 0.0)
    assert nothing.expected_wrong == pytest.approx((0.6 + 0.1 + 0.05 + 0.3 + 0.01 + 0.2) / 10)
    assert nothing.realised_wrong == pytest.approx(3 / 10)
    # asking 2 of 10: the 0.4 (wrong) and the 0.7 (right) drops
    two = tradeoff(DECISIONS, 0.2)
    assert two.expected_wrong == pytest.approx((0.1 + 0.05 + 0.01 + 0.2) / 10)
    assert two.realised_wrong == pytest.approx(2 / 10)
    # asking 5: 0.4, 0.7, 0.8, 0.9, 0.95; the wrong one with p_max 1 stays
    assert tradeoff(DECISIONS, 0.5).realised_wrong == pytest.approx(1 / 10)
    assert tradeoff(DECISIONS, 0.5).expected_wrong == pytest.approx(0.01 / 10)


def test_the_least_asked_share_for_a_target():
    # 0.05 % of 10 drops: the expected wrong only after the 0.99 is asked too (6 of 10);
    # no wrong at all only after asking every drop (a wrong one has p_max 1)
    assert least_asked(DECISIONS, 0.0005) == (0.6, 1.0)
    # 10 %: expected 0.66 of a drop after asking the 0.4 (1 of 10); one wrong may stay
    # after asking 0.4 .. 0.95 (5 of 10)
    assert least_asked(DECISIONS, 0.1) == (0.1, 0.5)


def test_the_figures_count_shares_of_all_drops():
    posteriors = [Posterior((1,), d.p_max, d.p_max == 1.0, True, 2.0) for d in DECISIONS]
    truths = [(1,) if d.right else (2,) for d in DECISIONS]
    figures = Figures.of([*posteriors, Posterior(None, 0.0, False, False, 0.0)], [*truths, (1,)])
    assert figures.drops == 11 and figures.inconsistent == 1
    assert figures.certain == pytest.approx(4 / 11)
    assert figures.at_least[0.99] == pytest.approx(5 / 11)
    assert figures.at_least[0.9] == pytest.approx(7 / 11)
    assert figures.right == pytest.approx(7 / 11)
    assert figures.rows[0].realised_wrong == pytest.approx(4 / 11)


def test_measure_reports_every_column_at_k_and_half_k():
    result = measure(TABLE, REALISTIC, "realistic", drops=3, seed=2, samples=4)
    assert {(c.level, c.sensors, c.samples) for c in result.columns} == {
        (level, sensors, k) for level in Level for sensors in Sensors for k in (4, 2)
    }
    for column in result.columns:
        assert column.figures.drops == 3
        assert len(column.figures.rows) == len(bound.ASKED_SHARES)


def test_the_benchmark_command_takes_its_options(monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["benchmarks"])
    bench_main.main(["eye_bound", "--drops", "2", "--samples", "2", "--profiles", "clean"])
    out = capsys.readouterr().out
    assert "clean: 2 drops, seed 1, 2 samples" in out
    assert "B pane grid" in out and "sampling check, K=2 against K=1" in out
