"""A dice game's service killed with SIGKILL (a power cut) at several points and restarted
each time: the journal comes out exactly as an uninterrupted run of the same seed's -- no
throw or move lost, none recorded twice -- for every dice game."""

import sys
from pathlib import Path

import pytest

from firmware_host.journal.store import Journal
from tests.power_cut import finish, journaled, kill_after


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


@pytest.mark.parametrize("game", ["clack", "clever", "gotta2"])
def test_killed_at_several_points_the_game_ends_as_if_never_interrupted(game, tmp_path):
    reference = tmp_path / "reference.sqlite3"
    finish(command(game, reference))
    expected = journaled(reference)
    assert len(expected) > 12

    cut = tmp_path / "cut.sqlite3"
    points = [len(expected) // 4, len(expected) // 2, 3 * len(expected) // 4]
    stored_at = [kill_after(command(game, cut), cut, count) for count in points]
    assert stored_at == sorted(stored_at) and stored_at[-1] < len(expected)
    for stored in stored_at:
        assert journaled(cut)[:stored] == expected[:stored]
    finish(command(game, cut))
    assert journaled(cut) == expected
    with Journal(cut, create=False) as reader:
        (row,) = reader.games()
        assert row.finished is not None
