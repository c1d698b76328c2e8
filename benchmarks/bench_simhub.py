"""The virtual hub flat out: one game (36 autoplay drops) to a host over a pty and a socket.

Each drop is simulated by the true world, its events (piece tag, entry gate, the strips
every 10 ms of hub time while the piece falls and settles) go through the firmware's
engine and the link-fault layer to a ``HubLink``; the figure is wall time until the host
has every event of the game, with the realistic profile (seed 1).
"""

from __future__ import annotations

import itertools
import threading
import time

from firmware_host.config.noise import load_profile
from firmware_host.config.table import load_table
from firmware_host.link.session import HubEvent
from firmware_host.link.transport import HubLink
from simulator.hub import VirtualHub
from simulator.play import play
from simulator.players import Autoplay

DROPS = 36


def one_game(line: str) -> tuple[float, int]:
    """Seconds until the host had all of one game's events, and how many events."""
    table = load_table()
    events: list[HubEvent] = []
    hub = VirtualHub(table, load_profile("realistic"), seed=1, line=line)
    with hub, HubLink(hub.url, on_event=events.append) as link:
        link.wait_up(5.0)
        start = time.perf_counter()
        handles = play(hub, itertools.islice(Autoplay(table, 1), DROPS), threading.Event())
        last = handles[-1].readings.settled_us
        while not any(e.kind == "piece" and e.hub_us == last for e in events[-3:]):
            time.sleep(0.001)
        return time.perf_counter() - start, len(events)


def main() -> None:
    """Print the figures."""
    for line in ("pty", "socket"):
        seconds, events = one_game(line)
        print(
            f"{line:6}: {DROPS} drops, {events} events in {seconds:.2f} s: "
            f"{DROPS / seconds:.1f} drops/s, {events / seconds:,.0f} events/s"
        )


if __name__ == "__main__":
    main()
