"""How a score track state maps to lights, and the frames of the short animations.

Each seat has 25 track lights (space 1 first) and two token lights, "+25" and "+50".

* **Track**: a bar. Position ``p`` lights the first ``p`` lights; the start space (0)
  lights none. A bar reads from across a room better than a single marker, and shows
  the same number.
* **Tokens**: the token lights show the points the tokens stand for, as the cardboard
  tokens do: +25 lights "+25"; +50 lights "+50"; a two-token player's +50 and +25 (75)
  light both; two +50 tokens (100) make "+50" blink (:attr:`Light.BLINK`) with "+25" off.
  Points the cardboard track cannot show either (a one-token player past 75:
  :attr:`~firmware_host.games.dropit.track.TrackState.unshown`) are not shown here
  either; the scoreboard page shows the total.

>>> from firmware_host.games.dropit.track import track_state
>>> from firmware_host.games.dropit.rules.pieces import Color
>>> lights = lights_for(track_state(57, (Color.RED,)))
>>> sum(lights.track), lights.plus_25, lights.plus_50
(7, <Light.OFF: 'off'>, <Light.ON: 'on'>)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from firmware_host.games.dropit.track import TRACK_SPACES, TrackState


class Light(StrEnum):
    """A token light's state."""

    OFF = "off"
    ON = "on"
    BLINK = "blink"

    def lit(self, blink_on: bool) -> bool:
        """Whether the light is lit now (``blink_on``: a blinking light's on phase)."""
        return self is Light.ON or (self is Light.BLINK and blink_on)


@dataclass(frozen=True, slots=True)
class TrackLights:
    """One seat's lights: ``track`` (25 booleans, space 1 first) and the two token lights."""

    track: tuple[bool, ...]
    plus_25: Light
    plus_50: Light

    @classmethod
    def uniform(cls, lit: bool) -> TrackLights:
        """Every light on, or every light off."""
        token = Light.ON if lit else Light.OFF
        return cls((lit,) * TRACK_SPACES, token, token)

    @property
    def blinking(self) -> bool:
        """True when a light blinks."""
        return Light.BLINK in (self.plus_25, self.plus_50)


DARK = TrackLights.uniform(False)
"""A seat with every light off (no player in it)."""

_TOKEN_LIGHTS = {
    0: (Light.OFF, Light.OFF),
    25: (Light.ON, Light.OFF),
    50: (Light.OFF, Light.ON),
    75: (Light.ON, Light.ON),
    100: (Light.OFF, Light.BLINK),
}


def lights_for(state: TrackState) -> TrackLights:
    """The lights that show ``state`` exactly (see the module's mapping)."""
    plus_25, plus_50 = _TOKEN_LIGHTS[sum(token.value for token in state.tokens)]
    bar = tuple(space <= state.position for space in range(1, TRACK_SPACES + 1))
    return TrackLights(bar, plus_25, plus_50)


class Animation(StrEnum):
    """The short animations a seat's track plays over its state."""

    POINTS_GAINED = "points_gained"
    RULE_BROKEN = "rule_broken"
    WINNER = "winner"


FRAME_SECONDS: dict[Animation, float] = {
    Animation.POINTS_GAINED: 0.04,
    Animation.RULE_BROKEN: 0.15,
    Animation.WINNER: 0.25,
}
"""How long each frame of an animation shows."""


def frames(animation: Animation, lights: TrackLights) -> tuple[TrackLights, ...]:
    """The frames of ``animation`` on a seat showing ``lights`` (each shows for
    :data:`FRAME_SECONDS`; the state itself is shown again after the last).

    * points gained: the bar fills up to the state's position, one light per frame,
      the token lights as in the state (at most 25 frames: one second);
    * rule broken: every light of the seat flashes three times (0.9 s);
    * winner: every light of the seat flashes six times (3 s).
    """
    if animation is Animation.POINTS_GAINED:
        lit = sum(lights.track)
        return tuple(
            TrackLights(tuple(i < k for i in range(TRACK_SPACES)), lights.plus_25, lights.plus_50)
            for k in range(1, lit + 1)
        )
    flashes = 3 if animation is Animation.RULE_BROKEN else 6
    return (TrackLights.uniform(True), DARK) * flashes
