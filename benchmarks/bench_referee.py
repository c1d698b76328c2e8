"""How long ``tabletop referee`` takes for a whole 36-turn game, and replaying its journal."""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

from firmware_host.config.board import load_board
from firmware_host.games.dropit.events import event_from_json
from firmware_host.games.dropit.gamefile import load_game
from firmware_host.games.dropit.referee import referee_game
from firmware_host.games.dropit.state import replay

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "examples/games/two_teams_jokers_shape_edges.yaml"


def _median_ms(run, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def main() -> None:
    """Print the median time to referee the example team game, and to replay its events."""
    board = load_board()
    record = load_game(GAME)
    report = referee_game(record, board, str(GAME))
    journal = [json.dumps(event.to_json()) for event in report.events]
    referee_ms = _median_ms(lambda: referee_game(record, board, str(GAME)), 20)
    replay_ms = _median_ms(lambda: replay(report.events), 200)
    journal_ms = _median_ms(lambda: replay(event_from_json(json.loads(j)) for j in journal), 50)
    print(
        f"referee (36-turn team game, judge + check per turn): median {referee_ms:.1f} ms "
        f"({referee_ms / 36:.2f} ms per turn)"
    )
    print(f"replay of its {len(report.events)} events: median {replay_ms:.2f} ms")
    print(f"replay from the JSON journal (parse + validate + fold): median {journal_ms:.2f} ms")
