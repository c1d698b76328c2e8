"""A live view of the frames on the hub link, for the people who wire and service tables."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TextIO

from firmware_host.link import wire
from firmware_host.link.frame_ring import describe
from firmware_host.link.transport import HubLink

HEARTBEAT = {wire.PING, wire.PONG}


class Monitor:
    """Prints every frame each way as it passes (heartbeats only when asked).

    ``count`` stops after that many frames from the hub were shown; ``seconds`` after that
    long; Ctrl-C stops it too. :meth:`run` returns the lines' totals as a summary line.
    """

    def __init__(
        self,
        url: str,
        out: TextIO,
        count: int | None = None,
        seconds: float | None = None,
        heartbeat: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.url = url
        self.out = out
        self.count = count
        self.seconds = seconds
        self.heartbeat = heartbeat
        self.clock = clock
        self.start = clock()
        self.shown_in = 0
        self.connected = False
        self.problem: str | None = None
        self.done = threading.Event()
        self.lock = threading.Lock()

    def frame(self, direction: str, seq: int, kind: int, payload: bytes) -> None:
        """Print one frame (called in the link's reader thread)."""
        if kind in HEARTBEAT and not self.heartbeat:
            return
        arrow = "hub->host" if direction == "in" else "host->hub"
        with self.lock:
            if self.done.is_set():
                return
            print(
                f"{self.clock() - self.start:10.6f} {arrow} {describe(seq, kind, payload)}",
                file=self.out,
                flush=True,
            )
            if direction == "in":
                self.shown_in += 1
                if self.count is not None and self.shown_in >= self.count:
                    self.done.set()

    def state(self, state: str, reason: str) -> None:
        """Print link state changes (a link down is tried again: say so)."""
        with self.lock:
            if state == "up":
                self.connected = True
            else:
                self.problem = reason
            retrying = "; retrying until the hub answers (Ctrl-C stops)" if state == "down" else ""
            print(
                f"{self.clock() - self.start:10.6f} link {state}: {reason}{retrying}",
                file=self.out,
                flush=True,
            )
        if state == "error":
            self.done.set()

    def run(self) -> HubLink:
        """Watch until the count, the time limit or Ctrl-C; returns the (stopped) link."""
        link = HubLink(self.url, on_frame=self.frame, on_state=self.state)
        link.start()
        try:
            self.done.wait(self.seconds)
        except KeyboardInterrupt:
            self.done.set()
        finally:
            link.stop()
        return link
