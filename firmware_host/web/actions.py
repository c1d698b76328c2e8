"""The page's messages every game shares: reading them, joining, staff, playing again.

Every message is one JSON object whose ``"type"`` names the action (``docs/web.md``); a
game's own seat actions are its package's (Drop It's :mod:`firmware_host.games.dropit.actions`,
the dice games' :mod:`firmware_host.web.dice_actions`), these are every game's::

    {"type": "join", "seat": "Ann", "code": "482913"}
    {"type": "staff", "op": "abort", "pin": "2741"}
    {"type": "staff", "op": "settings", "pin": "2741", "settings": {"jokers": true}}
    {"type": "staff", "op": "new", "pin": "2741", "players": ["Ann", "Ben"],
     "settings": {"edges": "shape", "jokers": false}}
    {"type": "again", "token": "..."}

Any action may carry ``"ref"`` (a short string the reply echoes). :func:`read_message`
turns a message into one of a game's actions or raises
:class:`~firmware_host.errors.InputError` naming the key; a game's check refuses
(:class:`Refused`) what its view does not allow the acting seat.
"""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Annotated, Any, Literal, Protocol, TypeVar

from pydantic import Field, TypeAdapter, ValidationError

from firmware_host.config.board import EdgeFace
from firmware_host.config.loader import StrictModel, validation_error
from firmware_host.errors import InputError, TabletopError
from firmware_host.games.dropit.rules.pieces import Color
from firmware_host.i18n import Text

A = TypeVar("A")

MAX_MESSAGE_BYTES = 4096
"""Longer messages are refused unread."""

TABLE_SEAT = "table"
"""The seat of the table's own screen: like the table's buttons, it acts for whoever's turn
it is (see :class:`~firmware_host.web.access.Access`)."""

Short = Annotated[str, Field(min_length=1, max_length=64)]
PlayerName = Annotated[str, Field(min_length=1, max_length=20, pattern=r"^[^<>&\"]*\S[^<>&\"]*$")]
Token = Annotated[str, Field(max_length=128)]


class ActionBase(StrictModel):
    """What every message may carry: ``ref``, which its reply echoes."""

    ref: Short | None = None


class Join(ActionBase):
    """Take player ``seat`` on this device, with the game's join code."""

    type: Literal["join"]
    seat: Short
    code: Annotated[str, Field(max_length=32)]


class Again(ActionBase):
    """Play again with the same players and settings, once the game is over."""

    type: Literal["again"]
    token: Token | None = None


class StaffOp(StrEnum):
    """What staff may do from the page: ``new`` ends the game and sets up the next
    (``players`` and ``settings``; unset: as in this game)."""

    ABORT = "abort"
    RESYNC = "resync"
    SETTINGS = "settings"
    NEW = "new"


class Settings(StrictModel):
    """Variant settings for the next game (unset keys stay as they are)."""

    edges: EdgeFace | None = Field(default=None, strict=False)
    jokers: bool | None = None


class TeamSetUp(StrictModel):
    """A team of the next game: its name, its members in turn order, its colours (none:
    dealt)."""

    name: PlayerName
    members: Annotated[list[PlayerName], Field(min_length=1, max_length=4)]
    colors: Annotated[
        list[Annotated[Color, Field(strict=False)]], Field(default_factory=list, max_length=4)
    ]


class Staff(ActionBase):
    """A staff action: abort the game, re-sync the board with the sensors, settings, or
    set up the next game (``players`` with their ``colors``, each list empty for dealt
    colours; or two ``teams``)."""

    type: Literal["staff"]
    op: StaffOp = Field(strict=False)
    pin: Annotated[str, Field(max_length=32)]
    settings: Settings | None = None
    players: Annotated[list[PlayerName], Field(min_length=1, max_length=8)] | None = None
    colors: (
        Annotated[
            list[Annotated[list[Annotated[Color, Field(strict=False)]], Field(max_length=4)]],
            Field(max_length=8),
        ]
        | None
    ) = None
    teams: Annotated[list[TeamSetUp], Field(min_length=1, max_length=4)] | None = None


class SeatMessage(Protocol):
    """What the page server reads of any game's seat action: the ``ref`` its reply echoes
    and the seat's ``token`` (Drop It's
    :data:`~firmware_host.games.dropit.actions.SeatAction`, a dice game's
    :data:`~firmware_host.web.dice_actions.DiceAction`)."""

    @property
    def ref(self) -> str | None:
        """What the reply echoes (the sender's own reference), if anything."""
        ...

    @property
    def token(self) -> str | None:
        """The token the seat was given when it joined."""
        ...


_SOURCE = "web message"


def read_message(raw: str | bytes, adapter: TypeAdapter[A]) -> A:
    """Read one message as one of the actions ``adapter`` validates (a union discriminated
    by ``"type"``); InputError naming the key if it is not one of them, well formed."""
    if len(raw) > MAX_MESSAGE_BYTES:
        raise InputError(_SOURCE, "", f"longer than {MAX_MESSAGE_BYTES} bytes")
    try:
        data: Any = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise InputError(_SOURCE, "", f"not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise InputError(_SOURCE, "(top level)", "expected a JSON object with a type")
    kind = data.get("type")
    known = _action_types(adapter)
    if kind not in known:
        raise InputError(
            _SOURCE, "type", f"unknown action {kind!r} (expected one of {', '.join(known)})"
        )
    try:
        return adapter.validate_python(data)
    except ValidationError as exc:
        error = validation_error(_SOURCE, exc)
        where = error.where.split(".", 1)[1] if error.where.startswith(f"{kind}.") else error.where
        raise InputError(_SOURCE, where, error.problem) from None


def _action_types(adapter: TypeAdapter[Any]) -> tuple[str, ...]:
    """The ``type`` values of the actions in ``adapter``'s union, in their order."""
    schema = adapter.json_schema()
    return tuple(schema["discriminator"]["mapping"])


class Refused(TabletopError):
    """An action this device may not take now. ``forbidden``: wrong code, PIN or seat (403);
    otherwise the game is not waiting for it (409)."""

    def __init__(self, message: Text, forbidden: bool = False) -> None:
        super().__init__(message)
        self.forbidden = forbidden
