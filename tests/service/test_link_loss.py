"""Unplugging the hub mid-turn pauses the game with a clear message; plugging it back in
carries the turn on where it was. The service runs on the virtual hub (a real pty, the
real HubLink); a piece dropped while the cable is out is reported by the hub once it is
back (it keeps its events) and counts exactly once."""

import asyncio
import time

import pytest

from firmware_host.config.table import load_table
from firmware_host.errors import IllegalMove
from firmware_host.games.dropit.events import ShapeDropped
from firmware_host.journal.dropit import load_events
from firmware_host.journal.store import Journal
from firmware_host.link.inventory import table_inventory
from firmware_host.service.clock import SimulatedClock
from firmware_host.service.controller import Phase
from firmware_host.service.link_watch import LinkWatch
from firmware_host.service.runner import Service
from simulator.autoplay import AutoPlayers, aim
from tests.service.bench import Bench
from tests.service.support import options

DEADLINE_S = 30.0


async def eventually(condition) -> None:
    """Poll ``condition`` while the link's thread works (bounded by a deadline)."""
    deadline = time.monotonic() + DEADLINE_S
    while not condition():
        assert time.monotonic() < deadline, "the condition never came true"
        await asyncio.sleep(0.005)


def test_unplugged_mid_turn_the_game_pauses_and_resumes(tmp_path):
    clock = SimulatedClock()

    async def main() -> int:
        service = Service(options(tmp_path), clock=clock, announce=print)
        table = service.controller
        running = asyncio.create_task(service.run())
        await eventually(lambda: table.paused is None)
        turn = table.state.current
        color, shape = AutoPlayers(table, service.play.hand, 5, clock).choose()
        table.select(color, shape)

        service.hub.virtual.unplug()
        await eventually(lambda: table.paused is not None)
        status = str(table.snapshot().status)
        assert status.startswith("PAUSED: the sensor hub is not connected: check its USB cable")
        assert table.snapshot().to_json()["game"]["status"] == status  # on the page
        with pytest.raises(IllegalMove, match="not connected"):
            table.confirm()
        x, angle = aim(table.board, 5, turn.number, shape)
        await service.play.hand.drop(turn.number, color, shape, x, angle)  # while unplugged

        service.hub.virtual.replug()
        await eventually(lambda: table.state.next_turn > turn.number or table.asked)
        while table.phase is Phase.QUESTION:
            await table.answer(service.play.hand.truth(table.asked))
        await eventually(lambda: table.state.next_turn > turn.number)
        assert table.paused is None and "PAUSED" not in str(table.snapshot().status)
        game_id = table.game.game_id
        service.stop()
        await running
        return game_id

    game_id = asyncio.run(main())
    with Journal(tmp_path / "journal.sqlite3") as reader:
        drops = [e for e in load_events(reader, game_id) if isinstance(e, ShapeDropped)]
    assert [d.turn for d in drops] == [1]


def test_a_hub_that_is_not_this_tables_keeps_the_game_paused(tmp_path):
    async def main() -> None:
        bench = Bench(tmp_path / "journal.sqlite3")
        table = bench.controller
        hello = dict(table_inventory(load_table()), curtain=120)
        watch = LinkWatch(table, load_table(), lambda: hello)
        table.link_changed(False, "connecting")
        watch("up", "hub firmware 1.0.0")
        await eventually(lambda: "curtain" in str(table.paused or ""))
        assert "hub inventory differs from the table file" in str(table.snapshot().status)
        with pytest.raises(IllegalMove, match="inventory"):
            table.select(*AutoPlayers(table, bench.simulator, 5, bench.clock).choose())
        hello = table_inventory(load_table())
        watch("up", "hub firmware 1.0.0")
        await eventually(lambda: table.paused is None)
        bench.close()

    asyncio.run(main())
