"""What happens in a game on the GOTTA2 puzzle sheet, as events with a stable JSON form.

>>> PiecePlaced(player="ana", piece="3-1", row=0, column=2).to_json()
{'type': 'piece_placed', 'player': 'ana', 'piece': '3-1', 'row': 0, 'column': 2}
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware_host.games.event_json import EventReader, JsonEvent, event_reader


@dataclass(frozen=True)
class GameStarted(JsonEvent):
    """A new game: the players in seating order, clockwise; the first one starts.

    The seed is the one the table's simulated players drew their moves with, kept so a
    journal says how its game came about; the rules themselves draw no random numbers.
    """

    TYPE = "game_started"
    players: tuple[str, ...]
    seed: int = 0


@dataclass(frozen=True)
class PieceChosen(JsonEvent):
    """Step 1: the current player chooses ``piece`` from the piece area; every sheet marks it.

    If the piece fits nowhere on their board, step 2 cannot be done: the end comes.
    """

    TYPE = "piece_chosen"
    player: str
    piece: str


@dataclass(frozen=True)
class PiecePlaced(JsonEvent):
    """Step 2: the current player shades the piece they chose on their board.

    ``row`` and ``column`` place the top-left corner of the piece's bounding box (the
    piece as printed: it is never rotated or flipped). Without a :class:`PieceChosen`
    before it in the turn, it chooses the piece too (steps 1 and 2 at once: the journals
    written before the choice was its own event, and the page's one-tap move).
    """

    TYPE = "piece_placed"
    player: str
    piece: str
    row: int
    column: int


@dataclass(frozen=True)
class BonusPiecePlaced(JsonEvent):
    """The current player shades the bonus piece they unlocked, like :class:`PiecePlaced`."""

    TYPE = "bonus_piece_placed"
    player: str
    piece: str
    row: int
    column: int


@dataclass(frozen=True)
class BonusPieceSkipped(JsonEvent):
    """The current player does not place the bonus piece they reached (the text: they *can*
    place it); it is not placed later."""

    TYPE = "bonus_piece_skipped"
    player: str
    piece: str


Gotta2Event = GameStarted | PieceChosen | PiecePlaced | BonusPiecePlaced | BonusPieceSkipped
"""Any event of a puzzle sheet game."""

read_event: EventReader[Gotta2Event] = event_reader(
    [GameStarted, PieceChosen, PiecePlaced, BonusPiecePlaced, BonusPieceSkipped]
)
"""Read any puzzle sheet event from its JSON form (an ``InputError`` names a malformed key)."""
