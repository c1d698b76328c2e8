"""The drop collector runs on the hub's clock: a seeded game on the virtual hub is the
same game, verdict for verdict, whether the hub paces its events in real time or sends
them flat out, and however busy the machine is (another process spinning on a core).

The game's clock is simulated (the players' pauses cost nothing); what differs between
the runs is only when the hub's frames reach the host. Before, the collector's quiet
window ran on the host's clock as frames arrived, and ``make run`` twice with one seed
scored turn 10 3 points in one run and 0 in the other."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

from firmware_host.games.dropit.events import ShapeDropped
from firmware_host.journal.dropit import load_events
from firmware_host.journal.store import Journal
from firmware_host.service.clock import SimulatedClock
from firmware_host.service.runner import Service
from tests.service.support import options, until

TURNS = 5
"""Turns played in each run (the first run's hub paces them in real time: about 3 s each)."""


def play(tmp_path: Path, speed: float) -> list[object]:
    """The journal's events of the first :data:`TURNS` turns of seed 4's game, played by
    the simulated players with the realistic noise profile at ``speed``."""
    journal = tmp_path / f"journal-{speed:g}.sqlite3"
    settings = options(
        tmp_path, journal=journal, autoplay=True, speed=speed, noise="realistic", seed=4
    )

    async def main() -> None:
        service = Service(settings, clock=SimulatedClock(), announce=lambda line: None)
        runner = asyncio.create_task(service.run())
        await until(
            lambda: service.controller.state is not None
            and service.controller.state.next_turn > TURNS,
            deadline_s=120.0,
        )
        service.stop()
        await runner

    asyncio.run(main())
    with Journal(journal) as reader:
        (game,) = reader.games()
        events = load_events(reader, game.id)
    turns = [getattr(event, "turn", None) for event in events]
    # the events up to the last of the TURNS turns: the run stops at some point after it
    last = max(i for i, turn in enumerate(turns) if turn is not None and turn <= TURNS)
    return events[: last + 1]


def test_the_same_seed_plays_the_same_game_paced_flat_out_and_under_load(tmp_path):
    paced = play(tmp_path, speed=1.0)
    flat_out = play(tmp_path, speed=1000.0)
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        busy = play(tmp_path, speed=1000.0)
    finally:
        spinner.kill()
        spinner.wait()
    assert sum(isinstance(event, ShapeDropped) for event in paced) == TURNS
    assert flat_out == paced
    assert busy == paced
