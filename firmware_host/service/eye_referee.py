"""The referee's eye (:mod:`firmware_host.eye`) behind the service's
:class:`~firmware_host.service.referee.Referee` interface.

The game's board (every piece's believed pose, journaled) is the model: each drop's look
starts from a world at rest holding those pieces, so a resumed game refers from exactly
the state it journaled. The eye's outcomes become the service's:

======================================  =============================================
eye                                     service
======================================  =============================================
``Decided`` (pieces, pile shifts)       :class:`~.referee.Landed`
``Asking(Question)``                    :class:`~.referee.Asked` (``key``: the feature)
``Asking(PieceQuestion)``               :class:`~.referee.Asked` with ``options``
``Disagree`` / ``SecondPiece`` / ``Jam``  :class:`~.referee.Mishap`
======================================  =============================================
"""

from __future__ import annotations

from firmware_host.config.board import Board
from firmware_host.errors import IllegalMove
from firmware_host.eye import Asking, Decided, Disagree, Eye, Jam, Look, PieceQuestion
from firmware_host.eye import Outcome as EyeOutcome
from firmware_host.model.params import PhysicsParams
from firmware_host.model.world import World
from firmware_host.rules.pieces import Color, Piece, Shape
from firmware_host.sensors.drop import DropReadings
from firmware_host.service.referee import (
    Asked,
    Identity,
    Landed,
    Mishap,
    MishapKind,
    Outcome,
)


class EyeReferee:
    """Referees with ``eye`` on ``board``; the model's physics are ``params``."""

    def __init__(self, eye: Eye, board: Board, params: PhysicsParams) -> None:
        self.eye = eye
        self.board = board
        self.params = params
        self._look: Look | None = None

    def look(
        self,
        pieces: tuple[Piece, ...],
        identity: Identity | None,
        readings: DropReadings,
        piece_id: str,
        options: tuple[Identity, ...] = (),
    ) -> Outcome:
        """Start the eye's look at one drop onto ``pieces``."""
        snapshot = World.at_rest(self.board, self.params, pieces).snapshot()
        self._look = self.eye.look(snapshot, identity, readings, piece_id, options)
        return self._outcome(self._look.outcome, piece_id)

    def answer(self, yes: bool) -> Outcome:
        """The players' yes or no."""
        look = self._open()
        return self._outcome(look.answer(yes), look.piece_id)

    def choose(self, color: Color, shape: Shape) -> Outcome:
        """The piece the players say was dropped."""
        look = self._open()
        return self._outcome(look.choose(color, shape), look.piece_id)

    def _open(self) -> Look:
        if self._look is None:
            raise IllegalMove("the referee has not looked at a drop yet")
        return self._look

    @staticmethod
    def _outcome(outcome: EyeOutcome, piece_id: str) -> Outcome:
        if isinstance(outcome, Decided):
            others = tuple(p for p in outcome.pieces if p.id != piece_id)
            dropped = tuple(p for p in outcome.pieces if p.id == piece_id)
            return Landed((*others, *dropped))
        if isinstance(outcome, Asking):
            question = outcome.question
            if isinstance(question, PieceQuestion):
                return Asked(question.text, options=question.options)
            return Asked(question.text, key=question.id)
        if isinstance(outcome, Disagree):
            return Mishap(MishapKind.DISAGREES, outcome.reason)
        if isinstance(outcome, Jam):
            return Mishap(MishapKind.JAM, outcome.reason)
        return Mishap(MishapKind.SECOND_DROP, outcome.reason)
