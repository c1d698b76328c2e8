"""What the eye makes of one drop: a decision, a question, or a reason it cannot judge.

The service shows each on the page and the LEDs: :class:`Decided` is scored and its
``snapshot`` becomes the model's state; :class:`Asking` puts a yes/no question (or, for
a piece nobody selected, a choice of pieces) to the players; :class:`Disagree`,
:class:`SecondPiece` and :class:`Jam` call staff, who confirm or re-sync the board.
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware_host.eye.questions import PieceQuestion, Question
from firmware_host.games.dropit.rules.landing import Verdict
from firmware_host.games.dropit.rules.pieces import Piece
from firmware_host.i18n import Text
from firmware_host.model.world import Snapshot


@dataclass(frozen=True)
class Decided:
    """The verdict, every piece's believed pose (the model's new state, pile shifts
    included), the weight share of the verdict among the candidates, questions asked."""

    verdict: Verdict
    pieces: tuple[Piece, ...]
    snapshot: Snapshot
    confidence: float
    questions: int


@dataclass(frozen=True)
class Asking:
    """The players must answer ``question`` (``Look.answer`` or ``Look.choose``)."""

    question: Question | PieceQuestion


@dataclass(frozen=True)
class Disagree:
    """No candidate explains the readings (or the players' answers): the board and the
    model disagree. Staff confirm the board or re-sync the model."""

    reason: Text


@dataclass(frozen=True)
class SecondPiece:
    """A second piece went through the entry gate before the first settled: neither can
    be judged alone. Staff take the second one out (or confirm the board)."""

    reason: Text


@dataclass(frozen=True)
class Jam:
    """The piece never came to rest (stuck between the panes, or still moving): staff free
    it, then confirm the board."""

    reason: Text


Outcome = Decided | Asking | Disagree | SecondPiece | Jam
"""Everything :class:`~firmware_host.eye.eye.Look` can come to."""
