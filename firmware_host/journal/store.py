"""The journal file: games of any kind and their events, in one SQLite database.

Each event is a JSON object (the ``to_json()`` form of a game's event, ``"type"`` naming
it) stored with its game, its sequence number (1, 2, 3 ... per game) and the time it was
journaled. :meth:`Journal.append` returns only once the event is committed to disk, so a
caller that shows an event only after appending it never shows anything a power cut can
take back. A sequence number is written once: appending it again (say, after a crash,
by code that did not know the first write made it) raises :class:`DuplicateEvent`
instead of counting the event twice.

Nothing here rewrites or deletes a row: a damaged file or a malformed event is reported
(:class:`JournalError`, naming the file and the game and event) and left as it is.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "journal.sqlite3"
>>> with Journal(path) as journal:
...     game = journal.start_game("dropit", {"type": "game_started"})
...     journal.append(game, 2, {"type": "joker_spent", "turn": 1})
...     [event.seq for event in journal.events(game)]
[1, 2]
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from firmware_host.errors import InputError

SCHEMA_VERSION = 1
"""The journal format this code writes (``PRAGMA user_version``); it reads no newer one."""

APPLICATION_ID = 0x54424C54
"""``PRAGMA application_id`` of a tabletop journal ("TBLT"): tells it from other SQLite files."""

JOURNAL_ENV = "TABLETOP_JOURNAL"
"""Environment variable naming the journal file (the systemd unit sets it)."""

Clock = Callable[[], datetime]
"""A wall clock: returns the current time as a timezone-aware :class:`datetime`."""

_SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    started TEXT NOT NULL,
    finished TEXT
);
CREATE TABLE events (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seq INTEGER NOT NULL CHECK (seq >= 1),
    time TEXT NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
"""


def utc_now() -> datetime:
    """The system's current time, in UTC."""
    return datetime.now(UTC)


def format_time(moment: datetime) -> str:
    """ISO 8601 in UTC with milliseconds, e.g. ``2026-11-21T12:05:09.250Z``.

    >>> from datetime import timedelta, timezone
    >>> format_time(datetime(2026, 11, 21, 13, 5, 9, 250000, timezone(timedelta(hours=1))))
    '2026-11-21T12:05:09.250Z'
    """
    if moment.tzinfo is None:
        raise ValueError(f"the journal's clock must give timezone-aware times, got {moment}")
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def default_journal_path() -> Path:
    """``$TABLETOP_JOURNAL``, else ``$XDG_DATA_HOME/tabletop/journal.sqlite3`` (XDG_DATA_HOME
    defaulting to ``~/.local/share``)."""
    named = os.environ.get(JOURNAL_ENV)
    if named:
        return Path(named)
    data_home = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(data_home) / "tabletop" / "journal.sqlite3"


class JournalError(InputError):
    """A journal that cannot be used as asked: names the file, the game and event, the problem."""


class DuplicateEvent(JournalError):
    """An event appended with a sequence number the game already has (it is not written again)."""


