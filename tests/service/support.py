"""Shared helpers for the service's tests: options, a referee that asks, waiting on the loop."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

from firmware_host.rules.pieces import Piece
from firmware_host.sensors.drop import DropReadings
from firmware_host.service.referee import Asked, Identity, Outcome, Referee
from firmware_host.service.runner import Options

PANEL = """version: 1
buttons:
  pull_up: true
  bounce_time: null
  pins: {previous_shape: 5, next_shape: 6, confirm: 13, joker: 19, answer_yes: 26, answer_no: 21}
"""


def options(tmp_path: Path, **changes: object) -> Options:
    """Options for an in-process service on a journal in ``tmp_path`` (no page)."""
    panel = tmp_path / "panel.yaml"
    panel.write_text(PANEL)
    settings: dict[str, object] = {
        "journal": tmp_path / "journal.sqlite3",
        "http": False,
        "panel": str(panel),
        "noise": "clean",
        "seed": 5,
    }
    settings.update(changes)
    return Options(**settings)  # type: ignore[arg-type]


async def until(condition: Callable[[], bool], deadline_s: float = 20.0) -> None:
    """Let the loop (and the referee's worker thread) run until ``condition`` holds; fails
    after ``deadline_s`` real seconds."""
    deadline = time.monotonic() + deadline_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("the condition never came true")
        await asyncio.sleep(0.0005)


class AskingReferee:
    """Wraps a referee and, before deciding turn ``n`` in ``turns``, asks whether the piece
    has come to rest: yes gives the wrapped referee's decision, no asks again."""

    def __init__(self, inner: Referee, turns: set[str]) -> None:
        self.inner = inner
        self.turns = turns
        self.answers: list[bool] = []
        self._held: tuple | None = None

    def look(
        self,
        pieces: tuple[Piece, ...],
        identity: Identity | None,
        readings: DropReadings,
        piece_id: str,
        options: tuple[Identity, ...] = (),
    ) -> Outcome:
        if piece_id not in self.turns:
            return self.inner.look(pieces, identity, readings, piece_id, options)
        self._held = (pieces, identity, readings, piece_id, options)
        return Asked(f"has piece {piece_id} come to rest?")

    def answer(self, yes: bool) -> Outcome:
        self.answers.append(yes)
        assert self._held is not None
        if not yes:
            return Asked(f"has piece {self._held[3]} come to rest now?")
        return self.inner.look(*self._held)

    def choose(self, color, shape) -> Outcome:
        return self.inner.choose(color, shape)
