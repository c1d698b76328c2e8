"""A dice game through the service: the virtual hub's dice over a real pty and the hub
link, the tray reader, simulated players, the journal -- played to the end, resumed after
a stop, and refused set-ups named."""

import asyncio

import pytest

from firmware_host.errors import InputError
from firmware_host.games.registry import DiceGame
from firmware_host.games.table_game import Setup
from firmware_host.journal.store import Journal
from firmware_host.service.dice_controller import DiceController
from firmware_host.service.runner import Service
from tests.games.dice_duel import ROUNDS, DiceDuel
from tests.service.dice_support import dice_options


def journal_of(tmp_path):
    with Journal(tmp_path / "journal.sqlite3", create=False) as reader:
        (game,) = reader.games()
        return game, [e.data for e in reader.events(game.id)]


def test_a_whole_game_with_the_virtual_hubs_dice(tmp_path):
    options = dice_options(tmp_path, variant="pair")

    async def main():
        service = Service(options, DiceGame(DiceDuel))
        await asyncio.wait_for(service.run(), 60)
        return service.controller.snapshot().data

    final = asyncio.run(main())
    game, events = journal_of(tmp_path)
    assert game.kind == "duel" and game.finished is not None
    assert final["over"] and final["winners"]
    throws = [e["faces"] for e in events if e["type"] == "thrown"]
    assert len(throws) == ROUNDS * 3
    assert all(len(faces) == 2 and all(0 <= f <= 5 for f in faces) for faces in throws)
    assert DiceDuel.replay(events).view() == final


def test_the_same_seed_plays_the_same_game(tmp_path):
    def play(folder):
        folder.mkdir()
        asyncio.run(asyncio.wait_for(Service(dice_options(folder), DiceGame(DiceDuel)).run(), 60))
        return journal_of(folder)[1]

    assert play(tmp_path / "a") == play(tmp_path / "b")


def test_a_stopped_game_resumes_from_the_journal(tmp_path):
    options = dice_options(tmp_path)
    with Journal(options.journal) as journal:
        table = DiceController.start(journal, DiceDuel, Setup(("Ann", "Ben", "Cleo")), dice=6)
        journal.append(table.game_id, 2, {"type": "thrown", "faces": [3]})
        journal.append(table.game_id, 3, {"type": "keep", "player": "Ann"})
    lines = []

    async def main():
        service = Service(options, DiceGame(DiceDuel), announce=lines.append)
        await asyncio.wait_for(service.run(), 60)

    asyncio.run(main())
    game, events = journal_of(tmp_path)
    assert lines[-1] == f"tabletop run: resuming Dice duel game {game.id}"
    assert events[1:3] == [{"type": "thrown", "faces": [3]}, {"type": "keep", "player": "Ann"}]
    assert game.finished is not None and len([e for e in events if e["type"] == "thrown"]) == 6


def test_bad_set_ups_are_named(tmp_path):
    with pytest.raises(InputError, match="--players/--variant: a dice duel takes 2 to 4"):
        Service(dice_options(tmp_path, players=("Solo",)), DiceGame(DiceDuel))
    with pytest.raises(InputError, match="no variant 'triple'"):
        Service(dice_options(tmp_path, variant="triple"), DiceGame(DiceDuel))
