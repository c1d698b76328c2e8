"""The journal file: games and events committed in order, once each; damaged files named."""

import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.games.clever.autoplay import play
from firmware_host.games.clever.events import Event as CleverEvent
from firmware_host.games.clever.game import Game
from firmware_host.journal.store import (
    SCHEMA_VERSION,
    DuplicateEvent,
    Journal,
    JournalError,
    default_journal_path,
)
from tests.clever_support import sheet
from tests.journal_support import FakeWallClock

START = {"type": "game_started", "players": ["Ann", "Ben"]}


@pytest.fixture
def path(tmp_path):
    return tmp_path / "journal.sqlite3"


def test_events_come_back_in_order_with_the_clocks_times(path):
    with Journal(path, clock=FakeWallClock()) as journal:
        game = journal.start_game("dropit", START)
        journal.append(game, 2, {"type": "joker_spent", "turn": 1})
        journal.append(game, 3, {"type": "joker_spent", "turn": 2})
    with Journal(path, create=False) as journal:
        events = journal.events(game)
        (row,) = journal.games()
    assert [(e.seq, e.type, e.time) for e in events] == [
        (1, "game_started", "2026-11-21T12:00:00.000Z"),
        (2, "joker_spent", "2026-11-21T12:00:01.500Z"),
        (3, "joker_spent", "2026-11-21T12:00:03.000Z"),
    ]
    assert events[0].data == START
    assert (row.id, row.kind, row.started, row.finished, row.events) == (
        game,
        "dropit",
        "2026-11-21T12:00:00.000Z",
        None,
        3,
    )


def test_durability_settings_are_wal_and_full_sync(path):
    Journal(path).close()
    with Journal(path, create=False) as journal:
        mode = journal._db.execute("PRAGMA journal_mode").fetchone()[0]
        sync = journal._db.execute("PRAGMA synchronous").fetchone()[0]
        version = journal._db.execute("PRAGMA user_version").fetchone()[0]
    assert (mode, sync, version) == ("wal", 2, SCHEMA_VERSION)


def test_a_sequence_number_is_written_once(path):
    with Journal(path) as journal:
        game = journal.start_game("dropit", START)
        journal.append(game, 2, {"type": "a"})
        with pytest.raises(DuplicateEvent, match="game 1, event 2: already journaled"):
            journal.append(game, 2, {"type": "b"})
        with pytest.raises(DuplicateEvent, match="event 1"):
            journal.append(game, 1, {"type": "b"})
        with pytest.raises(JournalError, match="out of sequence: the next event is 3"):
            journal.append(game, 5, {"type": "b"})
        assert [e.type for e in journal.events(game)] == ["game_started", "a"]


def test_events_appended_together_are_committed_together(path):
    with Journal(path) as journal:
        game = journal.start_game("dropit", START)
        journal.append(game, 2, {"type": "a"}, {"type": "b"})
        with pytest.raises(ValueError, match="Out of range float"):
            journal.append(game, 4, {"type": "c"}, {"type": "d", "x": float("nan")})
        with pytest.raises(DuplicateEvent, match="event 3: already journaled"):
            journal.append(game, 3, {"type": "c"}, {"type": "d"})
        assert [(e.seq, e.type) for e in journal.events(game)] == [
            (1, "game_started"),
            (2, "a"),
            (3, "b"),
        ]
        with pytest.raises(ValueError, match="no event to journal"):
            journal.append(game, 4)


def test_the_database_itself_refuses_a_second_row_with_the_same_number(path):
    with Journal(path) as journal:
        game = journal.start_game("dropit", START)
    db = sqlite3.connect(path)
    with pytest.raises(sqlite3.IntegrityError):
        db.execute(
            "INSERT INTO events (game_id, seq, time, type, data) VALUES (?, 1, 't', 'x', '{}')",
            (game,),
        )
    db.close()


def test_newest_game_first_and_the_unfinished_one_found(path):
    with Journal(path) as journal:
        first = journal.start_game("dropit", START)
        second = journal.start_game("clever", START)
        third = journal.start_game("dropit", START)
        journal.append(third, 2, {"type": "x"}, finish=True)
        assert [g.id for g in journal.games()] == [third, second, first]
        assert [g.id for g in journal.games("dropit")] == [third, first]
        assert journal.unfinished("dropit").id == first
        journal.finish(first)
        assert journal.unfinished("dropit") is None
        with pytest.raises(JournalError, match="the game is finished"):
            journal.append(third, 3, {"type": "x"})


