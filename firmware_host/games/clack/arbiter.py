"""The single serialization point of a Clack! race: claims are decided in arrival order.

Phones and the table submit events from many threads at once; :class:`Arbiter` takes one at
a time under a lock, so each disc goes to exactly one player and every device can read the
same ordered log of accepted events. A refused submission (malformed, late, a disc already
taken) gets a :class:`Decision` with the reason and changes nothing.

>>> from firmware_host.games.clack.discs import load_disc_set
>>> table = Arbiter(load_disc_set(), GameStarted(players=("ana", "ben")))
>>> table.submit({"type": "dice_rolled", "round": 1, "shape": "star", "color": "red"}).message
'round 1: red star'
>>> table.submit({"type": "disc_claimed", "round": 1, "player": "ana", "disc": 10}).message
'ana takes disc 10'
>>> table.submit({"type": "disc_claimed", "round": 1, "player": "ben", "disc": 10}).message
"ben's claim of disc 10 in round 1 is refused: disc 10 is already in ana's stack"
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from firmware_host.errors import IllegalMove, InputError
from firmware_host.games.clack.discs import DiscSet
from firmware_host.games.clack.engine import ClackGame, replay
from firmware_host.games.clack.events import (
    ClackEvent,
    DiceRolled,
    DiscClaimed,
    GameStarted,
    read_event,
)


@dataclass(frozen=True)
class Decision:
    """The verdict on one submission: accepted (with its place in the log) or refused."""

    accepted: bool
    message: str
    """What happened (``ana takes disc 10``), or why the submission was refused."""
    seq: int | None = None
    """The accepted event's index in :attr:`Arbiter.events` (None when refused)."""


class Arbiter:
    """Owns one game and its event log; :meth:`submit` is safe to call from any thread."""

    def __init__(self, discs: DiscSet, started: GameStarted) -> None:
        self._lock = threading.Lock()
        self._game = ClackGame.start(discs, started)
        self._events: list[ClackEvent] = [started]

    @classmethod
    def resume(cls, discs: DiscSet, events: Sequence[ClackEvent]) -> Arbiter:
        """An arbiter that carries on a game from its journal (its accepted events, in order)."""
        game = replay(discs, events)
        started = events[0]
        assert isinstance(started, GameStarted)  # replay refuses a log that begins otherwise
        arbiter = cls(discs, started)
        arbiter._game = game
        arbiter._events = list(events)
        return arbiter

    @property
    def game(self) -> ClackGame:
        """The game as of the latest accepted event (an immutable snapshot)."""
        with self._lock:
            return self._game

    def events(self, since: int = 0) -> tuple[ClackEvent, ...]:
        """The accepted events from index ``since`` on, in the order they were decided."""
        with self._lock:
            return tuple(self._events[since:])

    def submit(self, submission: ClackEvent | dict[str, Any]) -> Decision:
        """Decide one roll or claim (an event, or its JSON form as a device sent it)."""
        try:
            event = read_event(submission) if isinstance(submission, dict) else submission
        except InputError as exc:
            return Decision(accepted=False, message=f"malformed submission: {exc}")
        if not isinstance(event, DiceRolled | DiscClaimed):
            return Decision(
                accepted=False, message=f"refused: the game has already started ({event})"
            )
        with self._lock:
            try:
                if isinstance(event, DiscClaimed):
                    message = self._game.judge_claim(event).describe()
                else:
                    message = f"round {event.round}: {event.color} {event.shape}"
                self._game = self._game.apply(event)
            except IllegalMove as exc:
                return Decision(accepted=False, message=str(exc))
            self._events.append(event)
            return Decision(accepted=True, message=message, seq=len(self._events) - 1)
