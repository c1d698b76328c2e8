"""The page's actions: reading untrusted messages and checking them against the view.

Every message is one JSON object whose ``"type"`` names the action (``docs/web.md``)::

    {"type": "join", "seat": "Ann", "code": "482913"}
    {"type": "select", "color": "red", "shape": "square", "token": "..."}
    {"type": "confirm", "token": "..."}
    {"type": "joker", "spend": true, "token": "..."}
    {"type": "answer", "question": "q7", "yes": true, "token": "..."}
    {"type": "staff", "op": "abort", "pin": "2741"}
    {"type": "staff", "op": "settings", "pin": "2741", "settings": {"jokers": true}}
    {"type": "staff", "op": "new", "pin": "2741", "players": ["Ann", "Ben"],
     "settings": {"edges": "shape", "jokers": false}}
    {"type": "again", "token": "..."}

Any action may carry ``"ref"`` (a short string the reply echoes). :func:`parse_action`
turns a message into an :class:`Action` or raises :class:`~firmware_host.errors.InputError`
naming the key; :func:`check_action` refuses (:class:`Refused`) what the view does not
allow the acting seat: only the current player's shapes, only a pending question, only
the player asked or offered the joker.

>>> parse_action('{"type": "answer", "question": "q1", "yes": true}').yes
True
>>> parse_action('{"type": "answer", "question": "q1"}')
Traceback (most recent call last):
...
firmware_host.errors.InputError: web message: yes: required key is missing
"""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Annotated, Any, Literal, TypeVar

from pydantic import Field, TypeAdapter, ValidationError

from firmware_host.config.board import EdgeFace
from firmware_host.config.loader import StrictModel, validation_error
from firmware_host.errors import InputError, TabletopError
from firmware_host.i18n import Text, lazy
from firmware_host.rules.pieces import Color, Shape
from firmware_host.web.view import TableView
from firmware_host.web.words import PIECE

A = TypeVar("A")

MAX_MESSAGE_BYTES = 4096
"""Longer messages are refused unread."""

TABLE_SEAT = "table"
"""The seat of the table's own screen: like the table's buttons, it acts for whoever's turn
it is (see :class:`~firmware_host.web.access.Access`)."""

Short = Annotated[str, Field(min_length=1, max_length=64)]
PlayerName = Annotated[str, Field(min_length=1, max_length=20, pattern=r"^[^<>&\"]*\S[^<>&\"]*$")]
Token = Annotated[str, Field(max_length=128)]


class _Action(StrictModel):
    ref: Short | None = None


class Join(_Action):
    """Take player ``seat`` on this device, with the game's join code."""

    type: Literal["join"]
    seat: Short
    code: Annotated[str, Field(max_length=32)]


class Select(_Action):
    """Choose the shape to drop next."""

    type: Literal["select"]
    color: Color = Field(strict=False)
    shape: Shape = Field(strict=False)
    token: Token | None = None


class Confirm(_Action):
    """Confirm the selected shape: it is about to be dropped."""

    type: Literal["confirm"]
    token: Token | None = None


class Joker(_Action):
    """Spend (``spend: true``) or decline the joker offered after a broken rule."""

    type: Literal["joker"]
    spend: bool
    token: Token | None = None


class Answer(_Action):
    """Answer the referee's pending question ``question`` yes or no."""

    type: Literal["answer"]
    question: Short
    yes: bool
    token: Token | None = None


class Again(_Action):
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


class Staff(_Action):
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


Action = Join | Select | Confirm | Joker | Answer | Again | Staff
"""Any action the page can send."""

SeatAction = Select | Confirm | Joker | Answer | Again
"""The actions a seat takes (as opposed to joining, and staff actions)."""

_ADAPTER: TypeAdapter[Action] = TypeAdapter(Annotated[Action, Field(discriminator="type")])
_SOURCE = "web message"


def parse_action(raw: str | bytes) -> Action:
    """Read one message; InputError naming the key if it is not a well-formed action."""
    return read_message(raw, _ADAPTER)


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


def _acts_for(seat: str, players: tuple[str, ...]) -> bool:
    return seat == TABLE_SEAT or seat in players


def check_action(action: SeatAction, view: TableView, seat: str) -> None:
    """Refuse ``action`` from ``seat`` (a player's name, or :data:`TABLE_SEAT`) unless the
    game in ``view`` is waiting for exactly that from that seat."""
    current = view.current_player
    if isinstance(action, Answer):
        question = view.question
        if question is None or question.id != action.question:
            raise Refused(lazy("no pending question {question}", question=repr(action.question)))
        if not _acts_for(seat, (question.player,)):
            raise Refused(
                lazy("the question is for {player}, not {seat}", player=question.player, seat=seat),
                forbidden=True,
            )
        return
    if isinstance(action, Joker):
        drop = view.last_drop
        if not view.joker_offer or drop is None:
            raise Refused(lazy("no joker is on offer"))
        if not _acts_for(seat, view.joker_players):
            raise Refused(
                lazy("the joker is {owner}'s, not {seat}'s", owner=drop.competitor, seat=seat),
                forbidden=True,
            )
        return
    if isinstance(action, Again):
        if current is not None or view.joker_offer:
            raise Refused(lazy("the game is not over yet"))
        if not _acts_for(seat, view.players):
            raise Refused(lazy("{seat} did not play this game", seat=seat), forbidden=True)
        return
    if current is None:
        raise Refused(lazy("the game is over"))
    if not _acts_for(seat, (current,)):
        raise Refused(
            lazy("it is {player}'s turn, not {seat}'s", player=current, seat=seat), forbidden=True
        )
    if isinstance(action, Select):
        standing = view.current_standing
        if standing is None or standing.supply.count(action.color, action.shape) == 0:
            raise Refused(
                lazy(
                    "{player} has no {piece} left to drop",
                    player=current,
                    piece=PIECE[action.color, action.shape],
                )
            )
    elif view.selection is None or view.selection.player != current:
        raise Refused(lazy("{player} has not selected a shape to confirm", player=current))
