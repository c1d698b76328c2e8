"""Score tracks on the hub's addressable LED strips: each seat's lights become ``leds``
commands over the hub link, pixels and colours from the panel file's ``hub_tracks``
section (``docs/leds.md``).

Drawing never waits: :meth:`HubTracks._render` queues the seat's frames with
:meth:`HubLink.send <firmware_host.link.transport.HubLink.send>` and returns. The link
acknowledges and retransmits them; while a seat's frames are on their way, newer
drawings of that seat replace each other and only the latest is sent next (an animation
on a slow or absent link skips frames instead of piling them up). A frame that fails
(no acknowledgement after the link's retries, or a pixel the hub does not have) is
logged and counted in :attr:`HubTracks.failures`; the game goes on.

The hub puts its LEDs to idle after 2 s without the host: call :meth:`HubTracks.redraw`
when the link comes up again (``on_state("up", ...)``).
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from firmware_host.config.panel import HubTracksConfig
from firmware_host.link import messages
from firmware_host.link.messages import RGB
from firmware_host.link.session import LinkError
from firmware_host.link.transport import HubLink
from firmware_host.logs import event
from firmware_host.outputs.clock import Clock
from firmware_host.outputs.track_display import TrackDisplay

log = logging.getLogger("firmware_host.outputs.hub_tracks")

OFF: RGB = (0, 0, 0)
"""An unlit pixel."""


def pixel_runs(pixels: dict[int, RGB]) -> list[tuple[int, list[RGB]]]:
    """Group pixels into runs of consecutive indices: ``(first pixel, colours)``.

    >>> pixel_runs({3: (1, 1, 1), 0: (0, 0, 0), 1: (2, 2, 2)})
    [(0, [(0, 0, 0), (2, 2, 2)]), (3, [(1, 1, 1)])]
    """
    runs: list[tuple[int, list[RGB]]] = []
    for index in sorted(pixels):
        if runs and runs[-1][0] + len(runs[-1][1]) == index:
            runs[-1][1].append(pixels[index])
        else:
            runs.append((index, [pixels[index]]))
    return runs


class HubTracks(TrackDisplay):
    """The score tracks of ``config``, one per seat, drawn on the hub's strips over ``link``."""

    def __init__(self, config: HubTracksConfig, link: HubLink, clock: Clock) -> None:
        super().__init__(len(config.tracks), clock)
        self._config = config
        self._link = link
        self._lock = threading.Lock()
        self._latest: dict[int, list[dict[str, Any]]] = {}
        self._sending: set[int] = set()
        self.failures = 0
        """Frames that did not reach the hub (each also logged)."""
        self._light(self.exact)

    def redraw(self) -> None:
        """Draw every seat again (the hub blanked its strips while the link was down)."""
        self._light(self.exact)

    def frames(
        self, seat: int, track: tuple[bool, ...], plus_25: bool, plus_50: bool
    ) -> list[dict[str, Any]]:
        """The ``leds`` commands that light one seat (checked against the hub's hello
        when the link has one; a pixel it lacks is a ``ValueError``)."""
        layout = self._config.tracks[seat]
        colour = self._config.colour(seat)
        lit = (*track, plus_25, plus_50)
        pixels = {
            pixel: colour if on else OFF for pixel, on in zip(layout.pixels(), lit, strict=True)
        }
        return [
            frame
            for start, colours in pixel_runs(pixels)
            for frame in messages.led_frames(layout.strip, colours, start, self._link.hello)
        ]

    def _render(self, seat: int, track: tuple[bool, ...], plus_25: bool, plus_50: bool) -> None:
        try:
            frames = self.frames(seat, track, plus_25, plus_50)
        except ValueError as exc:
            self._failed(seat, str(exc))
            return
        with self._lock:
            self._latest[seat] = frames
            if seat in self._sending:
                return
            self._sending.add(seat)
        self._send_latest(seat)

    def _send_latest(self, seat: int) -> None:
        with self._lock:
            frames = self._latest.pop(seat, None)
            if frames is None:
                self._sending.discard(seat)
                return
        remaining = len(frames)
        count_lock = threading.Lock()

        def done(error: LinkError | None) -> None:
            nonlocal remaining
            if error is not None:
                self._failed(seat, str(error))
            with count_lock:
                remaining -= 1
                last = remaining == 0
            if last:
                self._send_latest(seat)

        for frame in frames:
            self._link.send(frame, done)

    def _failed(self, seat: int, problem: str) -> None:
        with self._lock:
            self.failures += 1
        event(log, "LED track frame not shown", logging.WARNING, seat=seat + 1, problem=problem)
