"""Helpers for the journal tests: a fake wall clock, example games journaled through the referee."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from firmware_host.config.board import load_board
from firmware_host.games.dropit.gamefile import load_game
from firmware_host.games.dropit.referee import RefereeReport, referee_game
from firmware_host.journal.dropit import record_game
from firmware_host.journal.store import Journal

GAMES = Path(__file__).resolve().parents[1] / "examples" / "games"


class FakeWallClock:
    """A wall clock that starts at ``start`` and moves ``step`` seconds each time it is read."""

    def __init__(self, start: datetime = datetime(2026, 11, 21, 12, 0, tzinfo=UTC), step=1.5):
        self.now = start
        self.step = timedelta(seconds=step)

    def __call__(self) -> datetime:
        now = self.now
        self.now += self.step
        return now


def refereed(name: str) -> RefereeReport:
    """The example game ``examples/games/<name>.yaml``, refereed on the reference board."""
    path = GAMES / f"{name}.yaml"
    return referee_game(load_game(path), load_board(), str(path))


def journal_example(journal: Journal, name: str) -> int:
    """Journal the example game ``name`` (through the referee); its game id."""
    return record_game(journal, refereed(name).events)
