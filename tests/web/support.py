"""Helpers for the web tests: refereed example games, web settings, a stepped clock,
a demo table behind the real app, and a real uvicorn server on a free port."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uvicorn

from firmware_host.config.board import load_board
from firmware_host.games.dropit.gamefile import load_game
from firmware_host.games.dropit.referee import RefereeReport, referee_game
from firmware_host.web.access import Access
from firmware_host.web.config import WebConfig
from firmware_host.web.demo import DemoFeed
from firmware_host.web.frontend import DROP_IT, Frontend
from firmware_host.web.server import MAX_WS_BYTES, bind, create_app

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "games"
FOUR = EXAMPLES / "four_players_base.yaml"
TEAMS = EXAMPLES / "two_teams_jokers_shape_edges.yaml"
EASY = EXAMPLES / "three_players_easy.yaml"
PIN = "2741"
CODE_SEED = 7


def report(path: Path) -> RefereeReport:
    return referee_game(load_game(path), load_board(), str(path))


def web_config(**changes: object) -> WebConfig:
    values: dict[str, object] = {
        "version": 1,
        "staff_pin": PIN,
        "phones": True,
        "public_url": "http://192.168.1.20:8080",
        "screen_hosts": ["127.0.0.1"],
    }
    values.update(changes)
    return WebConfig.model_validate(values)


class Ticks:
    """A clock for :meth:`DemoFeed.run`: each sleep lasts until the test calls :meth:`tick`
    (from the event loop's thread)."""

    def __init__(self) -> None:
        self.slept = 0.0
        self._ticks: asyncio.Queue[None] = asyncio.Queue()

    async def sleep(self, seconds: float) -> None:
        await self._ticks.get()
        self.slept += seconds

    def tick(self) -> None:
        self._ticks.put_nowait(None)


@dataclass
class Served:
    """A demo table served by the real app and uvicorn, in a thread with its own loop."""

    table: Any
    access: Access
    ticks: Ticks
    loop: asyncio.AbstractEventLoop
    urls: list[str]

    def call(self, function: Callable[[], Any]) -> Any:
        """Run ``function()`` in the server's loop and wait for it (bounded); its result."""

        async def run() -> Any:
            return function()

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(timeout=10)

    def tick(self, times: int = 1) -> None:
        for _ in range(times):
            self.call(self.ticks.tick)
        # the demo steps once per tick; wait until it has stepped (bounded)
        self.call(lambda: None)


@contextlib.contextmanager
def serve(
    table: Any,
    access: Access,
    hosts: tuple[str, ...],
    simulated: bool = False,
    frontend: Frontend = DROP_IT,
) -> Iterator[Served]:
    """Serve ``table`` on a free port of each of ``hosts`` (as a simulated table's page with
    ``simulated``); ready when it yields. A :class:`DemoFeed` steps on :meth:`Served.tick`;
    any other table changes only as the test changes it (in the server's loop:
    :meth:`Served.call`)."""
    sockets = [bind(host, 0) for host in hosts]
    urls = [
        f"http://{'[' + h + ']' if ':' in h else h}:{s.getsockname()[1]}"
        for h, s in zip(hosts, sockets, strict=True)
    ]
    ready = threading.Event()
    holder: dict[str, Any] = {}

    async def background() -> None:
        holder["loop"] = asyncio.get_running_loop()
        holder["ticks"] = ticks = Ticks()
        ready.set()
        if isinstance(table, DemoFeed):
            await table.run(1.0, sleep=ticks.sleep)
        else:
            await asyncio.Event().wait()

    app = create_app(
        table, access, background=background, simulated=simulated, frontend=frontend
    )
    server = uvicorn.Server(
        uvicorn.Config(app, log_level="warning", ws_max_size=MAX_WS_BYTES, lifespan="on")
    )
    thread = threading.Thread(target=server.run, kwargs={"sockets": sockets}, daemon=True)
    thread.start()
    try:
        assert ready.wait(timeout=20), "the server did not start within 20 s"
        with urllib.request.urlopen(f"{urls[0]}/healthz", timeout=20) as reply:
            assert reply.read() == b"ok"
        yield Served(table, access, holder["ticks"], holder["loop"], urls)
    finally:
        server.should_exit = True
        thread.join(timeout=20)
        for sock in sockets:
            sock.close()
