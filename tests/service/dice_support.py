"""Running a dice game's service in tests: in this loop, or in a thread of its own with
the page served (for browser tests)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from firmware_host.games.registry import DiceGame
from firmware_host.games.table_game import TableGame
from firmware_host.service.clock import ScaledClock
from firmware_host.service.options import Options
from firmware_host.service.runner import Service

SPEED = 1000.0
"""How much faster than real time the simulated players think."""


def dice_options(tmp_path: Path, **changes: object) -> Options:
    """Options for an in-process dice game on the virtual hub (clean noise, as fast as it
    goes), a journal in ``tmp_path``, simulated players, no page."""
    settings: dict[str, object] = {
        "journal": tmp_path / "journal.sqlite3",
        "http": False,
        "noise": "clean",
        "seed": 5,
        "sim": True,
        "speed": SPEED,
        "autoplay": True,
        "players": ("Ann", "Ben", "Cleo"),
    }
    settings.update(changes)
    return Options(**settings)  # type: ignore[arg-type]


class RunningDice:
    """A dice game's service in its own thread and loop with its page on a free port of
    127.0.0.1 (the table's screen address in the reference web settings), as ``tabletop
    run --game KIND`` runs it. Use as a context manager; :attr:`url` is the page."""

    def __init__(self, tmp_path: Path, kind: type[TableGame], **changes: object) -> None:
        settings: dict[str, object] = {"http": True, "page_host": "127.0.0.1", "page_port": 0}
        settings.update(changes)
        self.options = dice_options(tmp_path, **settings)
        self.kind = kind
        self.ready = threading.Event()
        self.service: Service | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.url = ""
        self.thread = threading.Thread(target=lambda: asyncio.run(self._main()), daemon=True)

    async def _main(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.service = Service(
            self.options, DiceGame(self.kind), clock=ScaledClock(self.options.speed), announce=print
        )
        run = asyncio.create_task(self.service.run())
        while self.service.page_url is None and not run.done():
            await asyncio.sleep(0.01)
        self.url = self.service.page_url or ""
        self.ready.set()
        await run

    def call(self, function):  # type: ignore[no-untyped-def]
        """Run ``function()`` in the service's loop; its result (bounded wait)."""

        async def run():  # type: ignore[no-untyped-def]
            return function()

        assert self.loop is not None
        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(timeout=10)

    def __enter__(self) -> RunningDice:
        self.thread.start()
        assert self.ready.wait(30) and self.url, "the service never served its page"
        return self

    def __exit__(self, *exc: object) -> None:
        assert self.loop is not None and self.service is not None
        self.loop.call_soon_threadsafe(self.service.stop)
        self.thread.join(30)
