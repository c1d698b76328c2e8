"""The GOTTA2 puzzle sheet through the table service: simulated players on the simulator's
hub (no dice are thrown), every move journaled, played to the end, resumed after a stop."""

import asyncio

from firmware_host.games.gotta2.table import Gotta2Table
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


def run(options):
    async def main():
        service = Service(options, GAMES["gotta2"], announce=lambda line: None)
        await asyncio.wait_for(service.run(), 60)
        return service.controller.snapshot().data

    return asyncio.run(main())


def test_a_whole_game_through_the_service_is_journaled_move_by_move(tmp_path):
    final = run(dice_options(tmp_path, players=("Ann", "Ben", "Cleo", "Dan")))
    game, events = journal_of(tmp_path)
    assert game.kind == "gotta2" and game.finished is not None
    assert events[0] == {
        "type": "game_started",
        "players": ["Ann", "Ben", "Cleo", "Dan"],
        "seed": 5,
    }
    kinds = {e["type"] for e in events[1:]}
    steps = {"piece_chosen", "piece_placed", "bonus_piece_placed", "bonus_piece_skipped"}
    assert kinds <= steps and {"piece_chosen", "piece_placed"} <= kinds
    assert len(set(final["game"]["turns"].values())) == 1  # the final round: equal turns
    assert final["over"] and final["winners"] and final["waiting_for"] == []
    assert final["game"]["scoring_order"][0] == final["game"]["ended_by"]
    assert Gotta2Table.replay(events).view() == final


def test_a_stopped_game_resumes_from_the_journal(tmp_path):
    options = dice_options(tmp_path, players=("Ann", "Ben"))
    opening = [
        {"type": "piece_placed", "player": "Ann", "piece": "2-1", "row": 0, "column": 0},
        {"type": "piece_placed", "player": "Ben", "piece": "1-1", "row": 7, "column": 0},
    ]
    with Journal(options.journal) as journal:
        table = DiceController.start(journal, Gotta2Table, Setup(("Ann", "Ben"), seed=5), dice=5)
        for number, event in enumerate(opening, start=2):
            journal.append(table.game_id, number, event)
    final = run(options)
    game, events = journal_of(tmp_path)
    assert events[1:3] == opening and len(events) > 3
    assert game.finished is not None and final["over"]
    assert final["game"]["sheets"]["Ann"]["placed"][0] == {
        "piece": "2-1",
        "row": 0,
        "column": 0,
        "bonus": False,
    }
    assert Gotta2Table.replay(events).view() == final
