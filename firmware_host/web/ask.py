"""The referee's yes/no questions in the players' words, and what each lights up on the board.

The eye names what it asks by a feature (``touch:<piece id>``, ``edge:<side>``,
``height``, ``level:<n>``, ``bonus:<k>``: docs/eye.md). Players see neither ids nor
millimetres: the page draws the dropped piece where the referee believes it rests (a
ghost) and lights up the thing asked about (a :class:`Mark`), and the words point at it.

>>> from firmware_host.config.board import load_board
>>> from firmware_host.rules.pieces import Color, Piece, Pose, Shape
>>> board = load_board()
>>> square = Piece("t5", Color.YELLOW, Shape.SQUARE, Pose(150.0, 40.0, 0.0))
>>> words, mark = plain_question("bonus:0", square, (), board)
>>> words
'Does any part of the yellow square lie on the lit-up +1 circle, low on the left?'
>>> mark.to_json()
{'kind': 'circle', 'ref': '0'}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from firmware_host.config.board import Board
from firmware_host.rules.pieces import Piece


@dataclass(frozen=True, slots=True)
class Mark:
    """What a question lights up: ``kind`` ``piece`` (``ref`` its id), ``circle`` (the
    index of the board's bonus circle), ``edge`` (the side), ``level`` (the level number:
    the line under it) or ``top`` (the drop zone's top line)."""

    kind: str
    ref: str = ""

    def to_json(self) -> dict[str, Any]:
        """``{"kind", "ref"}``."""
        return {"kind": self.kind, "ref": self.ref}


def where(board: Board, x: float, y: float) -> str:
    """Where on the board a point is, in words ("low on the left", "high in the middle")."""
    across = ("on the left", "in the middle", "on the right")[min(2, int(3 * x / board.width))]
    up = ("low", "halfway up", "high")[min(2, max(0, int(3 * y / board.height)))]
    return f"{up} {across}"


def plain_question(
    feature: str, dropped: Piece, pieces: Sequence[Piece], board: Board
) -> tuple[str, Mark | None]:
    """The words for the eye's ``feature`` about ``dropped`` (``pieces``: the others on
    the board) and what they light up; an unknown feature gives ``("", None)``."""
    name = f"the {dropped.describe()}"
    kind, _, arg = feature.partition(":")
    if kind == "touch":
        other = next((p for p in pieces if p.id == arg), None)
        if other is None:
            return "", None
        twins = [p for p in pieces if (p.color, p.shape) == (other.color, other.shape)]
        place = f", {where(board, other.pose.x, other.pose.y)}" if len(twins) > 1 else ""
        return f"Is {name} touching the lit-up {other.describe()}{place}?", Mark("piece", arg)
    if kind == "edge" and arg in ("left", "right", "bottom"):
        return f"Does {name} touch the lit-up {arg} edge?", Mark("edge", arg)
    if kind == "height":
        return f"Does {name} stick out above the lit-up top line?", Mark("top")
    if kind == "bonus" and arg.isdigit() and int(arg) < len(board.bonus_circles):
        circle = board.bonus_circles[int(arg)]
        place = where(board, circle.x, circle.y)
        return (
            f"Does any part of {name} lie on the lit-up +{circle.points} circle, {place}?",
            Mark("circle", arg),
        )
    if kind == "level" and arg.isdigit():
        return (
            f"Does any part of {name} reach level {arg} (above the lit-up line) or higher?",
            Mark("level", arg),
        )
    return "", None
