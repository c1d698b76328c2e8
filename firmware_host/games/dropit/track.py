"""The scoring track and point tokens: exactly what the cardboard (and the LED tracks) show.

The track has a start space and 25 numbered spaces; a marker on space ``p`` after ``k``
trips round the track stands for ``p + 25 k`` points. The rules: "If you earn **more
than 25** points, place your point token with the +25 side face up ... If you earn
**more than 50** points, flip your point token so the +50 side shows. In a two-person or
team game, use your second point token if necessary." So, for a total ``t``:

=========  ==========  =========================  ==========================
total      position    one token                  two tokens
=========  ==========  =========================  ==========================
0          0 (start)   --                         --
1..25      t           --                         --
26..50     t - 25      +25                        +25, --
51..75     t - 50      +50                        +50, --
76..100    t - 75      +50 (25 unshown)           +50, +25
101..125   t - 100     +50 (50 unshown)           +50, +50
over 125   wraps       +50 (rest unshown)         +50, +50 (rest unshown)
=========  ==========  =========================  ==========================

At exactly 25, 50, 75 ... points the marker stands on space 25 and no new token is
placed ("more than"). A player with one token who passes 75 keeps the +50 token and the
marker keeps going round; the track then cannot show the whole total, and
:attr:`TrackState.unshown` says how many points it hides (a multiple of 25), so the
scoreboard can still show the true total. Tokens belong to a colour: the first is the
player's (or team's) first colour, the second its second colour.

>>> track_state(57, (Color.RED,))
TrackState(points=57, position=7, tokens=(Token(color=<Color.RED: 'red'>, face=<TokenFace.PLUS_50: '+50'>),), unshown=0)
"""  # noqa: E501

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from firmware_host.games.dropit.rules.pieces import Color

TRACK_SPACES = 25
"""Numbered spaces on the scoring track (plus the start space, 0)."""


class TokenFace(StrEnum):
    """The side of a point token that shows."""

    PLUS_25 = "+25"
    PLUS_50 = "+50"


@dataclass(frozen=True, slots=True)
class Token:
    """One point token: its colour, and the face that shows (None: not on the track yet)."""

    color: Color
    face: TokenFace | None

    @property
    def value(self) -> int:
        """Points the token stands for (0, 25 or 50)."""
        return {None: 0, TokenFace.PLUS_25: 25, TokenFace.PLUS_50: 50}[self.face]


@dataclass(frozen=True, slots=True)
class TrackState:
    """A score as the track shows it: marker position (0..25), tokens, and points it hides."""

    points: int
    position: int
    tokens: tuple[Token, ...]
    unshown: int

    def to_json(self) -> dict[str, Any]:
        """``{"position", "tokens": [{"color", "face"}], "unshown"}`` (face null when unused)."""
        return {
            "position": self.position,
            "tokens": [
                {"color": str(t.color), "face": None if t.face is None else str(t.face)}
                for t in self.tokens
            ],
            "unshown": self.unshown,
        }

    def describe(self) -> str:
        """E.g. ``space 7, red token +50`` or ``start space``."""
        where = f"space {self.position}" if self.position else "start space"
        shown = [f"{t.color} token {t.face}" for t in self.tokens if t.face is not None]
        if self.unshown:
            shown.append(f"{self.unshown} points the track cannot show")
        return ", ".join([where, *shown])


def track_state(points: int, token_colors: tuple[Color, ...]) -> TrackState:
    """Where ``points`` put the marker and tokens of a player owning ``token_colors``."""
    if points < 0:
        raise ValueError(f"a score cannot be negative, got {points}")
    if points == 0:
        return TrackState(0, 0, tuple(Token(c, None) for c in token_colors), 0)
    laps, rest = divmod(points - 1, TRACK_SPACES)
    position = rest + 1
    quarters = laps
    tokens = []
    for color in token_colors:
        shown = min(quarters, 2)
        quarters -= shown
        face = (None, TokenFace.PLUS_25, TokenFace.PLUS_50)[shown]
        tokens.append(Token(color, face))
    return TrackState(points, position, tuple(tokens), quarters * TRACK_SPACES)
