"""Games of Drop It in the journal: recorded event by event, rebuilt after a crash, resumed."""

import signal
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from firmware_host.errors import IllegalMove
from firmware_host.games.dropit.events import Piece, PieceMove, PiecesMoved, ShapeDropped
from firmware_host.games.dropit.state import replay
from firmware_host.journal.dropit import DropItRecord, load_events, load_state, resume
from firmware_host.journal.store import DuplicateEvent, Journal, JournalError
from tests.dropit_support import VALID, four_players, random_game
from tests.journal_support import FakeWallClock, journal_example, refereed

ROOT = Path(__file__).resolve().parents[2]

PACED_CHILD = """
import sys
from firmware_host.journal.dropit import DropItRecord
from firmware_host.journal.store import Journal
from tests.dropit_support import random_game

events = random_game(int(sys.argv[2]))
game = DropItRecord.start(Journal(sys.argv[1]), events[0])
print(game.events, flush=True)
for event in events[1:]:
    sys.stdin.readline()
    game.record(event)
    print(game.events, flush=True)
"""

UNPACED_CHILD = """
import sys
from firmware_host.journal.dropit import record_game
from firmware_host.journal.store import Journal
from tests.dropit_support import random_game

journal = Journal(sys.argv[1])
for seed in range(int(sys.argv[2]), 10**6):
    record_game(journal, random_game(seed))
    print(seed, flush=True)
"""


def child(script, *args):
    return subprocess.Popen(
        [sys.executable, "-c", script, *map(str, args)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )


def kill(process):
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=10)
    assert process.returncode == -signal.SIGKILL


@pytest.mark.parametrize(("seed", "committed"), [(3, 1), (4, 2), (5, 17), (6, 30)])
def test_killed_after_n_committed_events_resumes_with_exactly_n(tmp_path, seed, committed):
    path = tmp_path / "journal.sqlite3"
    events = random_game(seed)
    process = child(PACED_CHILD, path, seed)
    for expected in range(1, committed + 1):
        assert process.stdout.readline() == f"{expected}\n"
        if expected < committed:
            process.stdin.write("go\n")
            process.stdin.flush()
    kill(process)

    with Journal(path, create=False) as journal:
        game = resume(journal)
        assert game is not None and game.events == committed
        assert load_events(journal, game.game_id) == events[:committed]
        assert game.state == replay(events[:committed])
        with pytest.raises(DuplicateEvent, match=f"event {committed}: already journaled"):
            journal.append(game.game_id, committed, events[committed - 1].to_json())
        for event in events[committed:]:
            game.record(event)
        assert game.events == len(events)
        assert load_state(journal, game.game_id) == replay(events)


def test_killed_at_any_moment_every_acknowledged_game_is_whole(tmp_path):
    path = tmp_path / "journal.sqlite3"
    process = child(UNPACED_CHILD, path, 100)
    acknowledged = [int(process.stdout.readline()) for _ in range(3)]
    kill(process)
    assert acknowledged == [100, 101, 102]
    with Journal(path, create=False) as journal:
        games = list(reversed(journal.games()))
        assert len(games) >= len(acknowledged)
        for seed, game in enumerate(games, start=100):
            whole = random_game(seed)
            if seed in acknowledged:
                assert load_events(journal, game.id) == whole
            else:
                assert load_events(journal, game.id) == whole[: game.events]
                assert load_state(journal, game.id) == replay(whole[: game.events])


def test_an_illegal_event_is_refused_before_it_is_written(tmp_path):
    with Journal(tmp_path / "j.db") as journal:
        game = DropItRecord.start(journal, four_players())
        wrong_player = ShapeDropped(1, "Ben", refereed_piece(), VALID)
        with pytest.raises(IllegalMove, match="it is Ann's turn"):
            game.record(wrong_player)
        with pytest.raises(IllegalMove, match="id must be 't1'"):
            game.record(ShapeDropped(1, "Ann", Piece("p9", *refereed_piece_parts()), VALID))
        assert game.events == 1 and len(journal.events(game.game_id)) == 1


def test_a_drop_and_the_pile_shifts_before_it_are_written_together_or_not_at_all(tmp_path):
    with Journal(tmp_path / "j.db") as journal:
        game = DropItRecord.start(journal, four_players())
        game.record(ShapeDropped(1, "Ann", refereed_piece(), VALID))
        state = game.state
        shifted = PiecesMoved((PieceMove("t1", replace(refereed_piece().pose, x=20.0)),))
        second = refereed("four_players_base").events[2]
        assert isinstance(second, ShapeDropped) and second.by == "Ben"
        with pytest.raises(IllegalMove, match="it is Ben's turn"):
            game.record(shifted, replace(second, by="Cleo"))
        assert game.state == state and len(journal.events(game.game_id)) == 2
        game.record(shifted, second)
        assert [e.type for e in journal.events(game.game_id)][2:] == [
            "pieces_moved",
            "shape_dropped",
        ]
        assert game.events == 4 and load_state(journal, game.game_id) == game.state


def refereed_piece_parts():
    piece = refereed_piece()
    return piece.color, piece.shape, piece.pose


def refereed_piece():
    first = refereed("four_players_base").events[1]
    assert isinstance(first, ShapeDropped)
    return first.piece


def test_a_game_is_finished_once_no_joker_can_follow_the_last_drop(tmp_path):
    report = refereed("two_teams_jokers_shape_edges")
    with Journal(tmp_path / "j.db", clock=FakeWallClock()) as journal:
        game = journal_example(journal, "two_teams_jokers_shape_edges")
        assert journal.game(game).finished is not None
        assert resume(journal) is None
        assert load_state(journal, game) == report.state


def test_the_last_drop_keeps_the_game_open_while_a_joker_may_be_spent(tmp_path):
    events = next(e for s in range(200) if needs_last_joker(e := random_game(s)))
    with Journal(tmp_path / "j.db") as journal:
        game = DropItRecord.start(journal, events[0])
        for event in events[1:]:
            game.record(event)
        assert game.state.over and journal.game(game.game_id).finished is None
        assert resume(journal).game_id == game.game_id
        game.finish()
        assert journal.game(game.game_id).finished is not None


def needs_last_joker(events):
    state = replay(events)
    if not state.over:
        return False
    last = state.drops[-1]
    return (
        state.started.variants.jokers
        and not last.ruling.valid
        and not last.joker
        and state.standing(last.competitor).jokers_left > 0
    )


def test_a_stored_event_that_breaks_the_rules_is_named(tmp_path):
    path = tmp_path / "j.db"
    with Journal(path) as journal:
        game = journal_example(journal, "four_players_base")
        twice = load_events(journal, game)[1].to_json()
        seq = journal.game(game).events + 1
        journal.append(game, seq, twice)
        with pytest.raises(JournalError, match=rf"game 1, event {seq}: breaks the rules: turn 1"):
            resume(journal)


def test_a_game_of_another_kind_is_not_read_as_drop_it(tmp_path):
    with Journal(tmp_path / "j.db") as journal:
        game = journal.start_game("clever", {"type": "game_started"})
        with pytest.raises(JournalError, match="game 1: a game of clever, not of Drop It"):
            load_state(journal, game)
