"""The dice games' page actions: reading untrusted messages and checking them against the view.

Every message is one JSON object whose ``"type"`` names the action (``docs/dice-games.md``)::

    {"type": "join", "seat": "Ann", "code": "482913"}
    {"type": "move", "player": "Ann", "move": {"type": "claim", "disc": 17}, "token": "..."}
    {"type": "roll", "token": "..."}
    {"type": "staff", "op": "abort", "pin": "2741"}

``move`` is the game's own move (each game's docs list them; the game checks it); ``player``
may be left out by a joined phone (it acts as its seat) and is required from the table's
screen, which acts for any waiting player. ``roll`` throws the simulator's dice; at a real
table the players throw the dice in the tray. :func:`check_dice_action` refuses
(:class:`~firmware_host.web.actions.Refused`) what the view does not allow the acting seat.

>>> parse_dice_action('{"type": "move", "move": {"type": "pass"}}').move
{'type': 'pass'}
>>> parse_dice_action('{"type": "move"}')
Traceback (most recent call last):
...
firmware_host.errors.InputError: web message: move: required key is missing
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

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
from firmware_host.web.dice_view import DiceView


class Move(ActionBase):
    """A player's move in the game (``move``: the game's own JSON)."""

    type: Literal["move"]
    player: Short | None = None
    move: dict[str, Any]
    token: Token | None = None


class Roll(ActionBase):
    """Throw the dice the game waits for (the simulator's dice)."""

    type: Literal["roll"]
    token: Token | None = None


DiceAction = Move | Roll | Again
"""The actions a seat takes in a dice game (``again``: play again once it is over)."""

_ADAPTER: TypeAdapter[Join | Staff | DiceAction] = TypeAdapter(
    Annotated[Join | Staff | Move | Roll | Again, Field(discriminator="type")]
)


def parse_dice_action(raw: str | bytes) -> Join | Staff | DiceAction:
    """Read one message; InputError naming the key if it is not a well-formed action."""
    return read_message(raw, _ADAPTER)


def check_dice_action(action: DiceAction, view: DiceView, seat: str) -> None:
    """Refuse ``action`` from ``seat`` (a player's name, or :data:`TABLE_SEAT`) unless the
    game in ``view`` waits for it from that seat."""
    if isinstance(action, Again):
        if not view.data["over"]:
            raise Refused(lazy("the game is not over yet"))
        if seat != TABLE_SEAT and seat not in view.players:
            raise Refused(lazy("{seat} did not play this game", seat=seat), forbidden=True)
        return
    if isinstance(action, Roll):
        roll = view.roll
        if roll is None:
            raise Refused(lazy("the game is not waiting for a throw"))
        if seat not in (TABLE_SEAT, roll["by"]):
            raise Refused(
                lazy("{player} throws the dice, not {seat}", player=roll["by"], seat=seat),
                forbidden=True,
            )
        if not view.virtual_dice:
            raise Refused(lazy("{player}: throw the dice in the tray", player=roll["by"]))
        return
    player = action.player or seat
    if player == TABLE_SEAT:
        raise Refused(lazy("the table's screen must name the player it moves for"))
    if seat != TABLE_SEAT and player != seat:
        raise Refused(
            lazy("this device plays as {seat}, not {player}", seat=seat, player=player),
            forbidden=True,
        )
    if player not in view.players:
        raise Refused(lazy("no player {player} in this game", player=repr(player)), forbidden=True)
    if player not in view.waiting_for:
        raise Refused(lazy("the game is not waiting for a move from {player}", player=player))
