"""The GOTTA2 puzzle sheet at the table: what publishing a view and checking a move cost."""

from __future__ import annotations

import json
import random
import statistics
import time

from firmware_host.games.gotta2.table import Gotta2Table
from firmware_host.games.table_game import Setup

PLAYERS = ("ana", "ben", "cleo", "dan", "eve", "fay")


def table_game(players: int, seed: int) -> tuple[list[float], list[float], list[int]]:
    """One autoplayed game: view() seconds, move_event + apply seconds, view JSON bytes."""
    rng = random.Random(seed)
    setup = Setup(players=PLAYERS[:players], seed=seed)
    game = Gotta2Table.replay([Gotta2Table.first_event(setup)])
    views, moves, sizes = [], [], []
    while True:
        t0 = time.perf_counter()
        view = game.view()
        views.append(time.perf_counter() - t0)
        sizes.append(len(json.dumps(view)))
        if game.over:
            return views, moves, sizes
        (player,) = view["waiting_for"]
        move = game.auto_move(player, rng)
        t0 = time.perf_counter()
        game = game.apply(game.move_event(player, move))
        moves.append(time.perf_counter() - t0)


def main() -> None:
    """Print the figures."""
    for players in (2, 6):
        runs = [table_game(players, seed) for seed in range(10)]
        views = [t for v, _, _ in runs for t in v]
        moves = [t for _, m, _ in runs for t in m]
        sizes = [n for _, _, s in runs for n in s]
        print(
            f"gotta2 table, {players} players: view() median "
            f"{statistics.median(views) * 1000:.1f} ms (max {max(views) * 1000:.1f}), "
            f"move check + apply median {statistics.median(moves) * 1000:.1f} ms, "
            f"view JSON median {statistics.median(sizes) / 1000:.1f} kB "
            f"(max {max(sizes) / 1000:.1f})"
        )
