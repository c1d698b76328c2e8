"""The service starts the eye's look when the piece has gone through the entry gate: the
controller hands the entry to the :class:`EyeReferee`, which begins the look on its own
thread and settles it when the drop's readings come (waiting for the early work)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from firmware_host.config.board import EdgeFace
from firmware_host.config.noise import load_profile
from firmware_host.config.table import load_table
from firmware_host.eye import Eye, load_eye_config
from firmware_host.model import load_params
from firmware_host.sensors.drop import DropReadings
from firmware_host.service.eye_referee import EyeReferee
from firmware_host.service.referee import EarlyReferee
from simulator.evaluate import in_process_drops
from tests.service.bench import Bench

TABLE = load_table()
PARAMS = load_params()
CONFIG = load_eye_config()


def referee() -> EyeReferee:
    return EyeReferee(Eye(TABLE, PARAMS, CONFIG, EdgeFace.COLOR, seed=5), TABLE.board, PARAMS)


def settled(caplog: pytest.LogCaptureFixture) -> list[bool]:
    """Whether each look the log tells of was begun early."""
    return [r.fields["early"] for r in caplog.records if r.getMessage() == "eye settled"]


def test_a_begun_look_settles_to_the_fresh_looks_outcome(caplog) -> None:
    caplog.set_level(logging.DEBUG, logger="firmware_host.service")
    early, fresh = referee(), referee()
    assert isinstance(early, EarlyReferee)
    before: tuple = ()
    for drop in in_process_drops(TABLE, load_profile("realistic"), 3, seed=2):
        piece_id = f"p{drop.number}"
        early.begin(before, drop.identity, drop.readings.entered, piece_id, ())
        got = early.look(before, drop.identity, drop.readings, piece_id, ())
        assert got == fresh.look(before, drop.identity, drop.readings, piece_id, ())
        before = drop.oracle.pieces
    assert settled(caplog) == [True, False] * 3


def test_a_look_begun_for_another_drop_is_not_used(caplog) -> None:
    caplog.set_level(logging.DEBUG, logger="firmware_host.service")
    early, fresh = referee(), referee()
    drop = next(in_process_drops(TABLE, load_profile("clean"), 1, seed=2))
    early.begin((), drop.identity, drop.readings.entered, "p9", ())
    got = early.look((), drop.identity, drop.readings, "p1", ())
    assert got == fresh.look((), drop.identity, drop.readings, "p1", ())
    assert settled(caplog) == [False, False]


def test_the_controller_begins_the_look_when_the_piece_went_through_the_gate(
    tmp_path, caplog
) -> None:
    caplog.set_level(logging.DEBUG, logger="firmware_host.service")

    async def main() -> None:
        bench = Bench(tmp_path / "journal.sqlite3")
        table = bench.controller
        table.referee = referee()

        async def feed(readings: DropReadings) -> None:  # as the hub feed hands them on
            table.entered(readings.entered)
            await table.dropped(readings)

        bench.simulator.feed = feed
        await bench.drop_turn()
        assert table.state.next_turn == 2 or table.asked is not None
        bench.close()

    asyncio.run(main())
    assert settled(caplog) == [True]
