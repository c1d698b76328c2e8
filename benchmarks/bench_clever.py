"""How fast the "Auch schon clever" engine plays and replays whole games."""

from __future__ import annotations

import statistics
import time

from firmware_host.games.clever.autoplay import play
from firmware_host.games.clever.game import Game
from firmware_host.games.clever.layout import load_layout
from firmware_host.games.clever.sheet import Sheet

GAMES = 100
PLAYERS = ("Ann", "Ben", "Cid", "Dan")


def main() -> None:
    """Print the time to play and to replay a four-player game, and the time per event."""
    sheet = Sheet(load_layout())
    played, replayed, events = [], [], []
    for seed in range(GAMES):
        start = time.perf_counter()
        journal = play(sheet, PLAYERS, seed)
        played.append(time.perf_counter() - start)
        start = time.perf_counter()
        Game.replay(sheet, journal)
        replayed.append(time.perf_counter() - start)
        events.append(len(journal))
    per_event = sum(replayed) / sum(events)
    print(
        f"clever, {len(PLAYERS)} random players, {GAMES} games: "
        f"play median {statistics.median(played) * 1e3:.1f} ms, "
        f"replay median {statistics.median(replayed) * 1e3:.1f} ms "
        f"({statistics.mean(events):.0f} events per game, {per_event * 1e6:.0f} us per event)"
    )
