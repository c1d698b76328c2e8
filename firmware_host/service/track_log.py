"""Score tracks that exist only in the log: what a table without LED tracks shows.

The simulator and a table without any LED tracks use :class:`LoggedTracks`: it keeps
each seat's lit state and writes one log line whenever a seat's lights change
(``event=lights seat=1 lit=7 plus_25=on plus_50=off``, at debug level), so a run's LED
state can be read back.
"""

from __future__ import annotations

import logging

from firmware_host.logs import event
from firmware_host.outputs.clock import Clock
from firmware_host.outputs.track_display import TrackDisplay

log = logging.getLogger("firmware_host.service.tracks")


class LoggedTracks(TrackDisplay):
    """``seats`` score tracks kept in memory and logged when they change."""

    def __init__(self, seats: int, clock: Clock) -> None:
        self.lit: list[tuple[tuple[bool, ...], bool, bool] | None] = [None] * seats
        """Each seat's track lights and its +25 and +50 lights, as last rendered."""
        super().__init__(seats, clock)

    def _render(self, seat: int, track: tuple[bool, ...], plus_25: bool, plus_50: bool) -> None:
        lights = (track, plus_25, plus_50)
        if self.lit[seat] == lights:
            return
        self.lit[seat] = lights
        event(
            log,
            "lights",
            logging.DEBUG,
            seat=seat,
            lit=sum(track),
            plus_25="on" if plus_25 else "off",
            plus_50="on" if plus_50 else "off",
        )
