"""The score track output every backend offers: ``show`` the game's track states, and
``animate`` a seat's track for a moment, never delaying the game.

:class:`TrackDisplay` does the timing; a backend (GPIO through gpiozero in
:mod:`.gpio_tracks`; the hub's addressable strips later) only implements
:meth:`TrackDisplay._render`, which lights one seat's lights at once.

* :meth:`~TrackDisplay.show` lights the exact state at once and returns; it cancels any
  animation still running.
* :meth:`~TrackDisplay.animate` returns at once too: the animation runs as an asyncio
  task on the injected :class:`~.clock.Clock`, is cancelled by the next ``show`` or
  ``animate``, and always ends by lighting the exact state again.
* A blinking token light (see :mod:`.track_lights`) toggles every
  :data:`BLINK_SECONDS` in a task of its own, for as long as the state has it.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Callable, Coroutine, Iterable, Sequence
from typing import Any

from firmware_host.games.dropit.track import TrackState
from firmware_host.outputs.clock import Clock
from firmware_host.outputs.track_lights import (
    DARK,
    FRAME_SECONDS,
    Animation,
    TrackLights,
    frames,
    lights_for,
)

BLINK_SECONDS = 0.5
"""How long a blinking light stays on, then off."""


class TrackDisplay(ABC):
    """Score tracks for ``seats`` seats (in turn order), animated on ``clock``."""

    def __init__(self, seats: int, clock: Clock) -> None:
        self.seats = seats
        self._clock = clock
        self._exact: tuple[TrackLights, ...] = (DARK,) * seats
        self._since = 0.0
        self._task: asyncio.Task[None] | None = None

    @property
    def exact(self) -> tuple[TrackLights, ...]:
        """The lights of the state last shown, seat by seat."""
        return self._exact

    def show(self, tracks: Sequence[TrackState]) -> None:
        """Show each seat's track state (seat ``i``: ``tracks[i]``; seats past the last
        state go dark, states past the last seat are not shown). A state with a blinking
        light needs a running event loop (the blinking is a task)."""
        shown = [lights_for(state) for state in tracks[: self.seats]]
        self._exact = (*shown, *[DARK] * (self.seats - len(shown)))
        self._since = self._clock.now()
        self._restart(self._blink if any(lights.blinking for lights in self._exact) else None)

    def animate(self, animation: Animation, seats: Iterable[int]) -> None:
        """Play ``animation`` on the tracks of ``seats`` over the state shown (needs a
        running event loop; returns at once)."""
        chosen = tuple(seats)
        for seat in chosen:
            if not 0 <= seat < self.seats:
                raise ValueError(f"no seat {seat}: the tracks have seats 0..{self.seats - 1}")
        self._restart(lambda: self._play(animation, chosen))

    def close(self) -> None:
        """Stop any animation, leaving the exact state lit."""
        self._restart(None)

    @abstractmethod
    def _render(self, seat: int, track: tuple[bool, ...], plus_25: bool, plus_50: bool) -> None:
        """Light one seat: its 25 track lights (space 1 first) and its two token lights."""

    def _restart(self, task: Callable[[], Coroutine[Any, Any, None]] | None) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None
        self._light(self._exact)
        if task is not None:
            self._task = asyncio.get_running_loop().create_task(task())

    def _light(self, seats: Sequence[TrackLights]) -> None:
        elapsed = self._clock.now() - self._since
        blink_on = int(elapsed / BLINK_SECONDS + 1e-9) % 2 == 0
        for seat, lights in enumerate(seats):
            self._render(
                seat, lights.track, lights.plus_25.lit(blink_on), lights.plus_50.lit(blink_on)
            )

    async def _play(self, animation: Animation, seats: tuple[int, ...]) -> None:
        played = {seat: frames(animation, self._exact[seat]) for seat in seats}
        for step in range(max((len(f) for f in played.values()), default=0)):
            self._light(
                [
                    played[seat][step]
                    if seat in played and step < len(played[seat])
                    else self._exact[seat]
                    for seat in range(self.seats)
                ]
            )
            await self._clock.sleep(FRAME_SECONDS[animation])
        self._light(self._exact)
        if any(lights.blinking for lights in self._exact):
            await self._blink()

    async def _blink(self) -> None:
        while True:
            elapsed = self._clock.now() - self._since
            phases = int(elapsed / BLINK_SECONDS + 1e-9) + 1
            await self._clock.sleep(self._since + phases * BLINK_SECONDS - self._clock.now())
            self._light(self._exact)
