"""The referee's yes/no questions in the players' words, and what each lights up on the board.

The eye names what it asks by a feature (``touch:<piece id>``, ``edge:<side>``: the parts
of that side showing the dropped piece's own symbol, ``height``, ``level:<n>``,
``bonus:<k>``: docs/eye.md). Players see neither ids nor
millimetres: the page draws the dropped piece where the referee believes it rests (a
ghost) and lights up the thing asked about (a :class:`Mark`), and the words point at it.
The words are a :class:`~firmware_host.i18n.Message`: each reader sees them in their language.

>>> from firmware_host.config.board import load_board
>>> from firmware_host.games.dropit.rules.pieces import Color, Piece, Pose, Shape
>>> board = load_board()
>>> square = Piece("t5", Color.YELLOW, Shape.SQUARE, Pose(150.0, 40.0, 0.0))
>>> from firmware_host.i18n import translator
>>> words, mark = plain_question("bonus:0", square, (), board)
>>> words(translator("en"))
'Does any part of the yellow square lie on the lit-up +1 circle, low on the left?'
>>> words(translator("de"))
'Liegt das gelbe Quadrat auch nur teilweise auf dem hervorgehobenen +1-Kreis unten links?'
>>> mark.to_json()
{'kind': 'circle', 'ref': '0'}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from firmware_host.config.board import Board, Side
from firmware_host.games.dropit.rules.pieces import Piece
from firmware_host.games.dropit.words import LIT_UP, SUBJECT
from firmware_host.i18n import Message, lazy


@dataclass(frozen=True, slots=True)
class Mark:
    """What a question lights up: ``kind`` ``piece`` (``ref`` its id), ``circle`` (the
    index of the board's bonus circle), ``edge`` (the side: its segments showing the
    dropped piece's own symbol), ``level`` (the level number: the line under it) or
    ``top`` (the drop zone's top line)."""

    kind: str
    ref: str = ""

    def to_json(self) -> dict[str, Any]:
        """``{"kind", "ref"}``."""
        return {"kind": self.kind, "ref": self.ref}


_WHERE = (
    (lazy("low on the left"), lazy("low in the middle"), lazy("low on the right")),
    (
        lazy("halfway up on the left"),
        lazy("halfway up in the middle"),
        lazy("halfway up on the right"),
    ),
    (lazy("high on the left"), lazy("high in the middle"), lazy("high on the right")),
)

def where(board: Board, x: float, y: float) -> Message:
    """Where on the board a point is, in words ("low on the left", "high in the middle")."""
    across = min(2, max(0, int(3 * x / board.width)))
    up = min(2, max(0, int(3 * y / board.height)))
    return _WHERE[up][across]


def plain_question(
    feature: str, dropped: Piece, pieces: Sequence[Piece], board: Board
) -> tuple[Message | None, Mark | None]:
    """The words for the eye's ``feature`` about ``dropped`` (``pieces``: the others on
    the board) and what they light up; an unknown feature gives ``(None, None)``."""
    name = SUBJECT[dropped.color, dropped.shape]
    kind, _, arg = feature.partition(":")
    if kind == "touch":
        other = next((p for p in pieces if p.id == arg), None)
        if other is None:
            return None, None
        lit = LIT_UP[other.color, other.shape]
        twins = [p for p in pieces if (p.color, p.shape) == (other.color, other.shape)]
        if len(twins) > 1:
            place = where(board, other.pose.x, other.pose.y)
            words = lazy(
                "Is {piece} touching {other}, {place}?", piece=name, other=lit, place=place
            )
        else:
            words = lazy("Is {piece} touching {other}?", piece=name, other=lit)
        return words, Mark("piece", arg)
    if kind == "edge" and arg in tuple(Side):
        return _edge_question(arg, name), Mark("edge", arg)
    if kind == "height":
        return lazy("Does {piece} stick out above the lit-up top line?", piece=name), Mark("top")
    if kind == "bonus" and arg.isdigit() and int(arg) < len(board.bonus_circles):
        circle = board.bonus_circles[int(arg)]
        words = lazy(
            "Does any part of {piece} lie on the lit-up +{points} circle, {place}?",
            piece=name,
            points=circle.points,
            place=where(board, circle.x, circle.y),
        )
        return words, Mark("circle", arg)
    if kind == "level" and arg.isdigit():
        words = lazy(
            "Does any part of {piece} reach level {level} (above the lit-up line) or higher?",
            piece=name,
            level=int(arg),
        )
        return words, Mark("level", arg)
    return None, None


def _edge_question(side: str, name: Message) -> Message:
    """Whether the piece touches the side's lit-up parts: those showing its own symbol,
    which the edge rule turns on (:func:`~firmware_host.games.dropit.svg.board_svg` lights them)."""
    if side == "left":
        return lazy("Does {piece} touch a lit-up part of the left edge?", piece=name)
    if side == "right":
        return lazy("Does {piece} touch a lit-up part of the right edge?", piece=name)
    return lazy("Does {piece} touch a lit-up part of the bottom edge?", piece=name)
