"""How long the scoreboard takes to build a view message, and to answer an untrusted action."""

from __future__ import annotations

import asyncio
import json
import statistics
import time
from pathlib import Path

from firmware_host.config.board import load_board
from firmware_host.games.dropit.gamefile import load_game
from firmware_host.games.dropit.referee import referee_game
from firmware_host.games.dropit.svg import board_svg
from firmware_host.web.access import Access
from firmware_host.web.config import load_web_config
from firmware_host.web.demo import DemoFeed
from firmware_host.web.frontend import DROP_IT
from firmware_host.web.server import Desk

GAME = (
    Path(__file__).resolve().parents[1] / "examples" / "games" / "two_teams_jokers_shape_edges.yaml"
)
ROUNDS = 200


def main() -> None:
    """Print the median time to build the JSON and SVG of a full board's view, the message
    size, and the median time to refuse a malformed and a not-allowed action."""
    board = load_board()
    table = DemoFeed(board, referee_game(load_game(GAME), board, str(GAME)))
    while not table.finished:
        table.step()
    view = table.snapshot()
    built = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        data, svg = view.to_json(), board_svg(view)
        built.append(time.perf_counter() - start)
    size = len(json.dumps({"view": data, "svg": svg}))
    desk = Desk(table, Access(load_web_config(), seed=1), DROP_IT)
    timings = asyncio.run(_refusals(desk))
    print(
        f"web, 36-piece board: view JSON + SVG median {statistics.median(built) * 1e3:.2f} ms, "
        f"message {size / 1024:.1f} KiB; action refused (malformed) median "
        f"{statistics.median(timings['malformed']) * 1e6:.0f} us, (no such question) "
        f"{statistics.median(timings['refused']) * 1e6:.0f} us"
    )


async def _refusals(desk: Desk) -> dict[str, list[float]]:
    timings: dict[str, list[float]] = {"malformed": [], "refused": []}
    messages = {
        "malformed": '{"type": "answer", "question": 3}',
        "refused": '{"type": "answer", "question": "q1", "yes": true}',
    }
    for _ in range(ROUNDS):
        for kind, raw in messages.items():
            start = time.perf_counter()
            await desk.handle(raw, "127.0.0.1")
            timings[kind].append(time.perf_counter() - start)
    return timings
