"""How fast the Clack! and puzzle sheet engines decide: claims per second, legal-move queries."""

from __future__ import annotations

import random
import statistics
import threading
import time

from firmware_host.games.clack.arbiter import Arbiter
from firmware_host.games.clack.dice import VirtualDice
from firmware_host.games.clack.discs import load_disc_set
from firmware_host.games.clack.events import DiscClaimed
from firmware_host.games.clack.events import GameStarted as ClackStarted
from firmware_host.games.gotta2.engine import Gotta2Game
from firmware_host.games.gotta2.events import GameStarted as SheetStarted
from firmware_host.games.gotta2.rectangle import largest_rectangle
from firmware_host.games.gotta2.sheet import load_sheet

PLAYERS = ("ana", "ben", "cleo", "dan")


DISCS = load_disc_set()
SHEET = load_sheet()


def clack_race(threads: int, seed: int) -> tuple[int, float]:
    """Play one 4-player race from ``threads`` claiming threads; (submissions, seconds)."""
    discs = DISCS
    table = Arbiter(discs, ClackStarted(players=PLAYERS, seed=seed))
    rolls = VirtualDice(discs, seed)
    all_rolls = [rolls.roll(r) for r in range(1, 5001)]
    counts = [0] * threads

    def player(index: int) -> None:
        choose = random.Random(index)
        while True:
            game = table.game
            if game.over:
                return
            counts[index] += 1
            if game.awaiting_roll:
                table.submit(all_rolls[game.round])
                continue
            pool = game.matching() or game.table
            table.submit(DiscClaimed(game.round, PLAYERS[index], choose.choice(pool)))

    start = time.perf_counter()
    workers = [threading.Thread(target=player, args=(i,)) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return sum(counts), time.perf_counter() - start


def sheet_game(players: int, seed: int) -> tuple[list[float], float]:
    """Play one random puzzle sheet game; (each legal_moves() time, whole game seconds)."""
    choose = random.Random(seed)
    start = time.perf_counter()
    game = Gotta2Game.start(SHEET, SheetStarted(players=PLAYERS[:players]))
    queries = []
    while not game.over:
        t0 = time.perf_counter()
        moves = game.legal_moves()
        queries.append(time.perf_counter() - t0)
        game = game.apply(choose.choice(moves))
    return queries, time.perf_counter() - start


def main() -> None:
    """Print the figures."""
    for threads in (1, 4):
        runs = [clack_race(threads, seed) for seed in range(10)]
        submissions = sum(n for n, _ in runs)
        seconds = sum(s for _, s in runs)
        print(
            f"clack race, {threads} thread(s): {submissions / seconds:,.0f} submissions/s "
            f"decided, {seconds / len(runs) * 1000:.0f} ms per whole game"
        )
    queries, games = [], []
    for seed in range(10):
        q, g = sheet_game(4, seed)
        queries += q
        games.append(g)
    queries.sort()
    print(
        f"puzzle sheet legal_moves(): median {statistics.median(queries) * 1000:.2f} ms, "
        f"p95 {queries[int(len(queries) * 0.95)] * 1000:.2f} ms; whole 4-player game "
        f"{statistics.median(games) * 1000:.0f} ms"
    )
    rng = random.Random(1)
    board = {(r, c) for r in range(30) for c in range(30) if rng.random() < 0.8}
    t0 = time.perf_counter()
    for _ in range(100):
        largest_rectangle(board, 30, 30)
    print(f"largest_rectangle 30 x 30: {(time.perf_counter() - t0) * 10:.2f} ms")
