"""Clack! at the table: what one claim costs the service (judge, apply, view, JSON) and the
view's size, measured over whole seeded autoplay games through the adapter."""

from __future__ import annotations

import json
import random
import statistics
import time

from firmware_host.games.clack.table import ClackTable
from firmware_host.games.table_game import Setup

PLAYERS = ("ana", "ben", "cleo", "dan")
GAMES = 20


def one_game(seed: int) -> tuple[list[float], list[int]]:
    """Autoplay one race; (seconds per claim from move to published JSON, view sizes)."""
    rng = random.Random(seed)
    game = ClackTable.replay([ClackTable.first_event(Setup(players=PLAYERS, seed=seed))])
    costs: list[float] = []
    sizes: list[int] = []
    while not game.over:
        if game.roll() is not None:
            game = game.apply(game.dice_event([rng.randrange(6), rng.randrange(6)]))
            continue
        player = rng.choice(game.players)
        move = game.auto_move(player, rng)
        assert move is not None
        start = time.perf_counter()
        game = game.apply(game.move_event(player, move))
        text = json.dumps(game.view())
        costs.append(time.perf_counter() - start)
        sizes.append(len(text.encode()))
    return costs, sizes


def main() -> None:
    """Print the per-claim cost and the view's size over ``GAMES`` seeded games."""
    costs: list[float] = []
    sizes: list[int] = []
    for seed in range(GAMES):
        game_costs, game_sizes = one_game(seed)
        costs += game_costs
        sizes += game_sizes
    micro = sorted(c * 1e6 for c in costs)
    print(f"claims measured: {len(costs)} over {GAMES} 4-player races")
    print(
        f"claim -> published view JSON: median {statistics.median(micro):.0f} µs, "
        f"p99 {micro[int(len(micro) * 0.99)]:.0f} µs"
    )
    print(f"view JSON size: {min(sizes)}-{max(sizes)} bytes")


if __name__ == "__main__":
    main()
