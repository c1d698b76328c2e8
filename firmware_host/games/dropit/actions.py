"""Drop It's seat actions on the page: reading them and checking them against the view.

Every message is one JSON object whose ``"type"`` names the action (``docs/web.md``); the
messages every game shares (join, staff, again) are :mod:`firmware_host.web.actions`'::

    {"type": "select", "color": "red", "shape": "square", "token": "..."}
    {"type": "confirm", "token": "..."}
    {"type": "joker", "spend": true, "token": "..."}
    {"type": "answer", "question": "q7", "yes": true, "token": "..."}

:func:`parse_action` turns a message into an :data:`Action` or raises
:class:`~firmware_host.errors.InputError` naming the key; :func:`check_action` refuses
(:class:`~firmware_host.web.actions.Refused`) what the view does not allow the acting seat:
only the current player's shapes, only a pending question, only the player asked or
offered the joker.

>>> parse_action('{"type": "answer", "question": "q1", "yes": true}').yes
True
>>> parse_action('{"type": "answer", "question": "q1"}')
Traceback (most recent call last):
...
firmware_host.errors.InputError: web message: yes: required key is missing
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from firmware_host.games.dropit.rules.pieces import Color, Shape
from firmware_host.games.dropit.view import DropItView
from firmware_host.games.dropit.words import PIECE
from firmware_host.i18n import lazy
from firmware_host.web.actions import (
    TABLE_SEAT,
    ActionBase,
    Again,
    Join,
    Refused,
    Short,
    Staff,
    Token,
    read_message,
)


class Select(ActionBase):
    """Choose the shape to drop next."""

    type: Literal["select"]
    color: Color = Field(strict=False)
    shape: Shape = Field(strict=False)
    token: Token | None = None


class Confirm(ActionBase):
    """Confirm the selected shape: it is about to be dropped."""

    type: Literal["confirm"]
    token: Token | None = None


class Joker(ActionBase):
    """Spend (``spend: true``) or decline the joker offered after a broken rule."""

    type: Literal["joker"]
    spend: bool
    token: Token | None = None


class Answer(ActionBase):
    """Answer the referee's pending question ``question`` yes or no."""

    type: Literal["answer"]
    question: Short
    yes: bool
    token: Token | None = None


Action = Join | Select | Confirm | Joker | Answer | Again | Staff
"""Any action the page can send."""

SeatAction = Select | Confirm | Joker | Answer | Again
"""The actions a seat takes (as opposed to joining, and staff actions)."""


_ADAPTER: TypeAdapter[Action] = TypeAdapter(Annotated[Action, Field(discriminator="type")])

def parse_action(raw: str | bytes) -> Action:
    """Read one message; InputError naming the key if it is not a well-formed action."""
    return read_message(raw, _ADAPTER)


def _acts_for(seat: str, players: tuple[str, ...]) -> bool:
    return seat == TABLE_SEAT or seat in players


def check_action(action: SeatAction, view: DropItView, seat: str) -> None:
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
