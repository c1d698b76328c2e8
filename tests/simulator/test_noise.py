"""Noise and fault profiles: the shipped ones load, bad ones are refused, and every
sensor-level knob of the noise layer has the effect it claims (and nothing else)."""

from __future__ import annotations

import random

import pytest
import yaml

from firmware_host.config.noise import NOISE_DIR, SensorNoise, StuckBeams, load_profile
from firmware_host.config.table import load_table
from firmware_host.errors import InputError
from firmware_host.sensors import BeamCut, Bits, StripSnapshot
from simulator.noise import FLICKER_PULSE_US, Gate, NoiseLayer, StuckBeam
from tests.builders import write_yaml

TABLE = load_table()
EXACT = StripSnapshot(
    curtain=Bits.of(60, range(20)),
    top_gate=Bits(1),
    left=Bits.of(30, range(0, 12)),
    bottom=Bits.of(30, range(0, 30)),
    right=Bits.of(30, range(5, 15)),
)
ENTRY = (BeamCut(10, 1_050_000, 1_100_000), BeamCut(11, 1_050_000, 1_100_000))


def layer(seed: int = 1, flicker=0.0, cut=0, clear=0, missed=0.0) -> NoiseLayer:
    noise = SensorNoise(
        beam_flicker=flicker, stuck_beams=StuckBeams(cut=cut, clear=clear), missed_contacts=missed
    )
    return NoiseLayer(TABLE, noise, random.Random(seed))


@pytest.mark.parametrize("name", ["clean", "realistic", "harsh"])
def test_shipped_profiles_load_by_name_and_by_path(name):
    assert load_profile(name) == load_profile(NOISE_DIR / f"{name}.yaml")


def test_profiles_grow_harsher_knob_by_knob():
    clean, real, harsh = (load_profile(n) for n in ("clean", "realistic", "harsh"))
    for get in (
        lambda p: p.drop.x,
        lambda p: p.drop.angle,
        lambda p: p.drop.spin,
        lambda p: p.physics_spread.friction,
        lambda p: p.physics_spread.elasticity,
        lambda p: p.sensors.beam_flicker,
        lambda p: p.sensors.missed_contacts,
        lambda p: p.link.lost_frames,
        lambda p: p.link.corrupted_bytes,
        lambda p: p.link.latency_jitter,
    ):
        assert get(clean) == 0 and get(clean) < get(real) < get(harsh)
    assert harsh.sensors.stuck_beams.cut + harsh.sensors.stuck_beams.clear > 0
    assert harsh.link.unplug.rate > 0


BROKEN = [
    ("probability above 1", ("sensors", "beam_flicker"), 1.5, "sensors.beam_flicker"),
    ("negative jitter", ("drop", "x"), -1.0, "drop.x"),
    ("reversed range", ("drop", "release_height"), [30.0, 5.0], "drop.release_height"),
    ("spread too wide", ("physics_spread", "friction"), 0.9, "physics_spread.friction"),
    (
        "reversed unplug",
        ("link", "unplug"),
        {"rate": 1.0, "duration": [5.0, 1.0]},
        "link.unplug.duration",
    ),
    (
        "negative stuck count",
        ("sensors", "stuck_beams"),
        {"cut": -1, "clear": 0},
        "sensors.stuck_beams.cut",
    ),
    ("unknown knob", ("link", "gremlins"), 3, "link.gremlins"),
]


@pytest.mark.parametrize(("name", "key", "value", "where"), BROKEN, ids=[b[0] for b in BROKEN])
def test_bad_profiles_are_refused_naming_the_key(tmp_path, name, key, value, where):
    data = yaml.safe_load((NOISE_DIR / "realistic.yaml").read_text())
    data[key[0]][key[1]] = value
    path = write_yaml(tmp_path / "bad.yaml", data)
    with pytest.raises(InputError) as caught:
        load_profile(path)
    assert (caught.value.source, caught.value.where) == (str(path), where)


def test_an_unknown_profile_name_lists_the_shipped_ones():
    with pytest.raises(InputError, match=r"no such noise profile .*clean, harsh, realistic"):
        load_profile("noisy")


