"""The panel file: which Raspberry Pi GPIO pins the buttons and the GPIO LED score tracks use.

A panel file is YAML (``config/panel/reference.yaml`` is the reference table's)::

    version: 1
    buttons:
      pull_up: true          # each button connects its pin to ground (internal pull-up)
      bounce_time: 0.05      # seconds a contact may bounce (null: no debouncing)
      pins: {previous_shape: 5, next_shape: 6, confirm: 13, joker: 19,
             answer_yes: 26, answer_no: 21}
    led_tracks:              # optional: score tracks driven straight from GPIO
      active_high: true      # true: a pin driven high lights its LED
      tracks:                # one per seat, in turn order
        - {track: [2, 3, ..., 26], plus_25: 27, plus_50: 0}   # 25 track pins, 2 token pins
    hub_tracks:              # optional: score tracks on the hub's addressable strips
      brightness: 0.5        # 0..1, scales every colour
      tracks:                # one per seat, in turn order
        - {strip: 0, first: 0, plus_25: 25, plus_50: 26, colour: [255, 40, 0]}

Pins are BCM GPIO numbers (0..27 on the Pi's 40-pin header), each used once in the file.
A file gives ``buttons`` and at most one score track backend (``led_tracks`` on GPIO or
``hub_tracks`` on the hub's strips; see ``docs/panel.md`` and ``docs/leds.md``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, model_validator

from firmware_host.config.loader import CONFIG_DIR, ConfigValueError, StrictModel, load_model

REFERENCE_PANEL = CONFIG_DIR / "panel" / "reference.yaml"
"""The reference table's panel file."""

GPIO_PINS = range(28)
"""BCM numbers of the GPIO lines on the Raspberry Pi's 40-pin header."""

TRACK_LIGHTS = 25
"""Track position lights per seat (the start space has none)."""


def _gpio(pin: int) -> int:
    if pin not in GPIO_PINS:
        raise ValueError(f"{pin} is not a GPIO pin: BCM numbers run from 0 to 27")
    return pin


Pin = Annotated[int, AfterValidator(_gpio)]
"""A BCM GPIO number."""


class ButtonPins(StrictModel):
    """The pin of each button (the names are the panel's actions)."""

    previous_shape: Pin
    next_shape: Pin
    confirm: Pin
    joker: Pin
    answer_yes: Pin
    answer_no: Pin


class ButtonsConfig(StrictModel):
    """The buttons: their pins, pull-up or pull-down wiring, debounce time."""

    pull_up: bool = True
    bounce_time: Annotated[float, Field(gt=0, le=1)] | None = 0.05
    pins: ButtonPins


class TrackPins(StrictModel):
    """One seat's score track: 25 position lights (space 1 first) and the two token lights."""

    track: Annotated[list[Pin], Field(min_length=TRACK_LIGHTS, max_length=TRACK_LIGHTS)]
    plus_25: Pin
    plus_50: Pin


class LedTracksConfig(StrictModel):
    """Score tracks on GPIO: one per seat, in turn order."""

    active_high: bool = True
    tracks: Annotated[list[TrackPins], Field(min_length=1)]


Channel = Annotated[int, Field(ge=0, le=255)]
"""One colour channel of an addressable LED."""


class HubTrackPixels(StrictModel):
    """One seat's score track on a hub strip: space ``s`` (1..25) is pixel ``first + s - 1``,
    the token lights are single pixels of the same strip, all in the seat's colour."""

    strip: Annotated[int, Field(ge=0)]
    first: Annotated[int, Field(ge=0)]
    plus_25: Annotated[int, Field(ge=0)]
    plus_50: Annotated[int, Field(ge=0)]
    colour: Annotated[list[Channel], Field(min_length=3, max_length=3)]

    def pixels(self) -> list[int]:
        """The seat's pixels: the 25 track pixels (space 1 first), then +25 and +50."""
        return [*range(self.first, self.first + TRACK_LIGHTS), self.plus_25, self.plus_50]


class HubTracksConfig(StrictModel):
    """Score tracks on the hub's addressable LED strips: one per seat, in turn order."""

    brightness: Annotated[float, Field(gt=0, le=1)] = 1.0
    tracks: Annotated[list[HubTrackPixels], Field(min_length=1)]

    @model_validator(mode="after")
    def _pixels_used_once(self) -> HubTracksConfig:
        used: dict[tuple[int, int], str] = {}
        for seat, track in enumerate(self.tracks):
            names = [f"first (space {i + 1})" for i in range(TRACK_LIGHTS)]
            for name, pixel in zip([*names, "plus_25", "plus_50"], track.pixels(), strict=True):
                where = f"tracks[{seat}].{name}"
                if (track.strip, pixel) in used:
                    raise ConfigValueError(
                        where,
                        f"pixel {pixel} of strip {track.strip} is already used by "
                        f"{used[track.strip, pixel]}",
                    )
                used[track.strip, pixel] = where
        return self

    def colour(self, seat: int) -> tuple[int, int, int]:
        """The seat's colour scaled by the brightness."""
        red, green, blue = (round(c * self.brightness) for c in self.tracks[seat].colour)
        return red, green, blue


class PanelConfig(StrictModel):
    """The whole panel file."""

    version: Literal[1]
    buttons: ButtonsConfig | None = None
    led_tracks: LedTracksConfig | None = None
    hub_tracks: HubTracksConfig | None = None

    @model_validator(mode="after")
    def _pins_used_once(self) -> PanelConfig:
        if self.buttons is None and self.led_tracks is None and self.hub_tracks is None:
            raise ConfigValueError("(top level)", "give buttons, led_tracks or hub_tracks")
        if self.led_tracks is not None and self.hub_tracks is not None:
            raise ConfigValueError(
                "hub_tracks",
                "the score tracks are on GPIO (led_tracks) or on the hub (hub_tracks), "
                "not both: remove one section",
            )
        used: dict[int, str] = {}
        for where, pin in self.pins():
            if pin in used:
                raise ConfigValueError(where, f"GPIO {pin} is already used by {used[pin]}")
            used[pin] = where
        return self

    def pins(self) -> list[tuple[str, int]]:
        """Every pin the file uses, with its key path (``buttons.pins.joker``)."""
        found = []
        if self.buttons is not None:
            found += [(f"buttons.pins.{name}", pin) for name, pin in self.buttons.pins]
        if self.led_tracks is not None:
            for seat, track in enumerate(self.led_tracks.tracks):
                at = f"led_tracks.tracks[{seat}]"
                found += [(f"{at}.track[{i}]", pin) for i, pin in enumerate(track.track)]
                found += [(f"{at}.plus_25", track.plus_25), (f"{at}.plus_50", track.plus_50)]
        return found


def load_panel(path: Path | str | None = None) -> PanelConfig:
    """Load and validate a panel file (the reference panel when ``path`` is None)."""
    return load_model(PanelConfig, path if path is not None else REFERENCE_PANEL)
