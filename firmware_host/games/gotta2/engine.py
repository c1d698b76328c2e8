"""The rules of the GOTTA2 puzzle sheet game: a pure, event-sourced engine.

A turn follows the text's steps: (1) the current player chooses an unused piece of the
piece area and every sheet marks it (:class:`PieceChosen`); (2) they shade it on their own
board, as printed, on unshaded cells (:class:`PiecePlaced`); (3) the frame's bonus points
are marked in order on their bonus track; (4) on reaching a bonus piece's points they *may*
place that bonus piece (:class:`BonusPiecePlaced`, or :class:`BonusPieceSkipped`); (5) the
next player's turn. When step 2 or 4 cannot be done (the chosen piece, or a bonus piece
reached, fits nowhere) the end comes: the round is played to its end, so that every player
has had as many turns, and the scores are counted starting with the player in whose turn
the end came.

:class:`Gotta2Game` is immutable: :meth:`Gotta2Game.apply` returns the game after
one more event or raises :class:`~firmware_host.errors.IllegalMove` (naming the player, the
move and the rule) and the game it was called on is unchanged.

>>> from firmware_host.games.gotta2.sheet import load_sheet
>>> game = Gotta2Game.start(load_sheet(), GameStarted(players=("ana", "ben")))
>>> game = game.apply(PieceChosen(player="ana", piece="2-1"))
>>> game.held, game.marks("2-1")
('2-1', 1)
>>> game = game.apply(PiecePlaced(player="ana", piece="2-1", row=0, column=0))
>>> game.board("ana").bonus, game.current
(2, 'ben')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import partial

from firmware_host.errors import IllegalMove
from firmware_host.games import event_log
from firmware_host.games.gotta2.events import (
    BonusPiecePlaced,
    BonusPieceSkipped,
    GameStarted,
    Gotta2Event,
    PieceChosen,
    PiecePlaced,
)
from firmware_host.games.gotta2.rectangle import Rectangle, largest_rectangle
from firmware_host.games.gotta2.sheet import Cell, Piece, Sheet

Move = PieceChosen | PiecePlaced | BonusPiecePlaced | BonusPieceSkipped
"""An event a player plays."""


@dataclass(frozen=True)
class PlayerBoard:
    """One player's sheet: shaded cells, bonus points marked, and what was placed where."""

    shaded: frozenset[Cell] = frozenset()
    bonus: int = 0
    """Boxes marked on the bonus track (never more than the track has)."""
    placed: tuple[PiecePlaced | BonusPiecePlaced, ...] = ()
    turns: int = 0
    """The turns this player has had (one with a piece that fitted nowhere counts)."""


@dataclass(frozen=True)
class Score:
    """A player's final score: the largest complete rectangle times the bonus points."""

    player: str
    rectangle: Rectangle
    bonus: int
    unshaded: int
    """Cells left unshaded: the fewer, the better on a tied score."""

    @property
    def points(self) -> int:
        """Rows x columns x bonus points."""
        return self.rectangle.rows * self.rectangle.columns * self.bonus


