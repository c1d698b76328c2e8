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

It is an :class:`~.referee.EarlyReferee`: :meth:`EyeReferee.begin` starts the eye's look
(:meth:`~firmware_host.eye.Eye.begin`) on its own thread once the piece has gone through
the entry gate; :meth:`EyeReferee.look` waits for that work if it is still running (the
wait is part of the verdict's time, ``early_wait_ms`` in the log) and settles it, or
looks afresh when the drop is not the one begun (another board, piece or options).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor

from firmware_host.camera.feed import CameraFeed
from firmware_host.camera.sight import Seen
from firmware_host.camera.sources import CameraUnavailable
from firmware_host.config.board import Board
from firmware_host.errors import IllegalMove
from firmware_host.eye import Asking, Decided, Disagree, Eye, Jam, Look, PieceQuestion
from firmware_host.eye import Outcome as EyeOutcome
from firmware_host.eye.camera_look import CAMERA_FAULTS, Camera, CameraLook, known_pieces
from firmware_host.games.dropit.rules.pieces import Color, Piece, Pose, Shape
from firmware_host.i18n import Text, lazy
from firmware_host.logs import event
from firmware_host.model.params import PhysicsParams
from firmware_host.model.world import Snapshot, World
from firmware_host.sensors.drop import DropEntry, DropReadings
from firmware_host.service.referee import (
    Asked,
    Identity,
    Landed,
    Mishap,
    MishapKind,
    Outcome,
)

log = logging.getLogger("firmware_host.service")

_Drop = tuple[tuple[Piece, ...], Identity | None, str, tuple[Identity, ...]]
"""What a begun look must match to be settled: pieces, identity, piece id, options."""


class EyeReferee:
    """Referees with ``eye`` on ``board``; the model's physics are ``params``."""

    def __init__(
        self, eye: Eye, board: Board, params: PhysicsParams, camera: CameraFeed | None = None
    ) -> None:
        self.eye = eye
        self.board = board
        self.params = params
        self.camera = camera
        self._look: Look | CameraLook | None = None
        self._camera_fault: Text | None = None
        self._begun: tuple[_Drop, Future[Look]] | None = None
        self._early = ThreadPoolExecutor(max_workers=1, thread_name_prefix="eye early")

    def begin(
        self,
        pieces: tuple[Piece, ...],
        identity: Identity | None,
        entry: DropEntry,
        piece_id: str,
        options: tuple[Identity, ...] = (),
    ) -> None:
        """Start the eye's look at the drop of ``piece_id`` onto ``pieces`` on the early
        thread, from its ``entry``; returns at once."""
        drop = (pieces, identity, piece_id, options)
        self._begun = (drop, self._early.submit(self._begin, entry, *drop))

    def look(
        self,
        pieces: tuple[Piece, ...],
        identity: Identity | None,
        readings: DropReadings,
        piece_id: str,
        options: tuple[Identity, ...] = (),
    ) -> Outcome:
        """The eye's look at one drop onto ``pieces``: the one begun for it, once its
        early work is done, settled with ``readings``; else a new one."""
        started = time.perf_counter()
        look = self._begun_for((pieces, identity, piece_id, options))
        waited = time.perf_counter() - started
        early = look is not None
        if look is None:
            entry = readings.entered
            look = self.eye.begin(self._snapshot(pieces), identity, entry, piece_id, options)
        judging: Look | CameraLook = look
        if self.camera is not None:
            judging = CameraLook(look, self._camera_look(self.camera, pieces, piece_id))
        self._look = judging
        outcome = judging.settle(readings)
        if isinstance(judging, CameraLook):
            self._camera_changed(judging.fault)
        event(
            log,
            "eye settled",
            logging.DEBUG,
            early=early,
            early_wait_ms=round(waited * 1000, 1),
            ms=round((time.perf_counter() - started) * 1000, 1),
            redone=look.redone,
            judged_by=judging.judged_by if isinstance(judging, CameraLook) else "strips",
        )
        return self._outcome(outcome, piece_id)

    @staticmethod
    def _camera_look(camera: CameraFeed, pieces: tuple[Piece, ...], piece_id: str) -> Camera:
        """The camera's look at the drop of ``piece_id`` onto ``pieces`` (their poses the
        priors)."""

        def look(
            identity: tuple[Color, Shape],
            priors: Mapping[str, Pose],
            starts: Mapping[str, Sequence[Pose]],
        ) -> Seen:
            try:
                return camera.look(known_pieces(pieces, piece_id, identity, priors, starts))
            except CAMERA_FAULTS:
                raise
            except Exception as exc:  # a fault of the look, never the service's end
                log.exception("the camera's look failed")
                raise CameraUnavailable(
                    lazy("the camera's look failed: {error}", error=str(exc))
                ) from exc

        return look

    def _camera_changed(self, fault: Text | None) -> None:
        """Log when the camera goes out or comes back (once per change)."""
        if fault == self._camera_fault:
            return
        if fault is None:
            event(log, "camera back", logging.INFO)
        else:
            event(log, "camera fault: the drop judged by the strips and gates", logging.WARNING,
                  reason=str(fault))
        self._camera_fault = fault

    @property
    def camera_status(self) -> Text:
        """``"none"`` (no camera), ``"ok"``, or what keeps the camera out."""
        if self.camera is None:
            return "none"
        return self._camera_fault or "ok"

    def _begun_for(self, drop: _Drop) -> Look | None:
        """The look begun for ``drop``, once its early work is done (None when none was
        begun, or for another drop: that work is waited for too)."""
        begun, self._begun = self._begun, None
        if begun is None:
            return None
        for_drop, work = begun
        if for_drop != drop:
            work.exception()  # waited for, not used
            return None
        return work.result()

    def _begin(
        self,
        entry: DropEntry,
        pieces: tuple[Piece, ...],
        identity: Identity | None,
        piece_id: str,
        options: tuple[Identity, ...],
    ) -> Look:
        return self.eye.begin(self._snapshot(pieces), identity, entry, piece_id, options)

    def _snapshot(self, pieces: tuple[Piece, ...]) -> Snapshot:
        return World.at_rest(self.board, self.params, pieces).snapshot()

    def answer(self, yes: bool) -> Outcome:
        """The players' yes or no."""
        look = self._open()
        return self._outcome(look.answer(yes), look.piece_id)

    def choose(self, color: Color, shape: Shape) -> Outcome:
        """The piece the players say was dropped."""
        look = self._open()
        return self._outcome(look.choose(color, shape), look.piece_id)

    def _open(self) -> Look | CameraLook:
        if self._look is None:
            raise IllegalMove(lazy("the referee has not looked at a drop yet"))
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
            return Asked(question.text, key=question.id, dropped=question.dropped)
        if isinstance(outcome, Disagree):
            return Mishap(MishapKind.DISAGREES, outcome.reason)
        if isinstance(outcome, Jam):
            return Mishap(MishapKind.JAM, outcome.reason)
        return Mishap(MishapKind.SECOND_DROP, outcome.reason)
