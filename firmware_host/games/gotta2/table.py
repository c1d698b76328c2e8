"""The GOTTA2 puzzle sheet game at the table: :class:`Gotta2Table`, the service's adapter.

No dice: the current player chooses a piece of the piece area and places it on their own
board, then may place any bonus piece they reached. A move is the JSON a page sends
(``docs/games/gotta2.md``, "At the table")::

    {"type": "choose", "piece": "3-1"}
    {"type": "place", "piece": "3-1", "row": 0, "column": 2}
    {"type": "bonus", "piece": "B5", "row": 4, "column": 0}
    {"type": "skip", "piece": "B5"}

``place`` without a ``choose`` before it chooses the piece too. ``row``/``column`` place the
top-left corner of the piece's bounding box, as in the engine's events. The view's ``game``
part lists every piece the current player may choose with its legal spots (none: it fits
nowhere, and choosing it brings the end), so the page offers only those.

>>> game = Gotta2Table.replay([Gotta2Table.first_event(Setup(players=("ana", "ben")))])
>>> event = game.move_event("ana", {"type": "place", "piece": "2-1", "row": 0, "column": 0})
>>> event
{'type': 'piece_placed', 'player': 'ana', 'piece': '2-1', 'row': 0, 'column': 0}
>>> game = game.apply(event)
>>> game.view()["waiting_for"], game.view()["scores"]
(['ben'], {'ana': 8, 'ben': 0})
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from firmware_host.errors import IllegalMove, InputError
from firmware_host.games.gotta2.engine import Gotta2Game, Move, replay
from firmware_host.games.gotta2.events import (
    BonusPiecePlaced,
    BonusPieceSkipped,
    GameStarted,
    PieceChosen,
    PiecePlaced,
    read_event,
)
from firmware_host.games.gotta2.rectangle import Rectangle
from firmware_host.games.gotta2.sheet import Cell, Piece, Sheet, load_sheet
from firmware_host.games.table_game import EventJson, Roll, Setup
from firmware_host.i18n import Listed, Message, Say, lazy, lazy_p

MAX_PLAYERS = 6
"""The most players a table seats for this game (the rules set no limit; the page shows
every board, and six still fit a 1080p screen)."""

MOVE_KEYS: dict[str, tuple[str, ...]] = {
    "choose": ("type", "piece"),
    "place": ("type", "piece", "row", "column"),
    "bonus": ("type", "piece", "row", "column"),
    "skip": ("type", "piece"),
}
"""A move's ``type`` and its keys."""


@cache
def shipped_sheet() -> Sheet:
    """The sheet the table plays on (``config/games/puzzlesheet.yaml``), loaded once."""
    return load_sheet()


def read_move(seat: str, move: Any) -> Move:
    """The event ``move`` from player ``seat`` asks for; its rules are not checked yet.

    A malformed move is an :class:`InputError` naming the key:

    >>> read_move("ana", {"type": "choose", "piece": "3-1"})
    PieceChosen(player='ana', piece='3-1')
    >>> read_move("ana", {"type": "place", "piece": "3-1", "row": 0, "column": 2})
    PiecePlaced(player='ana', piece='3-1', row=0, column=2)
    >>> read_move("ana", {"type": "place", "piece": "3-1", "row": "0", "column": 2})
    Traceback (most recent call last):
    ...
    firmware_host.errors.InputError: move: row: expected a whole number, got '0'
    """
    if not isinstance(move, Mapping):
        raise InputError("move", "(top level)", "expected a JSON object")
    kind = move.get("type")
    if not isinstance(kind, str) or kind not in MOVE_KEYS:
        kinds = ", ".join(repr(k) for k in MOVE_KEYS)
        if "type" not in move:
            raise InputError("move", "type", f"missing (one of {kinds})")
        raise InputError("move", "type", f"expected one of {kinds}, got {kind!r}")
    keys = MOVE_KEYS[kind]
    for key in move:
        if key not in keys:
            raise InputError("move", str(key), f"unknown key (a {kind} move has {', '.join(keys)})")
    for key in keys:
        if key not in move:
            raise InputError("move", key, "missing")
    piece = move["piece"]
    if not isinstance(piece, str) or not piece:
        raise InputError("move", "piece", f"expected a piece id such as '3-1', got {piece!r}")
    if kind == "choose":
        return PieceChosen(seat, piece)
    if kind == "skip":
        return BonusPieceSkipped(seat, piece)
    for key in ("row", "column"):
        if type(move[key]) is not int:
            raise InputError("move", key, f"expected a whole number, got {move[key]!r}")
    event = PiecePlaced if kind == "place" else BonusPiecePlaced
    return event(seat, piece, move["row"], move["column"])