def test_a_dice_game_fits_the_same_journal(path):
    events = play(sheet(), ("Ann", "Ben"), seed=5)
    with Journal(path) as journal:
        game = journal.start_game("clever", events[0].to_json())
        for seq, event in enumerate(events[1:], start=2):
            journal.append(game, seq, event.to_json(), finish=seq == len(events))
        back = [CleverEvent.from_json(e.data) for e in journal.events(game)]
        assert journal.game(game).finished is not None
    assert back == events
    assert Game.replay(sheet(), back).scores() == Game.replay(sheet(), events).scores()


def test_missing_journal_is_not_created_when_only_reading(path):
    with pytest.raises(JournalError, match="no journal here"):
        Journal(path, create=False)
    assert not path.exists()


def test_a_journal_that_cannot_be_created_is_named(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with pytest.raises(JournalError, match=r"a-file/journal\.sqlite3: cannot create its folder"):
        Journal(blocker / "journal.sqlite3")


def test_a_file_that_is_not_a_database_is_named_and_left_alone(path):
    garbage = b"this is not an SQLite database at all" * 100
    path.write_bytes(garbage)
    with pytest.raises(JournalError) as error:
        Journal(path)
    assert str(path) in str(error.value) and "damaged or unreadable" in str(error.value)
    assert path.read_bytes() == garbage


def test_another_programs_database_is_refused_untouched(path):
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE recipes (name TEXT)")
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(JournalError, match=r"another program.*tables: recipes"):
        Journal(path)
    assert path.read_bytes() == before


def test_a_newer_journal_is_refused_with_a_clear_error(path):
    Journal(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(JournalError, match=r"newer tabletop.*upgrade tabletop"):
        Journal(path, create=False)


def test_a_malformed_event_is_named_and_kept(path):
    with Journal(path) as journal:
        game = journal.start_game("dropit", START)
        journal.append(game, 2, {"type": "x"})
    db = sqlite3.connect(path)
    db.execute("UPDATE events SET data = '{broken' WHERE seq = 2")
    db.commit()
    db.close()
    with (
        Journal(path, create=False) as journal,
        pytest.raises(JournalError, match=r"journal\.sqlite3: game 1, event 2: malformed"),
    ):
        journal.events(game)
    db = sqlite3.connect(path)
    assert db.execute("SELECT data FROM events WHERE seq = 2").fetchone() == ("{broken",)
    db.close()


def test_a_missing_event_is_named(path):
    with Journal(path) as journal:
        game = journal.start_game("dropit", START)
        journal.append(game, 2, {"type": "x"})
        journal.append(game, 3, {"type": "x"})
    db = sqlite3.connect(path)
    db.execute("DELETE FROM events WHERE seq = 2")
    db.commit()
    db.close()
    with Journal(path) as journal, pytest.raises(JournalError, match="event 3: event 2 is missing"):
        journal.events(game)


def test_default_path_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("TABLETOP_JOURNAL", str(tmp_path / "j.db"))
    assert default_journal_path() == tmp_path / "j.db"
    monkeypatch.delenv("TABLETOP_JOURNAL")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_journal_path() == tmp_path / "data" / "tabletop" / "journal.sqlite3"


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-1, 8), max_size=25))
def test_only_the_next_number_is_ever_written(tmp_path_factory, attempts):
    path = tmp_path_factory.mktemp("journal") / "journal.sqlite3"
    with Journal(path) as journal:
        game = journal.start_game("dropit", START)
        expected = 2
        for seq in attempts:
            event = {"type": "attempt", "seq": seq}
            if seq == expected:
                journal.append(game, seq, event)
                expected += 1
            else:
                with pytest.raises(JournalError) as error:
                    journal.append(game, seq, event)
                assert isinstance(error.value, DuplicateEvent) == (1 <= seq < expected)
        stored = journal.events(game)
    assert [e.seq for e in stored] == list(range(1, expected))
    assert all(e.data["seq"] == e.seq for e in stored[1:])
