"""Score tracks on the Pi's GPIO: per seat a gpiozero :class:`~gpiozero.LEDBarGraph` of 25
track lights and two :class:`~gpiozero.LED` token lights, pins from the panel file's
``led_tracks`` section (``docs/panel.md``).

>>> import asyncio
>>> from gpiozero.pins.mock import MockFactory
>>> from firmware_host.config import CONFIG_DIR
>>> from firmware_host.config.panel import load_panel
>>> from firmware_host.games.dropit.track import track_state
>>> from firmware_host.outputs.clock import LoopClock
>>> from firmware_host.games.dropit.rules.pieces import Color
>>> factory = MockFactory()
>>> config = load_panel(CONFIG_DIR / "panel" / "bench_track.yaml").led_tracks
>>> tracks = GpioTracks(config, LoopClock(), pin_factory=factory)
>>> tracks.show([track_state(28, (Color.RED,))])     # space 3 and the +25 token
>>> [factory.pin(p).state for p in (2, 3, 4, 5)], factory.pin(27).state, factory.pin(0).state
([True, True, True, False], True, False)
>>> tracks.close()
"""

from __future__ import annotations

from gpiozero import LED, LEDBarGraph
from gpiozero.pins import Factory

from firmware_host.config.panel import LedTracksConfig
from firmware_host.outputs.clock import Clock
from firmware_host.outputs.track_display import TrackDisplay


class GpioTracks(TrackDisplay):
    """The score tracks of ``config``, one per seat, driven through gpiozero.

    ``pin_factory`` is gpiozero's (None: the default; ``MockFactory`` in tests).
    """

    def __init__(
        self, config: LedTracksConfig, clock: Clock, *, pin_factory: Factory | None = None
    ) -> None:
        super().__init__(len(config.tracks), clock)
        self._devices: list[tuple[LEDBarGraph, LED, LED]] = []
        high = config.active_high
        try:
            for pins in config.tracks:
                bar = LEDBarGraph(*pins.track, active_high=high, pin_factory=pin_factory)
                self._devices.append(
                    (
                        bar,
                        LED(pins.plus_25, active_high=high, pin_factory=pin_factory),
                        LED(pins.plus_50, active_high=high, pin_factory=pin_factory),
                    )
                )
        except BaseException:
            self._release()
            raise
        self._light(self.exact)

    def _render(self, seat: int, track: tuple[bool, ...], plus_25: bool, plus_50: bool) -> None:
        bar, token_25, token_50 = self._devices[seat]
        for led, lit in zip(bar.leds, track, strict=True):
            led.value = lit
        token_25.value = plus_25
        token_50.value = plus_50

    def close(self) -> None:
        """Stop any animation and release the pins (the LEDs go dark); closing twice is fine."""
        if not self._devices:
            return
        super().close()
        self._release()

    def _release(self) -> None:
        for devices in self._devices:
            for device in devices:
                device.close()
        self._devices.clear()
