"""The rules of the GOTTA2 puzzle sheet game: a pure, event-sourced engine.

A turn: the current player chooses an unused piece of the piece area and every player
marks it (:class:`PiecePlaced` does both: the choice and the placement); the player shades
it on their own board, as printed, on unshaded cells; the frame's bonus points are marked in
order on their bonus track; on reaching a bonus piece's points they place that bonus piece
(:class:`BonusPiecePlaced`). When the current player cannot place any piece, or a bonus
piece they reached, the game is over and the scores are counted, starting with that player.

:class:`PuzzleSheetGame` is immutable: :meth:`PuzzleSheetGame.apply` returns the game after
one more event or raises :class:`~firmware_host.errors.IllegalMove` (naming the player, the
move and the rule) and the game it was called on is unchanged.

>>> from firmware_host.games.puzzlesheet.sheet import load_sheet
>>> game = PuzzleSheetGame.start(load_sheet(), GameStarted(players=("ana", "ben")))
>>> game = game.apply(PiecePlaced(player="ana", piece="2-1", row=0, column=0))
>>> game.board("ana").bonus, game.current, game.marks("2-1")
(2, 'ben', 1)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import partial

from firmware_host.errors import IllegalMove
from firmware_host.games import event_log
from firmware_host.games.puzzlesheet.events import (
    BonusPiecePlaced,
    GameStarted,
    PiecePlaced,
    PuzzleSheetEvent,
)
from firmware_host.games.puzzlesheet.rectangle import Rectangle, largest_rectangle
from firmware_host.games.puzzlesheet.sheet import Cell, Piece, Sheet


@dataclass(frozen=True)
class PlayerBoard:
    """One player's sheet: shaded cells, bonus points marked, and what was placed where."""

    shaded: frozenset[Cell] = frozenset()
    bonus: int = 0
    """Boxes marked on the bonus track (never more than the track has)."""
    placed: tuple[PiecePlaced | BonusPiecePlaced, ...] = ()


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
class PuzzleSheetGame:
    """A game on the puzzle sheet after some events."""

    sheet: Sheet
    players: tuple[str, ...]
    boards: tuple[PlayerBoard, ...]
    chosen: tuple[str, ...] = ()
    """The piece-area pieces chosen so far, in order (a piece twice when chosen twice)."""
    current_index: int = 0
    pending_bonus: tuple[str, ...] = ()
    """Bonus pieces the current player reached and must place before the turn ends."""
    ended_by: str | None = None
    """The player who could not place a piece or a bonus piece (None while playing)."""

    @classmethod
    def start(cls, sheet: Sheet, started: GameStarted) -> PuzzleSheetGame:
        """A new game with blank sheets; the first player listed starts."""
        players = started.players
        if not players:
            raise IllegalMove("cannot start the puzzle sheet game without players")
        if len(set(players)) != len(players) or not all(p.strip() for p in players):
            raise IllegalMove(
                f"cannot start the puzzle sheet game: names must be distinct, got {players}"
            )
        game = cls(sheet=sheet, players=players, boards=tuple(PlayerBoard() for _ in players))
        return game._check_can_play()

    # -- queries -------------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """True once a player could not place a piece or a bonus piece."""
        return self.ended_by is not None

    @property
    def current(self) -> str:
        """The player whose turn it is (at the end: the one who could not place)."""
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

    def legal_moves(self) -> tuple[PiecePlaced | BonusPiecePlaced, ...]:
        """Every event the current player may play now (none once the game is over)."""
        if self.over:
            return ()
        player = self.current
        if self.pending_bonus:
            bonus = self.pending_bonus[0]
            return tuple(
                BonusPiecePlaced(player, bonus, r, c) for r, c in self.placements(player, bonus)
            )
        return tuple(
            PiecePlaced(player, piece, r, c)
            for piece in self.selectable()
            for r, c in self.placements(player, piece)
        )

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
        """The final scoring round: every player clockwise from the current player."""
        i = self.current_index
        return self.players[i:] + self.players[:i]

    def winners(self) -> tuple[str, ...]:
        """Highest score; tie: fewest unshaded cells; still tied: all win. () while playing."""
        if not self.over:
            return ()
        scores = [self.score(p) for p in self.players]
        best = max((s.points, -s.unshaded) for s in scores)
        return tuple(s.player for s in scores if (s.points, -s.unshaded) == best)

    # -- events --------------------------------------------------------------------------------

    def apply(self, event: PuzzleSheetEvent) -> PuzzleSheetGame:
        """The game after ``event``; an illegal event raises :class:`IllegalMove`."""
        if isinstance(event, PiecePlaced):
            return self._piece_placed(event)
        if isinstance(event, BonusPiecePlaced):
            return self._bonus_placed(event)
        if isinstance(event, GameStarted):
            raise IllegalMove(f"cannot start a game that has already started ({event})")
        raise IllegalMove(f"{event} is not an event of a puzzle sheet game")

    def _piece_placed(self, move: PiecePlaced) -> PuzzleSheetGame:
        what = f"{move.player} placing piece {move.piece} at row {move.row}, column {move.column}"
        self._check_turn(move.player, what)
        if self.pending_bonus:
            raise IllegalMove(f"{what} is refused: first place bonus piece {self.pending_bonus[0]}")
        piece = self._piece(move.piece, move.player)
        if piece.id not in {p.id for p in self.sheet.pieces}:
            raise IllegalMove(
                f"{what} is refused: {piece.id} is a bonus piece, not in the piece area"
            )
        if piece.id not in self.selectable():
            raise IllegalMove(
                f"{what} is refused: piece {piece.id} is already marked used "
                f"({self.marks(piece.id)} time{'s' if self.marks(piece.id) != 1 else ''})"
            )
        index = self.current_index
        board = self._shade(self.boards[index], piece, move, what)
        before = board.bonus
        board = replace(
            board, bonus=min(before + self.sheet.frame_of(piece.id).bonus, self.sheet.bonus_track)
        )
        reached = tuple(b.id for b in self.sheet.bonus_pieces if before < b.at <= board.bonus)
        game = replace(
            self,
            boards=self._with_board(index, board),
            chosen=(*self.chosen, piece.id),
            pending_bonus=reached,
        )
        return game._next_step()

    def _bonus_placed(self, move: BonusPiecePlaced) -> PuzzleSheetGame:
        what = (
            f"{move.player} placing bonus piece {move.piece} "
            f"at row {move.row}, column {move.column}"
        )
        self._check_turn(move.player, what)
        if not self.pending_bonus:
            raise IllegalMove(f"{what} is refused: {move.player} has no bonus piece to place now")
        if move.piece != self.pending_bonus[0]:
            raise IllegalMove(
                f"{what} is refused: the bonus piece reached is {self.pending_bonus[0]}"
            )
        piece = self._piece(move.piece, move.player)
        board = self._shade(self.boards[self.current_index], piece, move, what)
        game = replace(
            self,
            boards=self._with_board(self.current_index, board),
            pending_bonus=self.pending_bonus[1:],
        )
        return game._next_step()

    def _next_step(self) -> PuzzleSheetGame:
        """After a placement: the next bonus piece, else the next player's turn; or the end."""
        if self.pending_bonus:
            if not self.placements(self.current, self.pending_bonus[0]):
                return replace(self, ended_by=self.current)
            return self
        following = replace(self, current_index=(self.current_index + 1) % len(self.players))
        return following._check_can_play()

    def _check_can_play(self) -> PuzzleSheetGame:
        """The game ends when the current player cannot place any selectable piece."""
        if self.legal_moves():
            return self
        return replace(self, ended_by=self.current)

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


def replay(sheet: Sheet, events: Iterable[PuzzleSheetEvent]) -> PuzzleSheetGame:
    """The game the events describe; the first must be :class:`GameStarted`."""
    return event_log.replay(
        GameStarted, partial(PuzzleSheetGame.start, sheet), events, "puzzle sheet"
    )