def move_json(event: Move) -> dict[str, Any]:
    """The move a page sends for ``event`` (the inverse of :func:`read_move`)."""
    if isinstance(event, PieceChosen):
        return {"type": "choose", "piece": event.piece}
    if isinstance(event, BonusPieceSkipped):
        return {"type": "skip", "piece": event.piece}
    kind = "place" if isinstance(event, PiecePlaced) else "bonus"
    return {"type": kind, "piece": event.piece, "row": event.row, "column": event.column}


TITLE_WORDS = lazy_p("game name", "GOTTA2 puzzle sheet")
"""The game's name on the page: GOTTA2 is the name, "puzzle sheet" says what it is."""


@dataclass(frozen=True)
class Gotta2Table:
    """A GOTTA2 puzzle sheet game in progress, as the table service drives it
    (:class:`~firmware_host.games.table_game.TableGame`)."""

    game: Gotta2Game

    KIND: ClassVar[str] = "gotta2"
    TITLE: ClassVar[str] = str(TITLE_WORDS)
    VARIANTS: ClassVar[tuple[str, ...]] = ()
    DICE: ClassVar[int] = 0

    @classmethod
    def first_event(cls, setup: Setup) -> EventJson:
        """``game_started`` with the players and the seed; ``ValueError`` names a bad setup."""
        if setup.variant is not None:
            raise ValueError(f"{cls.TITLE} has no variants, got {setup.variant!r}")
        players = setup.players
        if not 1 <= len(players) <= MAX_PLAYERS:
            raise ValueError(
                lazy(
                    "{game} is for {least} to {most} players, got {count}",
                    game=cls.TITLE,
                    least=1,
                    most=MAX_PLAYERS,
                    count=len(players),
                )
            )
        if len(set(players)) != len(players) or not all(p.strip() for p in players):
            raise ValueError(
                lazy(
                    "player names must be distinct and not blank, got {players}",
                    players=str(list(players)),
                )
            )
        return GameStarted(players=players, seed=setup.seed).to_json()

    @classmethod
    def replay(cls, events: Sequence[EventJson]) -> Gotta2Table:
        """The game after ``events``; a malformed event is an :class:`InputError` naming its
        index and key, an illegal one an :class:`IllegalMove`."""
        read = [read_event(event, f"event {i}") for i, event in enumerate(events)]
        return cls(replay(shipped_sheet(), read))

    def apply(self, event: EventJson) -> Gotta2Table:
        """The game after one more event (raises like :meth:`replay`; ``self`` unchanged)."""
        return Gotta2Table(self.game.apply(read_event(event)))

    @property
    def players(self) -> tuple[str, ...]:
        """The players, in seating order."""
        return self.game.players

    @property
    def over(self) -> bool:
        """True once the end came and the final round has been played."""
        return self.game.over

    def roll(self) -> Roll | None:
        """Always ``None``: the game has no dice."""
        return None

    def dice_event(self, faces: Sequence[int]) -> EventJson:
        """Never valid: the game waits for no throw (raises :class:`IllegalMove`)."""
        raise IllegalMove(f"{self.TITLE} has no dice: a throw of {list(faces)} is not read")

    def move_event(self, seat: str, move: Mapping[str, Any]) -> EventJson:
        """The event for ``move`` from player ``seat``, checked against the rules.

        Malformed: :class:`InputError` naming the key; against the rules (not their turn, a
        used piece, a piece other than the one chosen, a spot off the board or on shaded
        cells, a bonus piece not reached):
        :class:`IllegalMove` naming the player and the rule.
        """
        event = read_move(seat, move)
        self.game.apply(event)
        return event.to_json()

    def auto_move(self, player: str, rng: random.Random) -> Mapping[str, Any] | None:
        """A legal move drawn by ``rng`` when it is ``player``'s turn, else ``None``.

        A simulated player chooses a piece that fits when there is one (choosing one that
        fits nowhere brings the end) and always places a bonus piece it reached.
        """
        game = self.game
        if self.over or player != game.current:
            return None
        moves = game.legal_moves()
        if isinstance(moves[0], PieceChosen):
            fitting = [m for m in moves if game.placements(player, m.piece)]
            moves = tuple(fitting) or moves
        elif game.pending_bonus:
            moves = tuple(m for m in moves if isinstance(m, BonusPiecePlaced))
        return move_json(rng.choice(moves))

    def view(self, say: Say = str) -> dict[str, Any]:
        """The common view keys (``firmware_host.games.table_game``) and the ``game`` part:
        the sheet, every player's board and score, and the current player's legal spots;
        the words said by ``say`` (English by default)."""
        game = self.game
        return {
            "kind": self.KIND,
            "title": say(TITLE_WORDS),
            "players": list(game.players),
            "scores": {p: game.score(p).points for p in game.players},
            "score_label": say(lazy_p("score", "points")),
            "waiting_for": [] if game.over else [game.current],
            "roll": None,
            "status": say(self._status()),
            "over": game.over,
            "winners": list(game.winners()),
            "game": self._game_part(),
        }

    def _status(self) -> Message:
        game = self.game
        if game.over:
            scores = Listed(
                tuple(
                    lazy("{player} {points}", player=p, points=game.score(p).points)
                    for p in game.scoring_order()
                )
            )
            return lazy("{why}: game over. Scoring round: {scores}", why=self._why(), scores=scores)
        player = game.current
        if game.pending_bonus:
            turn = lazy(
                "{player} reached a bonus piece: place {piece} or skip it",
                player=player,
                piece=game.pending_bonus[0],
            )
        elif game.held is not None:
            turn = lazy("{player} chose {piece}: place it", player=player, piece=game.held)
        else:
            turn = lazy("{player}'s turn: choose a piece and place it", player=player)
        if game.final_round:
            return lazy("Final round ({why}): {turn}", why=self._why(), turn=turn)
        return turn

    def _why(self) -> Message:
        """Why the game ends (it is in its final round, or over)."""
        game = self.game
        piece = game.end_piece
        if piece is None:
            return lazy("{player} had no piece left to choose", player=game.ended_by)
        if piece in {b.id for b in game.sheet.bonus_pieces}:
            return lazy(
                "{player} cannot place bonus piece {piece}", player=game.ended_by, piece=piece
            )
        return lazy("{player} cannot place piece {piece}", player=game.ended_by, piece=piece)

    def _game_part(self) -> dict[str, Any]:
        game, sheet = self.game, self.game.sheet
        players = len(game.players)
        return {
            "board": {"rows": sheet.board.rows, "columns": sheet.board.columns},
            "bonus_track": sheet.bonus_track,
            "frames": [
                {
                    "frame": frame.frame,
                    "bonus": frame.bonus,
                    "pieces": [
                        _piece(p)
                        | {"marks": game.marks(p.id), "capacity": sheet.capacity(p.id, players)}
                        for p in frame.pieces
                    ],
                }
                for frame in sheet.frames
            ],
            "bonus_pieces": [_piece(b) | {"at": b.at} for b in sheet.bonus_pieces],
            "sheets": {p: self._sheet_part(p) for p in game.players},
            "current": game.current,
            "held": game.held,
            "pending_bonus": game.pending_bonus[0]
            if game.pending_bonus and not game.over
            else None,
            "legal": self._legal(),
            "ended_by": game.ended_by,
            "end_piece": game.end_piece,
            "final_round": game.final_round,
            "turns": {p: game.board(p).turns for p in game.players},
            "scoring_order": list(game.scoring_order()) if game.over else [],
        }

    def _sheet_part(self, player: str) -> dict[str, Any]:
        board, score = self.game.board(player), self.game.score(player)
        return {
            "shaded": _cells(board.shaded),
            "bonus": board.bonus,
            "placed": [
                {
                    "piece": m.piece,
                    "row": m.row,
                    "column": m.column,
                    "bonus": isinstance(m, BonusPiecePlaced),
                }
                for m in board.placed
            ],
            "rectangle": _rectangle(score.rectangle),
            "points": score.points,
            "unshaded": score.unshaded,
        }

    def _legal(self) -> dict[str, Any] | None:
        """``{"player", "move": "place"|"bonus", "pieces": {id: [[row, column], ...]},
        "held", "may_skip"}``: the pieces the current player may choose (or the one chosen,
        or the bonus piece reached) with every legal spot; a piece with no spot fits nowhere
        and may still be chosen (``choose``), which brings the end."""
        game = self.game
        if game.over:
            return None
        player = game.current
        ids: tuple[str, ...]
        if game.pending_bonus:
            kind, ids = "bonus", (game.pending_bonus[0],)
        elif game.held is not None:
            kind, ids = "place", (game.held,)
        else:
            kind, ids = "place", game.selectable()
        return {
            "player": player,
            "move": kind,
            "pieces": {i: [[r, c] for r, c in game.placements(player, i)] for i in ids},
            "held": game.held,
            "may_skip": bool(game.pending_bonus),
        }


def _piece(piece: Piece) -> dict[str, Any]:
    shape = piece.shape
    return {
        "id": piece.id,
        "rows": shape.height,
        "columns": shape.width,
        "cells": _cells(shape.cells),
    }


def _cells(cells: frozenset[Cell]) -> list[list[int]]:
    return [[r, c] for r, c in sorted(cells)]


def _rectangle(rectangle: Rectangle) -> dict[str, Any]:
    return {
        "top": rectangle.top,
        "left": rectangle.left,
        "rows": rectangle.rows,
        "columns": rectangle.columns,
        "cells": _cells(rectangle.cells()),
    }
