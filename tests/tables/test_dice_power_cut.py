"""A dice game's service killed with SIGKILL (a power cut) at several points and restarted
each time: the journal comes out exactly as an uninterrupted run of the same seed's -- no
throw or move lost, none recorded twice -- for every dice game."""

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware_host.journal.store import Journal, JournalError

DEADLINE_S = 60.0


def command(game: str, journal: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "firmware_host",
        "run",
        "--game",
        game,
        "--sim",
        "--autoplay",
        "--speed",
        "1000",
        "--http",
        "off",
        "--seed",
        "3",
        "--players",
        "Ann",
        "Ben",
        "Cleo",
        "--journal",
        str(journal),
    ]


def events(journal: Path) -> list[tuple[int, int, dict]]:
    """Every journaled event; none while the service is still creating the file."""
    if not journal.exists():
        return []
    try:
        with Journal(journal, create=False) as reader:
            return [(g.id, e.seq, e.data) for g in reader.games() for e in reader.events(g.id)]
    except JournalError:
        return []


def finish(game: str, journal: Path) -> None:
    done = subprocess.run(
        command(game, journal), capture_output=True, text=True, timeout=DEADLINE_S
    )
    assert done.returncode == 0, done.stderr[-2000:]


def kill_after(game: str, journal: Path, count: int) -> int:
    process = subprocess.Popen(
        command(game, journal), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + DEADLINE_S
    try:
        while len(events(journal)) < count:
            assert process.poll() is None, "the service ended before the power cut"
            assert time.monotonic() < deadline, f"{count} events never journaled"
            time.sleep(0.002)
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()
    return len(events(journal))


@pytest.mark.parametrize("game", ["clack", "clever", "gotta2"])
def test_killed_at_several_points_the_game_ends_as_if_never_interrupted(game, tmp_path):
    reference = tmp_path / "reference.sqlite3"
    finish(game, reference)
    expected = events(reference)
    assert len(expected) > 12

    cut = tmp_path / "cut.sqlite3"
    points = [len(expected) // 4, len(expected) // 2, 3 * len(expected) // 4]
    journaled = [kill_after(game, cut, count) for count in points]
    assert journaled == sorted(journaled) and journaled[-1] < len(expected)
    for stored in journaled:
        assert events(cut)[:stored] == expected[:stored]
    finish(game, cut)
    assert events(cut) == expected
    with Journal(cut, create=False) as reader:
        (row,) = reader.games()
        assert row.finished is not None
