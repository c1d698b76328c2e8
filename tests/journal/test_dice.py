"""Listing journaled dice games: scores replayed through the rules, problems named."""

from firmware_host.games.table_game import Setup
from firmware_host.journal.dice import dice_summaries
from firmware_host.journal.store import Journal
from firmware_host.sensors import DieReading
from firmware_host.service.dice_controller import DiceController
from tests.games.dice_duel import DiceDuel


def test_games_are_listed_newest_first_with_replayed_scores(tmp_path):
    with Journal(tmp_path / "journal.sqlite3") as journal:
        table = DiceController.start(journal, DiceDuel, Setup(("Ann", "Ben")), dice=2)
        for face in (5, 0, 2, 1):
            table.die(DieReading(0, True, None))
            table.die(DieReading(0, False, face))
            table.play(table.snapshot().waiting_for[0], {"type": "keep"})
        broken = journal.start_game(
            "duel", {"type": "started", "players": ["Cy", "Di"], "pair": False}
        )
        journal.append(broken, 2, {"type": "keep", "player": "Cy"})
        journal.start_game("dropit", {"type": "game_started"})  # another kind: not listed
        listed = dice_summaries(journal, DiceDuel)
    assert [game["id"] for game in listed] == [broken, table.game_id]
    assert listed[1] | {"started": None} == {
        "id": table.game_id,
        "started": None,
        "finished": True,
        "events": 9,
        "scores": {"Ann": 9, "Ben": 3},
        "winners": ["Ann"],
    }
    assert listed[0]["finished"] is False and "Cy may not keep now" in listed[0]["problem"]
