"""A demo feed: a recorded game replayed turn by turn behind the page (not the service).

:class:`DemoFeed` implements :class:`~firmware_host.web.game_feed.GameFeed` from a game file
refereed by :func:`~firmware_host.games.dropit.referee.referee_game`: each :meth:`step`
plays the next recorded turn (pieces knocked aside, the drop and its verdict), offers a
joker after a broken rule when the player has one (the next step takes the recording's
decision unless the page answered first), and before each turn listed in ``ask`` the
referee asks the current player about the recorded landing (does the shape, drawn as a
ghost at its recorded pose, reach its level, the line under it lit up) and waits: *yes* plays
the turn at once, *no* asks again at the next step. :meth:`run` steps on an injectable
``sleep`` clock. Every action that reaches the feed is kept in :attr:`DemoFeed.received`.

What the demo cannot do, the service will: the shapes dropped are the recording's
whatever the page selected (a selection is shown, *confirm* plays the turn now), and
*re-sync* only says so.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass

from firmware_host.config.board import Board
from firmware_host.errors import IllegalMove
from firmware_host.games.dropit.actions import Answer, Confirm, Joker, SeatAction, Select
from firmware_host.games.dropit.ask import plain_question
from firmware_host.games.dropit.events import JokerSpent, PiecesMoved, Ruling, ShapeDropped
from firmware_host.games.dropit.referee import RefereedTurn, RefereeReport
from firmware_host.games.dropit.rules.landing import Verdict
from firmware_host.games.dropit.state import GameState
from firmware_host.games.dropit.view import DropItView, Question, Selection
from firmware_host.i18n import Text, lazy
from firmware_host.web.actions import Again, Settings, Staff, StaffOp
from firmware_host.web.game_feed import ViewChannel


@dataclass(frozen=True)
class Received:
    """An action that reached the feed, and the seat it came from."""

    action: SeatAction | Staff
    seat: str


class DemoFeed:
    """A recorded game (``report``) played back on ``board`` as a live game feed."""

    def __init__(
        self,
        board: Board,
        report: RefereeReport,
        *,
        ask: Iterable[int] = (),
        game_id: str = "demo",
    ) -> None:
        self.board = board
        self.game_id = game_id
        self.received: list[Received] = []
        self.settings = Settings()
        self._turns: tuple[RefereedTurn, ...] = report.turns
        self._ask = set(ask)
        self._state = GameState.start(report.state.started)
        self._played = 0
        self._verdict: Verdict | None = None
        self._question: Question | None = None
        self._asked = 0
        self._selection: Selection | None = None
        self._joker_offer = False
        self._status: Text = lazy("playing a recorded game (demo)")
        self._stopped = False
        self._channel = ViewChannel(self._view())

    @property
    def finished(self) -> bool:
        """True once every recorded turn is played (or staff aborted the game)."""
        return self._stopped or (self._played == len(self._turns) and not self._joker_offer)

    def snapshot(self) -> DropItView:
        """The view as it is now."""
        return self._channel.view

    def updates(self) -> AsyncIterator[DropItView]:
        """Each new view."""
        return self._channel.updates()

    def _view(self) -> DropItView:
        return DropItView(
            board=self.board,
            state=self._state,
            game_id=self.game_id,
            verdict=self._verdict,
            question=self._question,
            selection=self._selection,
            joker_offer=self._joker_offer,
            status=self._status,
        )

    def _publish(self) -> None:
        self._channel.publish(self._view())

    def step(self) -> None:
        """Advance by one step: settle a joker offer, ask, or play the next turn."""
        if self.finished:
            return
        if self._joker_offer:
            recorded = self._turns[self._played - 1].drop.joker
            self._settle_joker(recorded)
        elif self._question is not None:
            return
        elif self._played + 1 in self._ask:
            self._ask_about(self._turns[self._played])
        else:
            self._play()
        self._publish()

    async def run(
        self, interval: float, sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    ) -> None:
        """Step every ``interval`` seconds (on ``sleep``'s clock) until the game is finished."""
        while not self.finished:
            await sleep(interval)
            self.step()

    def _ask_about(self, turn: RefereedTurn) -> None:
        self._asked += 1
        player = self._state.current.player if self._state.current else turn.drop.player
        piece = turn.drop.piece
        level = turn.drop.ruling.level
        feature = f"level:{level}" if level > 1 else "edge:bottom"
        text, mark = plain_question(feature, piece, self._state.board, self.board)
        self._question = Question(f"q{self._asked}", text or "", player, ghost=piece, mark=mark)
        self._status = lazy("waiting for {player} to answer the referee", player=player)

    def _play(self) -> None:
        if self._played == len(self._turns):
            raise IllegalMove(lazy("every recorded turn has been played"))
        turn = self._turns[self._played]
        drop = turn.drop
        if turn.recorded.moved:
            self._state = self._state.apply(PiecesMoved(turn.recorded.moved))
        self._state = self._state.apply(
            ShapeDropped(drop.turn, drop.player, drop.piece, Ruling.of(turn.verdict))
        )
        self._played += 1
        self._ask.discard(drop.turn)
        self._verdict = turn.verdict
        self._selection = None
        standing = self._state.standing(drop.competitor)
        self._joker_offer = (
            self._state.started.variants.jokers
            and not turn.verdict.valid
            and standing.jokers_left > 0
        )
        self._status = lazy("turn {turn} played", turn=drop.turn)

    def _settle_joker(self, spend: bool) -> None:
        if spend:
            self._state = self._state.apply(JokerSpent(self._state.drops[-1].turn))
        self._joker_offer = False

    async def act(self, action: SeatAction | Staff, seat: str) -> None:
        """Take a checked action (see the module's description for what each one does)."""
        if self._stopped:
            raise IllegalMove(lazy("the game was aborted by staff"))
        if isinstance(action, Answer):
            self._question = None
            if action.yes:
                self._play()
            else:
                self._status = lazy("the referee waits and will ask again")
        elif isinstance(action, Select):
            turn = self._state.current
            if turn is None:
                raise IllegalMove(lazy("the game is over"))
            self._selection = Selection(turn.player, action.color, action.shape)
        elif isinstance(action, Confirm):
            if self._question is not None or self._joker_offer:
                raise IllegalMove(lazy("answer the referee's question or the joker offer first"))
            self._play()
        elif isinstance(action, Joker):
            self._settle_joker(action.spend)
        elif isinstance(action, Again):
            raise IllegalMove(
                lazy("the demo plays its recording once: start `tabletop page` again")
            )
        else:
            self._staff(action)
        self.received.append(Received(action, seat))
        self._publish()

    def _staff(self, action: Staff) -> None:
        if action.op is StaffOp.ABORT:
            self._stopped = True
            self._question = None
            self._joker_offer = False
            self._status = lazy("game aborted by staff")
        elif action.op is StaffOp.RESYNC:
            self._status = lazy("board re-synced by staff (the demo has no sensors to read)")
        elif action.op is StaffOp.NEW:
            raise IllegalMove(lazy("the demo plays its recording: it cannot set up a new game"))
        else:
            given = action.settings or Settings()
            self.settings = self.settings.model_copy(
                update={k: v for k, v in given.model_dump().items() if v is not None}
            )
            self._status = lazy("settings saved for the next game")