@dataclass(frozen=True)
class Gotta2Game:
    """A game on the puzzle sheet after some events."""

    sheet: Sheet
    players: tuple[str, ...]
    boards: tuple[PlayerBoard, ...]
    chosen: tuple[str, ...] = ()
    """The piece-area pieces chosen so far, in order (a piece twice when chosen twice)."""
    current_index: int = 0
    held: str | None = None
    """The piece the current player chose and must now place (step 2), if any."""
    pending_bonus: tuple[str, ...] = ()
    """Bonus pieces the current player reached and may still place this turn (step 4)."""
    ended_by: str | None = None
    """The player in whose turn the end came (None while no end has come)."""
    end_piece: str | None = None
    """The piece (or bonus piece) ``ended_by`` could not place; None if no piece was left
    to choose."""
    finished: bool = False
    """True once the round in which the end came has been played to its end."""

    @classmethod
    def start(cls, sheet: Sheet, started: GameStarted) -> Gotta2Game:
        """A new game with blank sheets; the first player listed starts."""
        players = started.players
        if not players:
            raise IllegalMove("cannot start the puzzle sheet game without players")
        if len(set(players)) != len(players) or not all(p.strip() for p in players):
            raise IllegalMove(
                f"cannot start the puzzle sheet game: names must be distinct, got {players}"
            )
        game = cls(sheet=sheet, players=players, boards=tuple(PlayerBoard() for _ in players))
        return game._begin_turn()

    # -- queries -------------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """True once the game is over: the end came and its round has been played out."""
        return self.finished

    @property
    def final_round(self) -> bool:
        """True while the round in which the end came is played to its end."""
        return self.ended_by is not None and not self.finished

    @property
    def current(self) -> str:
        """The player whose turn it is (at the end: the last player of the final round)."""
        return self.players[self.current_index]

    def board(self, player: str) -> PlayerBoard:
        """``player``'s sheet."""
        return self.boards[self._index(player, "look at a board")]

    def marks(self, piece_id: str) -> int:
        """How often the piece has been chosen: 0 free, 1 diagonal line, 2 crossed (X)."""
        return self.chosen.count(piece_id)

    def selectable(self) -> tuple[str, ...]:
        """The pieces of the piece area that may still be chosen."""
        n = len(self.players)
        return tuple(
            p.id for p in self.sheet.pieces if self.marks(p.id) < self.sheet.capacity(p.id, n)
        )

    def placements(self, player: str, piece_id: str) -> tuple[Cell, ...]:
        """Every (row, column) where ``piece_id`` fits on ``player``'s board, top-left first."""
        piece = self._piece(piece_id, player)
        shaded = self.board(player).shaded
        rows, columns = self.sheet.board.rows, self.sheet.board.columns
        shape = piece.shape
        return tuple(
            (r, c)
            for r in range(rows - shape.height + 1)
            for c in range(columns - shape.width + 1)
            if not shape.at(r, c) & shaded
        )

    def legal_moves(self) -> tuple[Move, ...]:
        """Every event the current player may play now (none once the game is over):
        choosing a piece (step 1), placing the chosen one (step 2), or placing or skipping
        a bonus piece reached (step 4)."""
        if self.over:
            return ()
        player = self.current
        if self.held is not None:
            return tuple(
                PiecePlaced(player, self.held, r, c) for r, c in self.placements(player, self.held)
            )
        if self.pending_bonus:
            bonus = self.pending_bonus[0]
            placed = tuple(
                BonusPiecePlaced(player, bonus, r, c) for r, c in self.placements(player, bonus)
            )
            return (*placed, BonusPieceSkipped(player, bonus))
        return tuple(PieceChosen(player, piece) for piece in self.selectable())

    def score(self, player: str) -> Score:
        """``player``'s score as it stands (final once the game is over)."""
        board = self.board(player)
        size = self.sheet.board
        return Score(
            player=player,
            rectangle=largest_rectangle(board.shaded, size.rows, size.columns),
            bonus=board.bonus,
            unshaded=size.rows * size.columns - len(board.shaded),
        )

    def scoring_order(self) -> tuple[str, ...]:
        """Every player clockwise from the one in whose turn the end came (the text: "each
        player calculates their score ..., starting with the current player")."""
        i = self.players.index(self.ended_by) if self.ended_by is not None else self.current_index
        return self.players[i:] + self.players[:i]

    def winners(self) -> tuple[str, ...]:
        """Highest score; tie: fewest unshaded cells; still tied: all win. () while playing."""
        if not self.over:
            return ()
        scores = [self.score(p) for p in self.players]
        best = max((s.points, -s.unshaded) for s in scores)
        return tuple(s.player for s in scores if (s.points, -s.unshaded) == best)

    # -- events --------------------------------------------------------------------------------

    def apply(self, event: Gotta2Event) -> Gotta2Game:
        """The game after ``event``; an illegal event raises :class:`IllegalMove`."""
        if isinstance(event, PieceChosen):
            return self._piece_chosen(event)
        if isinstance(event, PiecePlaced):
            return self._piece_placed(event)
        if isinstance(event, BonusPiecePlaced):
            return self._bonus_placed(event)
        if isinstance(event, BonusPieceSkipped):
            return self._bonus_skipped(event)
        if isinstance(event, GameStarted):
            raise IllegalMove(f"cannot start a game that has already started ({event})")
        raise IllegalMove(f"{event} is not an event of a puzzle sheet game")

    def _piece_chosen(self, move: PieceChosen, what: str = "") -> Gotta2Game:
        what = what or f"{move.player} choosing piece {move.piece}"
        self._check_turn(move.player, what)
        if self.held is not None:
            raise IllegalMove(f"{what} is refused: first place piece {self.held}, chosen already")
        if self.pending_bonus:
            raise IllegalMove(
                f"{what} is refused: first place or skip bonus piece {self.pending_bonus[0]}"
            )
        piece = self._piece(move.piece, move.player)
        if piece.id not in {p.id for p in self.sheet.pieces}:
            raise IllegalMove(
                f"{what} is refused: {piece.id} is a bonus piece, not in the piece area"
            )
        if piece.id not in self.selectable():
            used = self.marks(piece.id)
            raise IllegalMove(
                f"{what} is refused: piece {piece.id} is already marked used "
                f"({used} time{'s' if used != 1 else ''})"
            )
        index = self.current_index
        board = self.boards[index]
        game = replace(
            self,
            boards=self._with_board(index, replace(board, turns=board.turns + 1)),
            chosen=(*self.chosen, piece.id),
            held=piece.id,
        )
        if game.placements(move.player, piece.id):
            return game
        return game._end_comes(piece.id)._end_turn()  # step 2 cannot be done

    def _piece_placed(self, move: PiecePlaced) -> Gotta2Game:
        what = f"{move.player} placing piece {move.piece} at row {move.row}, column {move.column}"
        self._check_turn(move.player, what)
        if self.pending_bonus:
            raise IllegalMove(
                f"{what} is refused: first place or skip bonus piece {self.pending_bonus[0]}"
            )
        if self.held is None:  # steps 1 and 2 at once
            chosen = self._piece_chosen(PieceChosen(move.player, move.piece), what)
            piece = self._piece(move.piece, move.player)
            board = self.boards[self.current_index]
            self._shade(board, piece, move, what)  # raises: the piece fits nowhere
            return chosen._piece_placed(move)
        if move.piece != self.held:
            raise IllegalMove(f"{what} is refused: the piece {move.player} chose is {self.held}")
        piece = self._piece(move.piece, move.player)
        index = self.current_index
        board = self._shade(self.boards[index], piece, move, what)
        before = board.bonus
        board = replace(
            board, bonus=min(before + self.sheet.frame_of(piece.id).bonus, self.sheet.bonus_track)
        )
        reached = tuple(b.id for b in self.sheet.bonus_pieces if before < b.at <= board.bonus)
        game = replace(
            self, boards=self._with_board(index, board), held=None, pending_bonus=reached
        )
        return game._next_bonus()

    def _bonus_placed(self, move: BonusPiecePlaced) -> Gotta2Game:
        what = (
            f"{move.player} placing bonus piece {move.piece} "
            f"at row {move.row}, column {move.column}"
        )
        self._check_bonus(move.player, move.piece, what)
        piece = self._piece(move.piece, move.player)
        board = self._shade(self.boards[self.current_index], piece, move, what)
        game = replace(
            self,
            boards=self._with_board(self.current_index, board),
            pending_bonus=self.pending_bonus[1:],
        )
        return game._next_bonus()

    def _bonus_skipped(self, move: BonusPieceSkipped) -> Gotta2Game:
        what = f"{move.player} skipping bonus piece {move.piece}"
        self._check_bonus(move.player, move.piece, what)
        return replace(self, pending_bonus=self.pending_bonus[1:])._next_bonus()

    def _check_bonus(self, player: str, piece: str, what: str) -> None:
        self._check_turn(player, what)
        if self.held is not None:
            raise IllegalMove(f"{what} is refused: first place piece {self.held}")
        if not self.pending_bonus:
            raise IllegalMove(f"{what} is refused: {player} has no bonus piece to place now")
        if piece != self.pending_bonus[0]:
            reached = self.pending_bonus[0]
            raise IllegalMove(f"{what} is refused: the bonus piece reached is {reached}")

    def _next_bonus(self) -> Gotta2Game:
        """The next bonus piece reached, else the end of the turn. A bonus piece that fits
        nowhere: step 4 cannot be done, the end comes (and the turn ends)."""
        if not self.pending_bonus:
            return self._end_turn()
        bonus = self.pending_bonus[0]
        if self.placements(self.current, bonus):
            return self
        return self._end_comes(bonus)._end_turn()

    def _end_comes(self, piece: str | None) -> Gotta2Game:
        """Step 2 or 4 (or choosing: no piece left) cannot be done: the end comes, in the
        current player's turn, unless it came already (then the final round goes on)."""
        if self.ended_by is not None:
            return self
        return replace(self, ended_by=self.current, end_piece=piece)

    def _end_turn(self) -> Gotta2Game:
        """Step 5: the next player's turn; once the end has come, the game is over after the
        last player of the round (every player has then had as many turns)."""
        game = replace(self, held=None, pending_bonus=())
        if game.ended_by is not None and game.current_index == len(game.players) - 1:
            return replace(game, finished=True)
        following = replace(game, current_index=(game.current_index + 1) % len(game.players))
        return following._begin_turn()

    def _begin_turn(self) -> Gotta2Game:
        """A turn starts with choosing a piece; with none left to choose the turn is over at
        once (it counts as a turn) and, if it had not come yet, the end comes."""
        if self.selectable():
            return self
        index = self.current_index
        board = self.boards[index]
        game = replace(self, boards=self._with_board(index, replace(board, turns=board.turns + 1)))
        return game._end_comes(None)._end_turn()

    def _shade(
        self, board: PlayerBoard, piece: Piece, move: PiecePlaced | BonusPiecePlaced, what: str
    ) -> PlayerBoard:
        cells = piece.shape.at(move.row, move.column)
        rows, columns = self.sheet.board.rows, self.sheet.board.columns
        outside = sorted((r, c) for r, c in cells if not (0 <= r < rows and 0 <= c < columns))
        if outside:
            raise IllegalMove(
                f"{what} is refused: the piece (as printed, never rotated or flipped) would "
                f"leave the {rows} x {columns} board at {outside}"
            )
        overlap = sorted(cells & board.shaded)
        if overlap:
            raise IllegalMove(f"{what} is refused: cells {overlap} are already shaded")
        return replace(board, shaded=board.shaded | cells, placed=(*board.placed, move))

    def _check_turn(self, player: str, what: str) -> None:
        self._index(player, "place a piece")
        if self.over:
            raise IllegalMove(f"{what} is refused: the game is over")
        if player != self.current:
            raise IllegalMove(f"{what} is refused: it is {self.current}'s turn")

    def _piece(self, piece_id: str, player: str) -> Piece:
        piece = self.sheet.piece(piece_id)
        if piece is None:
            raise IllegalMove(
                f"{player} cannot use piece {piece_id!r}: there is no such piece on the sheet"
            )
        return piece

    def _with_board(self, index: int, board: PlayerBoard) -> tuple[PlayerBoard, ...]:
        return (*self.boards[:index], board, *self.boards[index + 1 :])

    def _index(self, player: str, move: str) -> int:
        if player not in self.players:
            raise IllegalMove(
                f"{player!r} cannot {move}: not a player of this game "
                f"(players: {', '.join(self.players)})"
            )
        return self.players.index(player)


def replay(sheet: Sheet, events: Iterable[Gotta2Event]) -> Gotta2Game:
    """The game the events describe; the first must be :class:`GameStarted`."""
    return event_log.replay(
        GameStarted, partial(Gotta2Game.start, sheet), events, "puzzle sheet"
    )
