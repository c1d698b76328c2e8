"""What the journal costs: committing one event (WAL, synchronous=FULL), resuming a whole
game, and re-refereeing it for ``tabletop replay`` (on this machine's disk, in /tmp)."""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from firmware_host.config.board import load_board
from firmware_host.games.dropit.gamefile import load_game
from firmware_host.games.dropit.referee import referee_game
from firmware_host.journal.dropit import DropItRecord, resume
from firmware_host.journal.review import rereferee
from firmware_host.journal.store import Journal

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "examples/games/two_teams_jokers_shape_edges.yaml"


def _median_ms(times: list[float]) -> float:
    return statistics.median(times) * 1e3


def main() -> None:
    """Print the median commit time per event and the times to resume and replay a game."""
    board = load_board()
    events = referee_game(load_game(GAME), board, str(GAME)).events
    commits: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "journal.sqlite3"
        with Journal(path) as journal:
            for _ in range(5):
                game = DropItRecord.start(journal, events[0])
                for event in events[1:]:
                    start = time.perf_counter()
                    game.record(event)
                    commits.append(time.perf_counter() - start)
            game_id = game.game_id
            unfinished = DropItRecord.start(journal, events[0])
            for event in events[1:-4]:
                unfinished.record(event)
        resumes, replays = [], []
        for _ in range(20):
            start = time.perf_counter()
            with Journal(path, create=False) as journal:
                resumed = resume(journal)
                assert resumed is not None and resumed.game_id == unfinished.game_id
            resumes.append(time.perf_counter() - start)
            start = time.perf_counter()
            with Journal(path, create=False) as journal:
                rereferee(journal, game_id, board)
            replays.append(time.perf_counter() - start)
    print(
        f"record one event (rules check + commit, WAL + synchronous=FULL): median "
        f"{_median_ms(commits):.2f} ms, p95 {sorted(commits)[int(0.95 * len(commits))] * 1e3:.2f}"
        f" ms ({len(commits)} events)"
    )
    print(
        f"resume: open the journal, rebuild a {len(events) - 4}-event game: "
        f"median {_median_ms(resumes):.1f} ms"
    )
    print(
        f"tabletop replay's work (read + re-referee 36 turns): median {_median_ms(replays):.1f} ms"
    )
