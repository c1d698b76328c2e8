"""The service process killed with SIGKILL (a power cut) at several points of a game,
restarted each time: the journal, the LED tracks and the totals come out exactly as in an
uninterrupted run of the same seed — no drop lost, none counted twice."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from tests.power_cut import finish, journaled, kill_after, table_without_camera

SEED = "3"
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
        "--table",
        str(table_without_camera(journal.parent)),
    ]


def tracks_lines(stderr: str) -> dict[int, str]:
    shown = {}
    for line in stderr.splitlines():
        found = TRACKS.search(line)
        if found:
            shown[int(found.group(1))] = found.group(2)
    return shown


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
    reference_tracks = tracks_lines(finish(command(reference)))
    expected = journaled(reference)
    assert len(expected) > 37

    cut = tmp_path / "cut.sqlite3"
    stored_at = [kill_after(command(cut), cut, count) for count in (2, 25, 60)]
    assert stored_at == sorted(stored_at) and stored_at[-1] < len(expected)
    for stored in stored_at:
        assert journaled(cut)[:stored] == expected[:stored]
    restarted_tracks = tracks_lines(finish(command(cut)))

    assert journaled(cut) == expected
    [reference_game] = games_json(reference)
    [cut_game] = games_json(cut)
    assert cut_game["finished"] and cut_game["turns"] == 36
    assert cut_game["totals"] == reference_game["totals"]
    resumed_at = min(restarted_tracks)
    assert resumed_at >= stored_at[-1]
    for at, lights in restarted_tracks.items():
        assert lights == reference_tracks[at]
    assert restarted_tracks[max(restarted_tracks)] == reference_tracks[max(reference_tracks)]
    assert os.path.getsize(cut) > 0
