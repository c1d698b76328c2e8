"""What the service needs from the referee's eye: one drop's readings in, an outcome out.

The eye (``firmware_host/eye``) sees the pieces the model believes are on the board, the
dropped piece's identity (selected or read by the piece reader; None when unknown) and the
drop's :class:`~firmware_host.sensors.drop.DropReadings`. It either decides where every
piece now rests (:class:`Landed`), asks the players one yes/no question (:class:`Asked`;
the answer goes to :meth:`Referee.answer`, which gives the next outcome), or reports a
drop it cannot referee (:class:`Mishap`: a second piece, a jam, a board that disagrees
with the model).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol, runtime_checkable

from firmware_host.games.dropit.rules.pieces import Color, Piece, Shape
from firmware_host.i18n import Text
from firmware_host.sensors.drop import DropEntry, DropReadings

Identity = tuple[Color, Shape]
"""The dropped piece's colour and shape."""


@dataclass(frozen=True, slots=True)
class Landed:
    """The decision: every piece on the board at its resting pose, the dropped one last."""

    pieces: tuple[Piece, ...]

    @property
    def dropped(self) -> Piece:
        """The dropped piece at its resting pose."""
        return self.pieces[-1]


@dataclass(frozen=True, slots=True)
class Asked:
    """A question for the players (``text`` as shown and spoken): yes or no, or, with
    ``options``, which of these pieces was dropped. ``key`` names what is asked (the eye's
    feature id), for a simulated player who answers honestly, and the page's drawing;
    ``dropped`` is the dropped piece where the referee believes it rests (the page's ghost)."""

    text: str
    key: str = ""
    options: tuple[Identity, ...] = ()
    dropped: Piece | None = None


class MishapKind(StrEnum):
    """Drops the referee cannot judge."""

    SECOND_DROP = "second_drop"
    JAM = "jam"
    DISAGREES = "disagrees"


@dataclass(frozen=True, slots=True)
class Mishap:
    """A drop that cannot be refereed, with what the players or staff should do."""

    kind: MishapKind
    message: Text
    """What to do, in the players' words (said in each reader's language)."""


Outcome = Landed | Asked | Mishap
"""What the referee makes of a drop (or of an answer)."""


class Referee(Protocol):
    """The referee's eye as the service uses it."""

    def look(
        self,
        pieces: tuple[Piece, ...],
        identity: Identity | None,
        readings: DropReadings,
        piece_id: str,
        options: tuple[Identity, ...],
    ) -> Outcome:
        """Referee one drop onto ``pieces`` (the believed board); the new piece is
        ``piece_id``; ``options`` are the pieces it may be (the current player's)."""
        ...

    def answer(self, yes: bool) -> Outcome:
        """The players' answer to the last yes/no :class:`Asked` question."""
        ...

    def choose(self, color: Color, shape: Shape) -> Outcome:
        """The players' answer to "which piece?": the ``color`` ``shape``."""
        ...


@runtime_checkable
class EarlyReferee(Referee, Protocol):
    """A referee that can start on a drop once the piece has gone through the entry gate,
    while it still falls and settles; :meth:`Referee.look` then finishes it (and waits
    for the early work if it is still running)."""

    def begin(
        self,
        pieces: tuple[Piece, ...],
        identity: Identity | None,
        entry: DropEntry,
        piece_id: str,
        options: tuple[Identity, ...],
    ) -> None:
        """Start on the drop of ``piece_id`` onto ``pieces`` whose entry is ``entry``, in
        the background (the arguments as :meth:`Referee.look` will get them)."""
        ...


@runtime_checkable
class CameraReferee(Referee, Protocol):
    """A referee that looks with the table's camera and says how the camera is doing."""

    @property
    def camera_status(self) -> Text:
        """``"none"`` (no camera), ``"ok"``, or what keeps the camera out."""
        ...
