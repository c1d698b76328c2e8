"""The service process killed with SIGKILL (a power cut) at several points of a game,
restarted each time: the journal, the LED tracks and the totals come out exactly as in an
uninterrupted run of the same seed — no drop lost, none counted twice."""

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from firmware_host.journal.store import Journal, JournalError

SEED = "3"
DEADLINE_S = 60.0
TRACKS = re.compile(r'event=tracks events=(\d+) shown="(.*)"$')


def command(journal: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "firmware_host",
        "run",
        "--sim",
        "--autoplay",
        "--speed",
        "500",
        "--journal",
        str(journal),
        "--http",
        "off",
        "--seed",
        SEED,
    ]


def events(journal: Path) -> list[tuple[int, str, dict]]:
    """Every journaled event; none while the service is still creating the file."""
    if not journal.exists():
        return []
    try:
        with Journal(journal, create=False) as reader:
            return [
                (e.seq, e.type, e.data) for game in reader.games() for e in reader.events(game.id)
            ]
    except JournalError:
        return []


def tracks_lines(stderr: str) -> dict[int, str]:
    shown = {}
    for line in stderr.splitlines():
        found = TRACKS.search(line)
        if found:
            shown[int(found.group(1))] = found.group(2)
    return shown


def finish(journal: Path) -> str:
    done = subprocess.run(command(journal), capture_output=True, text=True, timeout=DEADLINE_S)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stderr


def kill_after(journal: Path, count: int) -> int:
    process = subprocess.Popen(
        command(journal), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
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


def games_json(journal: Path) -> list[dict]:
    listed = subprocess.run(
        [sys.executable, "-m", "firmware_host", "games", "--journal", str(journal), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(listed.stdout)


def test_killed_at_several_points_the_game_ends_as_if_never_interrupted(tmp_path):
    reference = tmp_path / "reference.sqlite3"
    reference_tracks = tracks_lines(finish(reference))
    expected = events(reference)
    assert len(expected) > 37

    cut = tmp_path / "cut.sqlite3"
    journaled = [kill_after(cut, count) for count in (2, 25, 60)]
    assert journaled == sorted(journaled) and journaled[-1] < len(expected)
    for stored in journaled:
        assert events(cut)[:stored] == expected[:stored]
    restarted_tracks = tracks_lines(finish(cut))

    assert events(cut) == expected
    [reference_game] = games_json(reference)
    [cut_game] = games_json(cut)
    assert cut_game["finished"] and cut_game["turns"] == 36
    assert cut_game["totals"] == reference_game["totals"]
    resumed_at = min(restarted_tracks)
    assert resumed_at >= journaled[-1]
    for at, lights in restarted_tracks.items():
        assert lights == reference_tracks[at]
    assert restarted_tracks[max(restarted_tracks)] == reference_tracks[max(reference_tracks)]
    assert os.path.getsize(cut) > 0
