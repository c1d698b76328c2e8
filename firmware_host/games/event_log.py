"""Folding a game's event log into its state: the one way every game is replayed.

A game's state is a pure function of its events: the first starts the game, each later
one is applied to the state before it. The journal, resuming after a power cut and the
offline referee all go through :func:`replay`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol, Self, TypeVar

from firmware_host.errors import IllegalMove


class GameState(Protocol):
    """A game state that takes events: ``apply`` returns the next state or raises
    :class:`IllegalMove` and leaves the state as it was."""

    def apply(self, event: Any) -> Self:
        """The state after ``event``."""
        ...


S = TypeVar("S", bound=GameState)
Start = TypeVar("Start")


def replay(
    start_type: type[Start], start: Callable[[Start], S], events: Iterable[Any], game: str
) -> S:
    """The state of ``game`` after ``events``; the first must be a ``start_type`` event,
    which ``start`` turns into the opening state. Raises :class:`IllegalMove` when the log
    does not begin with a start, or an event breaks the rules.
    """
    stream = iter(events)
    first = next(stream, None)
    if not isinstance(first, start_type):
        raise IllegalMove(f"a game of {game} must begin with its set-up, not {first!r}")
    state = start(first)
    for event in stream:
        state = state.apply(event)
    return state
