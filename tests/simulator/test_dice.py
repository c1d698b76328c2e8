"""Virtual dice on a fake clock: rolling, then stable on a face after a seeded delay."""

from __future__ import annotations

import pytest

from firmware_host.config.table import load_table
from firmware_host.sensors import DieReading
from simulator.dice import ROLL_TIME_S, VirtualDice


class FakeClock:
    """Simulated seconds that only move when a test moves them."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def test_dice_start_at_rest_on_faces_and_roll_when_thrown():
    clock = FakeClock()
    dice = VirtualDice.of_table(load_table(), seed=1, clock=clock)
    assert len(dice.readings) == 6
    assert all(not r.rolling and 0 <= r.face < 6 for r in dice.readings)
    assert dice.roll() == [DieReading(die, True, None) for die in range(6)]
    assert all(r.rolling for r in dice.readings)


def test_each_die_comes_to_rest_within_the_roll_time_and_is_reported_once():
    clock = FakeClock()
    dice = VirtualDice(count=5, faces=6, seed=2, clock=clock)
    dice.roll()
    assert dice.poll() == []
    clock.advance(ROLL_TIME_S[0] - 0.01)
    assert dice.poll() == [], "no die rests before the shortest roll"
    landed: dict[int, float] = {}
    while clock.now < 100.0 + ROLL_TIME_S[1]:
        clock.advance(0.05)
        for reading in dice.poll():
            assert reading.die not in landed
            assert not reading.rolling and 0 <= reading.face < 6
            landed[reading.die] = clock.now
    assert sorted(landed) == [0, 1, 2, 3, 4]
    assert len(set(landed.values())) > 1, "the delays are random, not one fixed time"
    assert all(not r.rolling for r in dice.readings)
    assert dice.poll() == []


def test_a_roll_is_reproduced_from_the_seed_and_differs_with_another():
    def faces(seed: int) -> list[DieReading]:
        clock = FakeClock()
        dice = VirtualDice(count=6, faces=6, seed=seed, clock=clock)
        out = []
        for _ in range(5):
            dice.roll()
            clock.advance(ROLL_TIME_S[1])
            out += dice.poll()
        return out

    assert faces(7) == faces(7)
    assert faces(7) != faces(8)


def test_faces_cover_every_index():
    clock = FakeClock()
    dice = VirtualDice(count=1, faces=6, seed=3, clock=clock)
    seen = set()
    for _ in range(100):
        dice.roll()
        clock.advance(ROLL_TIME_S[1])
        seen.add(dice.poll()[0].face)
    assert seen == set(range(6))


def test_rolling_some_dice_leaves_the_others_at_rest():
    clock = FakeClock()
    dice = VirtualDice(count=4, faces=6, seed=4, clock=clock)
    before = dice.readings
    assert [r.die for r in dice.roll([1, 3])] == [1, 3]
    assert (dice.readings[0], dice.readings[2]) == (before[0], before[2])
    with pytest.raises(ValueError, match="no die 4"):
        dice.roll([4])


def test_a_reading_is_rolling_or_has_a_face_never_both():
    with pytest.raises(ValueError):
        DieReading(0, rolling=True, face=3)
    with pytest.raises(ValueError):
        DieReading(0, rolling=False, face=None)


def test_a_seeded_throw_is_the_same_whatever_was_thrown_before():
    now = [0.0]
    fresh = VirtualDice(count=3, faces=6, seed=1, clock=lambda: now[0])
    used = VirtualDice(count=3, faces=6, seed=1, clock=lambda: now[0])
    used.roll()
    used.roll([0, 2])
    now[0] = 10.0
    used.poll()
    fresh.roll([1, 2], seed="5:1:7")
    used.roll([1, 2], seed="5:1:7")
    now[0] = 20.0
    assert fresh.poll() == used.poll() != []
    unseeded = VirtualDice(count=3, faces=6, seed=1, clock=lambda: now[0])
    unseeded.roll()
    now[0] = 30.0
    assert [r.face for r in unseeded.poll()] != []  # the own stream still serves unseeded throws
