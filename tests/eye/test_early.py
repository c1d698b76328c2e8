"""The eye's look in two parts: :meth:`Eye.begin` once the piece has gone through the entry
gate, :meth:`Look.settle` on the settle signal; the same look as :meth:`Eye.look`, bit for
bit, and redone when the entry changed after the early part."""

from __future__ import annotations

from dataclasses import replace

import pytest

from firmware_host.config.board import EdgeFace
from firmware_host.config.noise import load_profile
from firmware_host.config.table import load_table
from firmware_host.errors import InputError
from firmware_host.eye import (
    Asking,
    Decided,
    Eye,
    Jam,
    Look,
    Question,
    SecondPiece,
    load_eye_config,
)
from firmware_host.eye.entry import passes
from firmware_host.model import World, load_params
from firmware_host.sensors.drop import DropEntry, DropReadings
from firmware_host.sensors.entry_gate import BeamCut
from simulator.evaluate import EvalDrop, Oracle, in_process_drops

TABLE = load_table()
PARAMS = load_params()
CONFIG = load_eye_config()
EYE = Eye(TABLE, PARAMS, CONFIG, EdgeFace.COLOR, seed=1)


def through_the_gate(readings: DropReadings) -> DropEntry:
    """The entry as the collector has it once the piece went through: the cuts up to the
    piece's last clear (a later flicker not yet seen)."""
    found = passes(readings.entry, readings.released_us, CONFIG.entry)
    last = max((p.clear for p in found if p.clear is not None), default=0.0)
    until = readings.released_us + round(last * 1e6)
    cuts = tuple(c for c in readings.entry if c.cut_us <= until)
    return DropEntry(readings.tag, readings.released_us, cuts)


def played(look: Look, outcome: object, oracle: Oracle) -> list[object]:
    """Every outcome of ``look`` from ``outcome`` on, the questions answered honestly."""
    seen = [outcome]
    while isinstance(outcome, Asking) and isinstance(outcome.question, Question):
        outcome = look.answer(oracle.answer(outcome.question))
        seen.append(outcome)
    return seen


def drops(profile: str, count: int) -> list[tuple[World, EvalDrop]]:
    """``count`` in-process drops, each with the model before it (adopting the truth)."""
    found = []
    model = World(TABLE.board, PARAMS)
    for drop in in_process_drops(TABLE, load_profile(profile), count, seed=3):
        found.append((model, drop))
        model = World.at_rest(TABLE.board, PARAMS, drop.oracle.pieces)
    return found


@pytest.mark.parametrize("profile", ["clean", "realistic", "harsh"])
def test_begin_then_settle_is_the_look_bit_for_bit(profile: str) -> None:
    for model, drop in drops(profile, 5):
        whole = EYE.look(model.snapshot(), drop.identity, drop.readings, f"p{drop.number}")
        assert whole.outcome is not None
        expected = played(whole, whole.outcome, drop.oracle)
        entry = through_the_gate(drop.readings)
        early = EYE.begin(model.snapshot(), drop.identity, entry, f"p{drop.number}")
        assert early.outcome is None
        got = played(early, early.settle(drop.readings), drop.oracle)
        assert not early.redone
        assert got == expected
        assert [c.snapshot for c in early.candidates] == [c.snapshot for c in whole.candidates]
        assert early.rng.getstate() == whole.rng.getstate()
        if isinstance(got[-1], Decided):
            assert isinstance(expected[-1], Decided)
            assert got[-1].snapshot == expected[-1].snapshot


def test_a_late_flicker_changes_no_pass_and_nothing_is_redone() -> None:
    model, drop = drops("clean", 1)[0]
    readings = drop.readings
    flicker = BeamCut(0, readings.settled_us - 5000, readings.settled_us - 4000)
    later = replace(readings, entry=(*readings.entry, flicker))
    early = EYE.begin(model.snapshot(), drop.identity, readings.entered, "p1")
    outcome = early.settle(later)
    assert not early.redone
    assert outcome == EYE.look(model.snapshot(), drop.identity, later, "p1").outcome


def test_a_late_entry_event_redoes_the_look_from_the_full_readings() -> None:
    for model, drop in drops("realistic", 3):
        readings = drop.readings
        *first, last = readings.entry
        held = DropEntry(readings.tag, readings.released_us, (*first, replace(last, clear_us=None)))
        early = EYE.begin(model.snapshot(), drop.identity, held, f"p{drop.number}")
        got = played(early, early.settle(readings), drop.oracle)
        whole = EYE.look(model.snapshot(), drop.identity, readings, f"p{drop.number}")
        assert whole.outcome is not None
        assert early.redone
        assert got == played(whole, whole.outcome, drop.oracle)
        assert early.rng.getstate() == whole.rng.getstate()


def test_a_second_piece_after_the_early_part_is_told_on_settle() -> None:
    model, drop = drops("clean", 1)[0]
    readings = drop.readings
    late = readings.released_us + 800_000
    second = (BeamCut(27, late, late + 20_000), BeamCut(28, late, late + 25_000))
    both = replace(readings, entry=(*readings.entry, *second))
    early = EYE.begin(model.snapshot(), drop.identity, readings.entered, "p1")
    assert isinstance(early.settle(both), SecondPiece)
    assert early.redone


def test_a_jam_is_told_on_settle_whatever_the_early_part_found() -> None:
    model, drop = drops("clean", 1)[0]
    readings = drop.readings
    stuck = replace(readings, settled_us=readings.released_us + 11_000_000)
    early = EYE.begin(model.snapshot(), drop.identity, readings.entered, "p1")
    assert isinstance(early.settle(stuck), Jam)


def test_a_look_settles_once_and_answers_nothing_before() -> None:
    model, drop = drops("clean", 1)[0]
    early = EYE.begin(model.snapshot(), drop.identity, drop.readings.entered, "p1")
    with pytest.raises(InputError, match="no yes/no question"):
        early.answer(True)
    early.settle(drop.readings)
    with pytest.raises(InputError, match="settled already"):
        early.settle(drop.readings)


def test_with_no_identity_the_early_part_asks_which_piece_and_choose_judges() -> None:
    model, drop = drops("clean", 1)[0]
    readings = replace(drop.readings, tag=None)
    options = ((drop.identity or ("red", "square")),)
    early = EYE.begin(model.snapshot(), None, readings.entered, "p1", options)
    outcome = early.settle(readings)
    assert isinstance(outcome, Asking) and outcome.question.options == options
    whole = EYE.look(model.snapshot(), None, readings, "p1", options)
    assert early.choose(*options[0]) == whole.choose(*options[0])