def test_the_clean_profile_reads_exactly_what_is_there():
    clean = NoiseLayer(TABLE, load_profile("clean").sensors, random.Random(3))
    assert clean.stuck == ()
    for _ in range(20):
        assert clean.snapshot(EXACT) == EXACT
        assert clean.entry(ENTRY, 30, 1_000_000, 3_000_000) == ENTRY


def test_full_flicker_inverts_every_beam_but_no_contact():
    noisy = layer(flicker=1.0).snapshot(EXACT)
    assert noisy.curtain.value == EXACT.curtain.value ^ ((1 << 60) - 1)
    assert noisy.top_gate.indices() == (0,)
    assert (noisy.left, noisy.bottom, noisy.right) == (EXACT.left, EXACT.bottom, EXACT.right)


def test_beam_flicker_flips_about_its_probability_of_beams():
    noise = layer(flicker=0.05)
    flips = sum(
        (noise.snapshot(EXACT).curtain.value ^ EXACT.curtain.value).bit_count() for _ in range(200)
    )
    assert flips / (200 * 60) == pytest.approx(0.05, abs=0.01)


def test_beam_flicker_adds_short_spurious_cuts_to_the_entry_gate():
    noisy = layer(flicker=0.5).entry(ENTRY, 30, 1_000_000, 3_000_000)
    spurious = [c for c in noisy if c not in ENTRY]
    assert set(ENTRY) <= set(noisy)
    assert 5 <= len(spurious) <= 25
    for cut in spurious:
        assert (
            cut.cut_us >= 1_000_000 and cut.clear_us == cut.cut_us + FLICKER_PULSE_US <= 3_000_000
        )
    assert list(noisy) == sorted(noisy, key=lambda c: (c.cut_us, c.beam))


def test_stuck_beams_are_drawn_once_and_always_read_their_state():
    noise = layer(seed=5, flicker=0.3, cut=3, clear=3)
    assert [s.cut for s in noise.stuck] == [True] * 3 + [False] * 3
    assert len({(s.gate, s.beam) for s in noise.stuck}) == 6
    for _ in range(30):
        snapshot = noise.snapshot(EXACT)
        for stuck in noise.stuck:
            if stuck.gate is Gate.CURTAIN:
                assert snapshot.curtain[stuck.beam] == stuck.cut
            elif stuck.gate is Gate.TOP:
                assert snapshot.top_gate[stuck.beam] == stuck.cut
    assert layer(seed=5, cut=3, clear=3).stuck == noise.stuck
    assert layer(seed=6, cut=3, clear=3).stuck != noise.stuck


def test_a_stuck_curtain_beam_reads_its_state_whatever_the_board():
    noise = layer(seed=2, cut=1, clear=1)
    noise.stuck = (StuckBeam(Gate.CURTAIN, 40, True), StuckBeam(Gate.CURTAIN, 5, False))
    snapshot = noise.snapshot(EXACT)
    assert snapshot.curtain == EXACT.curtain.with_bit(40, True).with_bit(5, False)


def test_stuck_entry_beams_drop_their_cuts_or_never_clear():
    noise = layer(cut=1, clear=1)
    cut_beam, clear_beam = 3, 10
    noise.stuck = (StuckBeam(Gate.ENTRY, cut_beam, True), StuckBeam(Gate.ENTRY, clear_beam, False))
    noisy = noise.entry(ENTRY, 30, 1_000_000, 3_000_000)
    assert noisy == (BeamCut(cut_beam, 1_000_000, None), ENTRY[1])


def test_missed_contacts_clear_pressed_elements_only():
    assert layer(missed=1.0).snapshot(EXACT).bottom.count() == 0
    noise = layer(missed=0.25)
    kept = [noise.snapshot(EXACT) for _ in range(200)]
    assert all(s.curtain == EXACT.curtain for s in kept)
    assert all(s.left.value & ~EXACT.left.value == 0 for s in kept)
    missed = sum(EXACT.bottom.count() - s.bottom.count() for s in kept)
    assert missed / (200 * 30) == pytest.approx(0.25, abs=0.03)


def test_the_same_seed_gives_the_same_noise():
    def run(seed: int) -> list[StripSnapshot]:
        noise = layer(seed=seed, flicker=0.1, cut=1, clear=1, missed=0.2)
        return [noise.snapshot(EXACT) for _ in range(10)]

    assert run(9) == run(9)
    assert run(9) != run(10)
