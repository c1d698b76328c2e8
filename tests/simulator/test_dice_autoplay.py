"""Simulated dice players: they wait for the hub, throw once per throw the game wants, and
make the moves the game offers them."""

from firmware_host.games.table_game import Setup
from firmware_host.journal.store import Journal
from firmware_host.sensors import DieReading
from firmware_host.service.clock import SimulatedClock
from firmware_host.service.dice_controller import DiceController
from simulator.dice_autoplay import DicePlayers
from tests.games.dice_duel import DiceDuel


def test_players_wait_for_the_hub_then_throw_once_and_move(tmp_path):
    thrown = []
    with Journal(tmp_path / "journal.sqlite3") as journal:
        table = DiceController.start(
            journal, DiceDuel, Setup(("Ann", "Ben")), dice=2, thrower=thrown.append
        )
        players = DicePlayers(table, seed=4, clock=SimulatedClock())
        table.link_changed(False, "connecting")
        players.step()
        assert thrown == []  # a paused table: nobody throws
        table.link_changed(True, "hub connected")
        players.step()
        players.step()  # the dice are still on their way: not thrown twice
        assert thrown == [(0,)]
        table.die(DieReading(0, True, None))
        table.die(DieReading(0, False, 2))
        players.step()
        assert table.events == 3 and table.snapshot().data["status"] == "Ben's turn"
        players.step()
        assert thrown == [(0,), (0,)]
