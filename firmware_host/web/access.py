"""Who may act: the table's screen, phones holding a seat, and staff with the PIN.

* The **screen** is any client whose address is in ``screen_hosts`` (by default the Pi
  itself, where the kiosk browser runs): like the table's buttons, it acts for whoever's
  turn it is, and it is the only client shown the join code.
* A **phone** (when ``phones: true``) takes a player's seat with the game's **join code**
  and gets a token; every later action carries the token and is checked against that seat.
  A new game gets a new code and forgets every seat.
* **Staff** actions need the staff PIN, from any client.

Wrong codes and PINs count against the client's address; after ``max_failures`` of them
the address is locked out for ``lockout`` seconds (on the injected clock).

>>> from firmware_host.web.config import load_web_config
>>> access = Access(load_web_config(), seed=1)
>>> access.seat_of(None, "127.0.0.1", "g1")
'table'
>>> access.seat_of(None, "192.168.1.7", "g1") is None
True
"""

from __future__ import annotations

import hmac
import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from time import monotonic

from firmware_host.i18n import lazy
from firmware_host.web.actions import TABLE_SEAT, Refused
from firmware_host.web.config import WebConfig

JOIN_CODE_DIGITS = 6
"""Digits in a join code."""


@dataclass
class _Strikes:
    count: int = 0
    locked_until: float = 0.0


@dataclass
class _Game:
    id: str
    code: str
    seats: dict[str, str] = field(default_factory=dict)
    """token -> player"""


class Access:
    """Join codes, seats and the staff PIN for one table.

    ``seed`` makes codes and tokens reproducible (tests, demos); without it they come from
    :mod:`secrets`. ``clock`` gives seconds (monotonic) for the lockout.
    """

    def __init__(
        self,
        config: WebConfig,
        seed: int | None = None,
        clock: Callable[[], float] = monotonic,
    ) -> None:
        self.config = config
        self._random: random.Random = (
            random.Random(seed) if seed is not None else secrets.SystemRandom()
        )
        self._clock = clock
        self._game: _Game | None = None
        self._strikes: dict[str, _Strikes] = {}

    def _for(self, game_id: str) -> _Game:
        if self._game is None or self._game.id != game_id:
            code = "".join(self._random.choice("0123456789") for _ in range(JOIN_CODE_DIGITS))
            self._game = _Game(game_id, code)
        return self._game

    def join_code(self, game_id: str) -> str:
        """The join code of game ``game_id`` (a new game gets a new code)."""
        return self._for(game_id).code

    def is_screen(self, host: str) -> bool:
        """True when ``host`` is the table's own screen."""
        return host in self.config.screen_hosts

    def _check_locked(self, host: str) -> None:
        strikes = self._strikes.get(host)
        if strikes is not None and self._clock() < strikes.locked_until:
            raise Refused(
                lazy("too many wrong codes or PINs from this device; try again later"),
                forbidden=True,
            )

    def _strike(self, host: str) -> None:
        strikes = self._strikes.setdefault(host, _Strikes())
        strikes.count += 1
        if strikes.count >= self.config.max_failures:
            strikes.count = 0
            strikes.locked_until = self._clock() + self.config.lockout

    def join(self, game_id: str, players: Sequence[str], seat: str, code: str, host: str) -> str:
        """Seat ``host``'s device as player ``seat`` of game ``game_id``; returns its token.

        Refused when phones may not join, the address is locked out, the code is wrong or
        ``seat`` is not a player of the game.
        """
        if not self.config.phones:
            raise Refused(lazy("phones may not join at this table"), forbidden=True)
        self._check_locked(host)
        game = self._for(game_id)
        if not hmac.compare_digest(code.encode(), game.code.encode()):
            self._strike(host)
            raise Refused(
                lazy("wrong join code (it is shown on the table's screen)"), forbidden=True
            )
        if seat not in players:
            raise Refused(
                lazy("no player {player} in this game", player=repr(seat)), forbidden=True
            )
        token = "".join(self._random.choice("abcdefghijkmnpqrstuvwxyz23456789") for _ in range(32))
        game.seats[token] = seat
        return token

    def seat_of(self, token: str | None, host: str, game_id: str) -> str | None:
        """The seat a client acts from: its token's player, the table for the screen, or
        None (a device that has not joined this game)."""
        if token:
            seat = self._for(game_id).seats.get(token)
            if seat is not None:
                return seat
        return TABLE_SEAT if self.is_screen(host) else None

    def check_pin(self, pin: str, host: str) -> None:
        """Refuse a wrong staff PIN (and count it against ``host``)."""
        self._check_locked(host)
        if not hmac.compare_digest(pin.encode(), self.config.staff_pin.encode()):
            self._strike(host)
            raise Refused(lazy("wrong staff PIN"), forbidden=True)
