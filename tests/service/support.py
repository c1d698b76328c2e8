"""Shared helpers for the service's tests: options, a referee that asks, waiting on the loop."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

from firmware_host.games.dropit.events import GameStarted
from firmware_host.games.dropit.rules.pieces import Piece
from firmware_host.games.dropit.table import DropItTable
from firmware_host.sensors.drop import DropReadings
from firmware_host.service.options import Options
from firmware_host.service.referee import Asked, Identity, Outcome, Referee

PANEL = """version: 1
buttons:
  pull_up: true
  bounce_time: null
  pins: {previous_shape: 5, next_shape: 6, confirm: 13, joker: 19, answer_yes: 26, answer_no: 21}
hub_tracks:
  brightness: 1.0
  tracks:
    - {strip: 0, first: 0, plus_25: 25, plus_50: 26, colour: [255, 30, 0]}
    - {strip: 1, first: 0, plus_25: 25, plus_50: 26, colour: [0, 80, 255]}
    - {strip: 2, first: 0, plus_25: 25, plus_50: 26, colour: [0, 200, 40]}
    - {strip: 3, first: 0, plus_25: 25, plus_50: 26, colour: [255, 170, 0]}
"""


def first_event(options: Options) -> GameStarted:
    """The set-up event of the new game the service starts for ``options``."""
    return DropItTable.first_event(options.players, options.edges, options.jokers)


def options(tmp_path: Path, **changes: object) -> Options:
    """Options for an in-process service on the virtual hub (clean noise, as fast as it
    goes) with a journal in ``tmp_path``, no page."""
    panel = tmp_path / "panel.yaml"
    panel.write_text(PANEL)
    settings: dict[str, object] = {
        "journal": tmp_path / "journal.sqlite3",
        "http": False,
        "panel": str(panel),
        "noise": "clean",
        "seed": 5,
        "sim": True,
        "speed": 1000.0,
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


REST = "rest"
"""The key of :class:`AskingReferee`'s questions."""


class AskingReferee:
    """Wraps a referee and, before it looks at a drop whose piece id is in ``turns``, asks
    whether the piece has come to rest: yes hands the drop to the wrapped referee, no asks
    again. Answers to the wrapped referee's own questions go to it."""

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
        return Asked(f"has piece {piece_id} come to rest?", key=REST)

    def answer(self, yes: bool) -> Outcome:
        if self._held is None:
            return self.inner.answer(yes)
        self.answers.append(yes)
        if not yes:
            return Asked(f"has piece {self._held[3]} come to rest now?", key=REST)
        held, self._held = self._held, None
        return self.inner.look(*held)

    def choose(self, color, shape) -> Outcome:
        return self.inner.choose(color, shape)

    @property
    def camera_status(self) -> str:
        return getattr(self.inner, "camera_status", "none")
