"""Games of Drop It in the journal: record them event by event, read them back, resume one.

:class:`DropItRecord` is a game being played: :meth:`DropItRecord.record` checks an event
against the rules (:class:`~firmware_host.games.dropit.state.GameState`), commits it to
the journal, and only then returns the new state for the outputs to show. After a crash
or a power cut, :func:`resume` finds the unfinished game and rebuilds its state by
replaying its journaled events; recording carries on with the next sequence number.

The shape dropped in turn ``n`` must have the id ``t<n>``, as in the game file
(:func:`~firmware_host.games.dropit.gamefile.piece_id`), so a journaled game exports to a
game file without renaming anything.

A game is marked finished once every shape has been dropped and no joker can still be
spent on the last drop; when one can, the caller ends the game with
:meth:`DropItRecord.finish` once the player has declined it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from firmware_host.errors import IllegalMove, InputError
from firmware_host.games.dropit.events import Event, GameStarted, ShapeDropped, event_from_json
from firmware_host.games.dropit.gamefile import piece_id
from firmware_host.games.dropit.state import GameState, replay
from firmware_host.games.dropit.table import DropItTable
from firmware_host.journal.store import Journal, JournalError, StoredEvent

KIND = DropItTable.KIND
"""The journal's name for games of Drop It."""


@dataclass
class DropItRecord:
    """A game of Drop It being journaled: its id, its state, and events journaled so far."""

    journal: Journal
    game_id: int
    state: GameState
    events: int

    @classmethod
    def start(cls, journal: Journal, started: GameStarted) -> DropItRecord:
        """Journal a new game; IllegalMove (nothing written) if the set-up breaks the rules."""
        state = GameState.start(started)
        game_id = journal.start_game(KIND, started.to_json())
        return cls(journal, game_id, state, 1)

    def record(self, *events: Event) -> GameState:
        """Check ``events``, commit them together (a power cut keeps all or none), and
        return the state after them.

        Raises IllegalMove (nothing written, state unchanged) when an event breaks a rule,
        and :class:`~firmware_host.journal.store.DuplicateEvent` if its sequence number was
        already journaled.
        """
        state = self.state
        for event in events:
            if isinstance(event, ShapeDropped) and event.piece.id != piece_id(event.turn):
                raise IllegalMove(
                    f"turn {event.turn}: the dropped shape's id must be "
                    f"{piece_id(event.turn)!r} (as in the game file), not {event.piece.id!r}"
                )
            state = state.apply(event)
        self.journal.append(
            self.game_id,
            self.events + 1,
            *(event.to_json() for event in events),
            finish=_settled(state),
        )
        self.events += len(events)
        self.state = state
        return state

    def finish(self) -> None:
        """Mark the game finished (say, when the last drop's joker offer was declined)."""
        self.journal.finish(self.game_id)


def _settled(state: GameState) -> bool:
    """True when the game is over and no joker can still be spent on its last drop."""
    if not state.over:
        return False
    last = state.drops[-1]
    joker_possible = (
        state.started.variants.jokers
        and not last.ruling.valid
        and not last.joker
        and state.standing(last.competitor).jokers_left > 0
    )
    return not joker_possible


def record_game(journal: Journal, events: Iterable[Event]) -> int:
    """Journal a whole game from its events (the first a :class:`GameStarted`); its id."""
    stream = iter(events)
    first = next(stream, None)
    if not isinstance(first, GameStarted):
        raise IllegalMove(f"a game of Drop It must begin with its set-up, not {first!r}")
    game = DropItRecord.start(journal, first)
    for event in stream:
        game.record(event)
    return game.game_id


def load_events(journal: Journal, game_id: int) -> list[Event]:
    """The events of game ``game_id``, read back; JournalError naming a malformed one."""
    return [event for _, event in _read(journal, game_id)]


def load_state(journal: Journal, game_id: int) -> GameState:
    """The state of game ``game_id`` rebuilt from its events (replayed through the rules).

    An event that cannot be read or breaks the rules is a JournalError naming it.
    """
    read = _read(journal, game_id)
    at: list[StoredEvent] = []

    def tracked() -> Iterator[Event]:
        for stored, event in read:
            at.append(stored)
            yield event

    try:
        return replay(tracked())
    except IllegalMove as exc:
        where = at[-1].where if at else f"game {game_id}"
        raise JournalError(str(journal.path), where, f"breaks the rules: {exc}") from None


def _read(journal: Journal, game_id: int) -> list[tuple[StoredEvent, Event]]:
    game = journal.game(game_id)
    if game.kind != KIND:
        raise JournalError(
            str(journal.path), f"game {game.id}", f"a game of {game.kind}, not of Drop It"
        )
    read = []
    for stored in journal.events(game_id):
        try:
            read.append((stored, event_from_json(stored.data)))
        except InputError as exc:
            raise JournalError(
                str(journal.path), stored.where, f"malformed event: {exc.where}: {exc.problem}"
            ) from None
    return read


def resume(journal: Journal) -> DropItRecord | None:
    """The unfinished game of Drop It (the newest), ready to record on; None if there is none."""
    game = journal.unfinished(KIND)
    if game is None:
        return None
    return DropItRecord(journal, game.id, load_state(journal, game.id), game.events)
