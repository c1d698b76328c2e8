"""Unplugging the hub mid-turn pauses the game with a clear message; plugging it back in
carries the turn on where it was. The link is the real HubLink over a real pty pair to the
hub's protocol engine; the drops come from the simulated table."""

import asyncio
import time

import pytest

from firmware_host.errors import IllegalMove
from firmware_host.link.transport import HubLink, backoff_delays
from firmware_host.service.autoplay import aim
from firmware_host.service.controller import Phase, TableController
from firmware_host.service.link_watch import LinkWatch
from firmware_host.service.runner import Service
from tests.link_harness import PtyHub
from tests.service.support import options

DEADLINE_S = 20.0


async def eventually(condition) -> None:
    """Poll ``condition`` while the link's thread works (bounded by a deadline)."""
    deadline = time.monotonic() + DEADLINE_S
    while not condition():
        assert time.monotonic() < deadline, "the condition never came true"
        await asyncio.sleep(0.005)


def test_unplugged_mid_turn_the_game_pauses_and_resumes(tmp_path):
    async def main() -> None:
        service = Service(options(tmp_path), announce=print)
        table: TableController = service.controller
        with PtyHub(tmp_path) as hub:
            link = HubLink(
                hub.path,
                on_state=LinkWatch(table),
                backoff=lambda: backoff_delays(0.01, 0.2, 0.05),
            ).start()
            try:
                await eventually(lambda: link.is_up)
                turn = table.state.current
                color, shape, _ = next(iter(table.state.standing(turn.competitor.name).supply))
                table.select(color, shape)

                hub.unplug()
                await eventually(lambda: table.paused is not None)
                status = table.snapshot().status
                assert status.startswith("PAUSED: the sensor hub is not connected")
                with pytest.raises(IllegalMove, match="not connected"):
                    table.confirm()
                await table.dropped(service.simulator.world.drop(color, shape, 150.0, 0.0).readings)
                assert table.state.next_turn == turn.number  # nothing seen while paused counts

                hub.replug()
                await eventually(lambda: table.paused is None)
                assert "carries on" in table.snapshot().status
                assert table.phase is Phase.SELECT
                assert table.snapshot().selection.shape is shape  # the turn where it was
                table.confirm()
                x, angle = aim(table.board, 5, turn.number, shape)
                await service.simulator.drop(turn.number, color, shape, x, angle)
                assert table.state.next_turn == turn.number + 1
            finally:
                link.stop()
        service.close()

    asyncio.run(main())
