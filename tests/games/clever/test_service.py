"""Auch schon clever through the table service: the virtual hub's five dice over the hub
link and the tray reader, simulated players, the journal -- a whole game, and a resume."""

import asyncio

from firmware_host.games.clever.events import Event
from firmware_host.games.clever.game import Game
from firmware_host.games.clever.table import CleverTable, reference_sheet
from firmware_host.games.registry import GAMES
from firmware_host.games.table_game import Setup
from firmware_host.journal.store import Journal
from firmware_host.service.dice_controller import DiceController
from firmware_host.service.runner import Service
from tests.service.dice_support import dice_options


def journal_of(tmp_path):
    with Journal(tmp_path / "journal.sqlite3", create=False) as reader:
        (game,) = reader.games()
        return game, [e.data for e in reader.events(game.id)]


def play(options) -> dict:
    async def main():
        service = Service(options, GAMES["clever"])
        await asyncio.wait_for(service.run(), 120)
        return service.controller.snapshot().data

    return asyncio.run(main())


def test_a_whole_game_with_the_virtual_hubs_dice(tmp_path):
    final = play(dice_options(tmp_path))
    game, events = journal_of(tmp_path)
    assert game.kind == "clever" and game.finished is not None
    assert final["over"] and final["winners"] and final["status"].startswith("Game over")
    assert events[0] == {
        "type": "game_started",
        "players": ["Ann", "Ben", "Cleo"],
        "first": "Ann",
        "seed": 5,
    }
    throws = [e for e in events if e["type"] == "dice_rolled"]
    assert len(throws) >= 6 and {e["player"] for e in throws} == {"Ann", "Ben", "Cleo"}
    assert all(len(e["faces"]) == 5 and all(0 <= f <= 5 for f in e["faces"]) for e in throws)
    assert len({tuple(e["faces"]) for e in throws}) > len(throws) // 2  # the dice really roll
    assert {e["type"] for e in events} >= {"dice_chosen", "dice_rolled"}
    # the journal is the engine's own events: the engine alone replays it to the same end
    engine = Game.replay(reference_sheet(), [Event.from_json(e) for e in events])
    assert engine.over and engine.scores() == final["scores"]
    assert CleverTable.replay(events).view() == {
        k: v for k, v in final.items() if k not in ("id", "table")
    }


def test_a_stopped_game_resumes_from_the_journal(tmp_path):
    options = dice_options(tmp_path, players=("Olivia", "Eric"))
    with Journal(options.journal) as journal:
        table = DiceController.start(journal, CleverTable, Setup(("Olivia", "Eric"), 5), dice=6)
        first = {"type": "dice_rolled", "player": "Olivia", "faces": [0, 1, 3, 2, 4]}
        chosen = {
            "type": "dice_chosen",
            "player": "Olivia",
            "color": "yellow",
            "uses": [{"box": "yellow.1", "dice": [0]}],
            "bonuses": [],
        }
        journal.append(table.game_id, 2, first)
        journal.append(table.game_id, 3, chosen)
    final = play(options)
    game, events = journal_of(tmp_path)
    assert events[1:3] == [first, chosen] and game.finished is not None
    assert "yellow.1" in final["game"]["sheets"]["Olivia"]["crossed"]
    assert CleverTable.replay(events).over