@dataclass(frozen=True, slots=True)
class GameRow:
    """One game in the journal: id, kind (``"dropit"``...), start time, finish time or None."""

    id: int
    kind: str
    started: str
    finished: str | None
    events: int


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One journaled event: its game, sequence number, time, type and JSON form."""

    game_id: int
    seq: int
    time: str
    type: str
    data: dict[str, Any]

    @property
    def where(self) -> str:
        """How errors name it: ``game 3, event 7``."""
        return f"game {self.game_id}, event {self.seq}"


class Journal:
    """An open journal file (created with its schema if ``create`` and it does not exist).

    ``clock`` gives the times written with games and events (default: the system clock in
    UTC); tests inject a fake one. Raises :class:`JournalError` when the file is missing
    (``create=False``), is not an SQLite database, belongs to another program, or was
    written by a newer version of tabletop.
    """

    def __init__(self, path: Path | str, *, create: bool = True, clock: Clock = utc_now) -> None:
        self.path = Path(path)
        self._clock = clock
        if not create and not self.path.is_file():
            raise JournalError(str(self.path), "", "no journal here (file not found)")
        if create:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise JournalError(
                    str(self.path), "", f"cannot create its folder ({exc})"
                ) from None
        uri = self.path.resolve().as_uri() + ("?mode=rwc" if create else "?mode=rw")
        try:
            # One thread at a time uses it (the service's loop); which one may differ: a
            # web test client runs the app in a thread of its own.
            self._db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise JournalError(str(self.path), "", f"cannot open the journal ({exc})") from None
        try:
            with self._guard(""):
                self._prepare(create)
        except BaseException:
            self._db.close()
            raise

    def _prepare(self, create: bool) -> None:
        db = self._db
        db.execute("PRAGMA busy_timeout = 5000")
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master")]
        if app_id == 0 and version == 0 and not tables:
            if not create:
                raise JournalError(str(self.path), "", "an empty database, not a tabletop journal")
            self._set_durability()
            db.execute("BEGIN IMMEDIATE")
            for statement in _SCHEMA.split(";"):
                db.execute(statement)
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.execute("COMMIT")
            return
        if app_id != APPLICATION_ID:
            raise JournalError(
                str(self.path),
                "",
                "an SQLite database of another program, not a tabletop journal "
                f"(tables: {', '.join(tables) or 'none'})",
            )
        if version > SCHEMA_VERSION:
            raise JournalError(
                str(self.path),
                "",
                f"written by a newer tabletop (journal version {version}; this one reads up to "
                f"{SCHEMA_VERSION}): upgrade tabletop to read it",
            )
        if version < 1:
            raise JournalError(str(self.path), "", f"unknown journal version {version}")
        self._set_durability()

    def _set_durability(self) -> None:
        # docs/journal.md: WAL + synchronous=FULL: a COMMIT returns only once the event is
        # in the write-ahead log on disk; readers (tabletop games) never block the writer.
        self._db.execute("PRAGMA journal_mode = WAL")
        self._db.execute("PRAGMA synchronous = FULL")
        self._db.execute("PRAGMA foreign_keys = ON")

    @contextmanager
    def _guard(self, where: str) -> Iterator[None]:
        """Turn SQLite's errors into one :class:`JournalError` naming the file and ``where``."""
        try:
            yield
        except sqlite3.DatabaseError as exc:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise JournalError(
                str(self.path), where, f"the journal file is damaged or unreadable ({exc})"
            ) from None

    def close(self) -> None:
        """Close the file (everything appended is already committed)."""
        self._db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def start_game(self, kind: str, first: Mapping[str, Any]) -> int:
        """Journal a new game of ``kind`` with its first event (sequence 1); returns its id."""
        now = format_time(self._clock())
        data, type_ = _encode(first)
        with self._guard("new game"), self._transaction():
            cursor = self._db.execute(
                "INSERT INTO games (kind, started) VALUES (?, ?)", (kind, now)
            )
            game_id = cursor.lastrowid
            assert game_id is not None
            self._db.execute(
                "INSERT INTO events (game_id, seq, time, type, data) VALUES (?, 1, ?, ?, ?)",
                (game_id, now, type_, data),
            )
        return game_id

    def append(
        self, game_id: int, seq: int, *events: Mapping[str, Any], finish: bool = False
    ) -> None:
        """Journal ``events`` as numbers ``seq``, ``seq + 1``, ... of game ``game_id`` and
        commit them together: a power cut keeps all of them or none.

        ``seq`` must be the game's next number: one already written raises
        :class:`DuplicateEvent` (nothing is written), a gap raises :class:`JournalError`.
        ``finish`` marks the game finished in the same transaction.
        """
        where = f"game {game_id}, event {seq}"
        if not events:
            raise ValueError(f"{where}: no event to journal")
        now = format_time(self._clock())
        encoded = [_encode(event) for event in events]
        rows = [(game_id, seq + i, now, type_, data) for i, (data, type_) in enumerate(encoded)]
        with self._guard(where), self._transaction():
            game = self._game_row(game_id)
            if game.finished is not None:
                raise JournalError(str(self.path), where, "the game is finished; nothing follows")
            if seq < 1:
                raise JournalError(str(self.path), where, "sequence numbers start at 1")
            if seq <= game.events:
                raise DuplicateEvent(
                    str(self.path),
                    where,
                    f"already journaled (the game has events 1..{game.events}); "
                    "an event is recorded once",
                )
            if seq != game.events + 1:
                raise JournalError(
                    str(self.path), where, f"out of sequence: the next event is {game.events + 1}"
                )
            self._db.executemany(
                "INSERT INTO events (game_id, seq, time, type, data) VALUES (?, ?, ?, ?, ?)",
                rows,
            )
            if finish:
                self._db.execute("UPDATE games SET finished = ? WHERE id = ?", (now, game_id))

    def finish(self, game_id: int) -> None:
        """Mark game ``game_id`` finished (idempotent: a finished game keeps its finish time)."""
        now = format_time(self._clock())
        with self._guard(f"game {game_id}"), self._transaction():
            self._game_row(game_id)
            self._db.execute(
                "UPDATE games SET finished = ? WHERE id = ? AND finished IS NULL", (now, game_id)
            )

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def games(self, kind: str | None = None) -> list[GameRow]:
        """Every game (of ``kind``, if given), newest first (by id: the order they began)."""
        with self._guard("games"):
            rows = self._db.execute(
                "SELECT g.id, g.kind, g.started, g.finished, "
                "(SELECT COUNT(*) FROM events e WHERE e.game_id = g.id) "
                "FROM games g WHERE ? IS NULL OR g.kind = ? ORDER BY g.id DESC",
                (kind, kind),
            ).fetchall()
        return [_game(row) for row in rows]

    def game(self, game_id: int) -> GameRow:
        """The game with id ``game_id``; :class:`JournalError` if the journal has none."""
        with self._guard(f"game {game_id}"):
            return self._game_row(game_id)

    def _game_row(self, game_id: int) -> GameRow:
        row = self._db.execute(
            "SELECT g.id, g.kind, g.started, g.finished, "
            "(SELECT COUNT(*) FROM events e WHERE e.game_id = g.id) "
            "FROM games g WHERE g.id = ?",
            (game_id,),
        ).fetchone()
        if row is None:
            raise JournalError(str(self.path), f"game {game_id}", "no such game in the journal")
        return _game(row)

    def unfinished(self, kind: str) -> GameRow | None:
        """The newest unfinished game of ``kind`` (the one to resume), or None."""
        with self._guard("games"):
            row = self._db.execute(
                "SELECT g.id, g.kind, g.started, g.finished, "
                "(SELECT COUNT(*) FROM events e WHERE e.game_id = g.id) "
                "FROM games g WHERE g.kind = ? AND g.finished IS NULL ORDER BY g.id DESC",
                (kind,),
            ).fetchone()
        return None if row is None else _game(row)

    def events(self, game_id: int) -> list[StoredEvent]:
        """Every event of game ``game_id`` in order; :class:`JournalError` naming the event if
        one is not a JSON object with a ``type``, or the numbers have a gap."""
        with self._guard(f"game {game_id}"):
            self._game_row(game_id)
            rows = self._db.execute(
                "SELECT seq, time, type, data FROM events WHERE game_id = ? ORDER BY seq",
                (game_id,),
            ).fetchall()
        events = []
        for expected, (seq, time, type_, text) in enumerate(rows, start=1):
            where = f"game {game_id}, event {seq}"
            if seq != expected:
                raise JournalError(str(self.path), where, f"event {expected} is missing")
            try:
                data = json.loads(text)
            except (TypeError, ValueError) as exc:
                raise JournalError(str(self.path), where, f"malformed event ({exc})") from None
            if not isinstance(data, dict) or data.get("type") != type_:
                raise JournalError(
                    str(self.path), where, f"malformed event (not a JSON object of type {type_!r})"
                )
            events.append(StoredEvent(game_id, seq, time, type_, data))
        return events


def _game(row: tuple[Any, ...]) -> GameRow:
    return GameRow(id=row[0], kind=row[1], started=row[2], finished=row[3], events=row[4])


def _encode(event: Mapping[str, Any]) -> tuple[str, str]:
    """The stored text of ``event`` and its type; ValueError if it has no string ``type``."""
    type_ = event.get("type")
    if not isinstance(type_, str) or not type_:
        raise ValueError(f"an event needs a string 'type', got {type_!r}")
    return json.dumps(event, separators=(",", ":"), allow_nan=False), type_
