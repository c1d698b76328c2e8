"""Drop It's controller: the turn flow of a game of Drop It at the table.

One object holds the game being played (a :class:`~firmware_host.journal.dropit.
DropItRecord`) and everything a turn waits for. Inputs come from the panel's buttons
(:meth:`DropItController.press`), the page (:meth:`DropItController.act`, the web
:class:`~firmware_host.web.game_feed.GameFeed` interface), the autoplay players (the same
``act``), the drop feed (:meth:`DropItController.dropped`) and the hub link
(:meth:`DropItController.link_changed`). A turn:

1. **select** — the current player picks a shape (previous/next buttons, the page, or
   the piece reader's tag when the shape simply falls in);
2. **drop** — confirm (optional), then the drop's readings arrive and go to the referee;
3. **question** — when the referee asks, the answer (yes/no buttons or page) goes back
   to it until it decides;
4. **verdict** — pile shifts and the drop are journaled (``PiecesMoved``, then
   ``ShapeDropped``), committed, and only then shown (LED tracks, page, log);
5. **joker** — if the drop broke a rule and the player has a joker, it is offered
   (joker or yes: spend it; no or confirm: decline); a spent joker is journaled too;
6. the next player's turn begins (or the game is over: the winners' tracks flash).

When the hub is away the game pauses (nothing can be seen); it carries on where it was
when the hub is back. What the game itself decides (a drop's events and verdict, the
joker's offer, the staff's next game) is its pure binding's,
:mod:`firmware_host.games.dropit.table`; this is the flow around it, with the referee,
the journal, the LED tracks and the panel.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from enum import StrEnum
from pathlib import Path

from firmware_host.config.board import Board
from firmware_host.errors import IllegalMove, InputError
from firmware_host.games.dropit.actions import Answer, Confirm, Joker, SeatAction, Select
from firmware_host.games.dropit.ask import plain_question
from firmware_host.games.dropit.events import (
    Event,
    GameStarted,
    JokerSpent,
)
from firmware_host.games.dropit.gamefile import piece_id
from firmware_host.games.dropit.rules.landing import Verdict
from firmware_host.games.dropit.rules.pieces import Color, Piece, Shape
from firmware_host.games.dropit.state import GameState, Turn
from firmware_host.games.dropit.table import DropItTable, joker_on_offer, rule_drop
from firmware_host.games.dropit.track import TrackState
from firmware_host.games.dropit.view import DropItView, Question, Selection
from firmware_host.games.dropit.words import PIECE, SUBJECT, explain
from firmware_host.i18n import Listed, Text, lazy, lazy_n
from firmware_host.journal.dropit import DropItRecord
from firmware_host.logs import event
from firmware_host.outputs.track_display import TrackDisplay
from firmware_host.outputs.track_lights import Animation
from firmware_host.panel.buttons import Action as Button
from firmware_host.sensors.drop import DropEntry, DropReadings
from firmware_host.sensors.piece_reader import piece_of_tag
from firmware_host.service.referee import (
    Asked,
    CameraReferee,
    EarlyReferee,
    Identity,
    Landed,
    Mishap,
    MishapKind,
    Outcome,
    Referee,
)
from firmware_host.web.actions import Again, Staff, StaffOp
from firmware_host.web.game_feed import ViewChannel

log = logging.getLogger("firmware_host.service")

class Phase(StrEnum):
    """What the table waits for."""

    SELECT = "select"
    JUDGING = "judging"
    QUESTION = "question"
    JOKER = "joker"
    OVER = "over"


NewGame = Callable[[GameStarted], DropItRecord]
"""Journals a new game with this set-up and returns it."""

KeepFrame = Callable[[int, int], Path | None]
"""Keeps the frame a verdict came from (game id, turn): its file, or None when the drop
was judged without the camera (:class:`~firmware_host.camera.kept.FrameKeeper`)."""


class DropItController:
    """The turn flow of ``game`` on ``board``, refereed by ``referee``, shown on ``tracks``.

    ``new_game`` starts the next game (staff abort or set one up, or the players play
    again; None: abort only ends the game).
    """

    def __init__(
        self,
        board: Board,
        game: DropItRecord,
        referee: Referee,
        tracks: TrackDisplay | None = None,
        new_game: NewGame | None = None,
        keep_frame: KeepFrame | None = None,
    ) -> None:
        self.board = board
        self.game = game
        self.referee = referee
        self.tracks = tracks
        self._new_game = new_game
        self._keep_frame = keep_frame
        self.paused: Text | None = None
        self.mishaps = 0
        """Drops that could not be refereed so far (each is played again)."""
        self._selection: Selection | None = None
        self._question: Question | None = None
        self._asked = 0
        self.asked: Asked | None = None
        self._unjudged: int | None = None
        """The referee's open question (None when it asks nothing)."""
        self._verdict: Verdict | None = None
        self._status: Text = ""
        self._phase = Phase.SELECT
        self._channel = ViewChannel(self._view())
        self._enter_turn(resumed=True)

    # -- what the outside reads -------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The game's state as journaled."""
        return self.game.state

    @property
    def phase(self) -> Phase:
        """What the table waits for now."""
        return self._phase

    @property
    def question(self) -> Question | None:
        """The referee's pending question, if any."""
        return self._question

    @property
    def finished(self) -> bool:
        """True once the game is over and no joker offer is pending."""
        return self._phase is Phase.OVER

    def snapshot(self) -> DropItView:
        """The view as it is now (the page's :class:`~firmware_host.web.game_feed.GameFeed`)."""
        return self._channel.view

    def updates(self) -> AsyncIterator[DropItView]:
        """Each new view."""
        return self._channel.updates()

    def redraw(self) -> None:
        """Show the journaled state on the LED tracks again (say, a new backend, or the hub
        back after it put its LEDs to idle)."""
        self._show_tracks()

    # -- inputs -----------------------------------------------------------------------

    async def act(self, action: SeatAction | Staff, seat: str) -> None:
        """A checked action from the page or an autoplay player (IllegalMove: refused)."""
        if isinstance(action, Select):
            if self._piece_question():
                await self.choose(action.color, action.shape)
            else:
                self.select(action.color, action.shape)
        elif isinstance(action, Confirm):
            self.confirm()
        elif isinstance(action, Joker):
            self.settle_joker(action.spend)
        elif isinstance(action, Answer):
            if self._question is None or self._question.id != action.question:
                raise IllegalMove(
                    lazy("no pending question {question}", question=repr(action.question))
                )
            await self.answer(action.yes)
        elif isinstance(action, Again):
            if self._phase is not Phase.OVER:
                raise IllegalMove(lazy("the game is not over yet"))
            self._start_next(self.state.started, "a new game with the same players begins")
        else:
            self._staff(action)
        event(log, "action", type=action.type, seat=seat)

    async def press(self, button: Button) -> None:
        """A panel button was pressed: what it means depends on what the table waits for."""
        try:
            if self._phase is Phase.QUESTION and not self._piece_question():
                if button in (Button.ANSWER_YES, Button.ANSWER_NO):
                    await self.answer(button is Button.ANSWER_YES)
            elif self._phase is Phase.JOKER:
                if button in (Button.JOKER, Button.ANSWER_YES):
                    self.settle_joker(True)
                elif button in (Button.ANSWER_NO, Button.CONFIRM):
                    self.settle_joker(False)
            elif self._phase is Phase.SELECT:
                if button in (Button.NEXT_SHAPE, Button.PREVIOUS_SHAPE):
                    self._step_selection(1 if button is Button.NEXT_SHAPE else -1)
                elif button is Button.CONFIRM:
                    self.confirm()
        except IllegalMove as exc:
            self._say(exc.text)

    def select(self, color: Color, shape: Shape) -> None:
        """The current player chooses the ``color`` ``shape`` to drop next."""
        turn = self._turn_for_input()
        self.state.check_drop(turn.player, color, shape)
        self._selection = Selection(turn.player, color, shape)
        self._say(
            lazy("{player} will drop the {piece}", player=turn.player, piece=PIECE[color, shape])
        )

    def confirm(self) -> None:
        """The selected shape is about to be dropped."""
        turn = self._turn_for_input()
        if self._selection is None:
            raise IllegalMove(
                lazy("{player} has not selected a shape to confirm", player=turn.player)
            )
        selection = self._selection
        piece = PIECE[selection.color, selection.shape]
        self._say(lazy("{player}: drop the {piece} now", player=turn.player, piece=piece))

    async def answer(self, yes: bool) -> None:
        """The players answer the referee's pending yes/no question."""
        if self._question is None or self._piece_question():
            raise IllegalMove(lazy("the referee has not asked a yes/no question"))
        event(log, "answer", question=self._question.id, yes=yes)
        self._question = None
        await self._settle(self.referee.answer, yes)

    async def choose(self, color: Color, shape: Shape) -> None:
        """The players answer "which piece was dropped?" with the ``color`` ``shape``."""
        asked = self.asked
        if asked is None or (color, shape) not in asked.options:
            raise IllegalMove(
                lazy("the referee did not ask whether {piece} fell", piece=SUBJECT[color, shape])
            )
        event(log, "piece chosen", color=color, shape=shape)
        self._question = None
        await self._settle(self.referee.choose, color, shape)

    def settle_joker(self, spend: bool) -> None:
        """Spend (True) or decline the joker on offer."""
        if self._phase is not Phase.JOKER:
            raise IllegalMove(lazy("no joker is on offer"))
        drop = self.state.drops[-1]
        if spend:
            self._record(JokerSpent(drop.turn))
            self._say(
                lazy("{team} spends a joker on turn {turn}", team=drop.competitor, turn=drop.turn)
            )
            self._tracks_animate(Animation.POINTS_GAINED, drop.competitor)
        else:
            self._say(lazy("{team} keeps the joker", team=drop.competitor))
        if self.state.over and not spend:
            self.game.finish()
        self._enter_turn()

    def entered(self, entry: DropEntry) -> None:
        """The drop feed saw a piece go through the entry gate: an early referee may start
        on it (the drop's readings then finish it, :meth:`dropped`)."""
        turn = self.state.current
        if not isinstance(self.referee, EarlyReferee) or turn is None:
            return
        if self.paused is not None or self._phase is not Phase.SELECT:
            return
        options = tuple((c, s) for c, s, _ in self.state.standing(turn.competitor.name).supply)
        identity = self._identity(entry.tag)
        self.referee.begin(self.state.board, identity, entry, piece_id(turn.number), options)

    async def dropped(self, readings: DropReadings) -> None:
        """The drop feed assembled one drop's readings: referee it."""
        turn = self.state.current
        if self._phase is Phase.JOKER:
            self.settle_joker(False)
            turn = self.state.current
        if self._phase is Phase.JUDGING:
            event(log, "second drop while judging: ignored", logging.WARNING)
            self._say(lazy("a second piece fell before the referee finished: take it out"))
            return
        if self.paused is not None or turn is None or self._phase is not Phase.SELECT:
            # one whole sentence each: a clause put into another is not always translatable
            if self.paused is not None:  # the status line says why
                fell = lazy("a piece fell while the game is paused: take it out; it does not count")
            elif turn is None:
                fell = lazy("a piece fell while the game is over: take it out; it does not count")
            else:
                fell = lazy("a piece fell while a question is open: take it out; it does not count")
            self.mishap(_disagrees(fell))
            return
        self._unjudged = turn.number
        identity = self._identity(readings.tag)
        options = tuple((c, s) for c, s, _ in self.state.standing(turn.competitor.name).supply)
        event(
            log,
            "drop seen",
            turn=turn.number,
            identity="unknown" if identity is None else f"{identity[0]} {identity[1]}",
        )
        await self._settle(
            self.referee.look, self.state.board, identity, readings, piece_id(turn.number), options
        )

    def confirm_board(self, pieces: tuple[Piece, ...]) -> None:
        """Staff confirm the board after a drop the referee could not judge: every piece as
        it lies (the dropped one last); the drop is judged on it."""
        turn = self.state.current
        if turn is None or self._unjudged != turn.number or self._phase is not Phase.SELECT:
            raise IllegalMove(lazy("no drop waits for staff to confirm the board"))
        if not pieces or pieces[-1].id != piece_id(turn.number):
            raise IllegalMove(
                lazy(
                    "the board must end with the piece dropped, {piece}",
                    piece=piece_id(turn.number),
                )
            )
        event(log, "board confirmed by staff", turn=turn.number, pieces=len(pieces))
        self._decided(Landed(pieces))

    def mishap(self, mishap: Mishap) -> None:
        """A drop that cannot be refereed: nothing counts, the turn is played again."""
        event(log, "mishap", logging.WARNING, kind=mishap.kind, message=str(mishap.message))
        self.mishaps += 1
        self.asked = None
        self._question = None
        if self._phase is Phase.QUESTION:
            self._phase = Phase.SELECT
        self._say(mishap.message)

    def link_changed(self, up: bool, message: str = "", why: Text | None = None) -> None:
        """The hub link came up or went away: pause or resume the game where it was.

        ``why`` replaces the paused message (say, a hub that is not this table's)."""
        if up:
            if self.paused is not None:
                event(log, "game carries on: hub back")
                self.paused = None
                self._say(lazy("the sensor hub is back: the game carries on"))
                self._show_tracks()
            return
        paused = why or lazy(
            "the sensor hub is not connected: check its USB cable "
            "(the game carries on by itself when it is back)"
        )
        if self.paused != paused:
            self.paused = paused
            event(log, "game paused", logging.WARNING, why=str(self.paused), link=message)
            self._say(self.paused)

    # -- the turn flow ----------------------------------------------------------------

    def _turn_for_input(self) -> Turn:
        turn = self.state.current
        if turn is None or self._phase is Phase.OVER:
            raise IllegalMove(lazy("the game is over"))
        if self._phase is not Phase.SELECT:
            raise IllegalMove(lazy("answer the referee's question or the joker offer first"))
        if self.paused is not None:
            raise IllegalMove(lazy("the game is paused: {why}", why=self.paused))
        return turn

    def _identity(self, tag: str | None) -> Identity | None:
        if tag is not None:
            try:
                return piece_of_tag(tag)
            except InputError as exc:
                event(log, "unreadable piece tag", logging.WARNING, problem=str(exc))
        if self._selection is not None:
            return self._selection.color, self._selection.shape
        return None

    def _piece_question(self) -> bool:
        return self.asked is not None and bool(self.asked.options)

    async def _settle(self, work: Callable[..., Outcome], *args: object) -> None:
        """Run the referee's ``work`` off the event loop (it simulates), then act on it."""
        self._phase = Phase.JUDGING
        self._publish()
        try:
            outcome = await asyncio.to_thread(work, *args)
        except Exception as exc:  # a fault in the referee must not stop the game
            log.exception("the referee failed")
            outcome = _could_not_judge(exc)
        if isinstance(outcome, Asked):
            self.asked = outcome
            self._asked += 1
            turn = self.state.current
            player = turn.player if turn else ""
            self._question = self._page_question(f"q{self._asked}", outcome, player)
            self._phase = Phase.QUESTION
            event(log, "question", id=self._question.id, player=player, text=outcome.text)
            self._say(
                lazy(
                    "the referee asks {player}: {question}",
                    player=player,
                    question=self._question.text,
                )
            )
            return
        self.asked = None
        if isinstance(outcome, Mishap):
            self._phase = Phase.SELECT
            self.mishap(outcome)
            return
        self._decided(outcome)

    def _page_question(self, question_id: str, asked: Asked, player: str) -> Question:
        """The question as the page puts it: plain words, the piece drawn where the referee
        believes it rests, and what is asked about lit up."""
        if asked.options:
            words = lazy("Which piece was dropped?")
            return Question(question_id, words, player, choices=asked.options)
        if asked.dropped is None or not asked.key:
            return Question(question_id, asked.text, player, ghost=asked.dropped)
        plain, mark = plain_question(asked.key, asked.dropped, self.state.board, self.board)
        return Question(question_id, plain or asked.text, player, asked.dropped, mark)

    def _decided(self, landed: Landed) -> None:
        turn = self.state.current
        assert turn is not None
        dropped = landed.dropped
        try:
            ruled = rule_drop(self.state, self.board, landed.pieces)
        except (IllegalMove, InputError) as exc:
            self._phase = Phase.SELECT
            self.mishap(_could_not_judge(exc))
            return
        # the pile's shifts and the drop are one journal entry: a power cut between them
        # would have the resumed game see the shifts again
        self._record(*ruled.events)
        verdict = self._verdict = ruled.verdict
        frame = self._keep_frame(self.game.game_id, turn.number) if self._keep_frame else None
        event(
            log,
            "verdict",
            turn=turn.number,
            player=turn.player,
            piece=dropped.describe(),
            points=verdict.points,
            moved=ruled.moved,
            words=verdict.explain(),
            **({"frame": str(frame)} if frame is not None else {}),
        )
        self._say(lazy("turn {turn}: {verdict}", turn=turn.number, verdict=explain(verdict)))
        competitor = turn.competitor.name
        self._tracks_animate(
            Animation.POINTS_GAINED if verdict.valid else Animation.RULE_BROKEN, competitor
        )
        if joker_on_offer(self.state):
            self._phase = Phase.JOKER
            self._say(
                lazy(
                    "turn {turn}: {team} may spend a joker (joker / yes / no)",
                    turn=turn.number,
                    team=competitor,
                )
            )
            self._publish()
            return
        self._enter_turn()

    def _enter_turn(self, resumed: bool = False) -> None:
        self._unjudged = None
        self._selection = None
        self._question = None
        if resumed and joker_on_offer(self.state):
            self._phase = Phase.JOKER
        elif self.state.current is None:
            self._phase = Phase.OVER
            winners = self.state.winners()
            self._say(
                lazy_n(
                    "game over: {winners} won",
                    "game over: {winners} won",
                    len(winners),
                    winners=Listed(winners),
                )
            )
            event(log, "game over", game=self.game.game_id, winners=",".join(winners))
            self._show_tracks()
            if self.tracks is not None and not resumed:
                names = [s.competitor.name for s in self.state.standings]
                self.tracks.animate(Animation.WINNER, [names.index(w) for w in winners])
            self._publish()
            return
        else:
            self._phase = Phase.SELECT
            turn = self.state.current
            assert turn is not None
            self._status = lazy(
                "turn {turn}: {player} selects a shape", turn=turn.number, player=turn.player
            )
        if resumed:
            self._show_tracks()
        self._publish()

    def _step_selection(self, step: int) -> None:
        turn = self._turn_for_input()
        choices = [(c, s) for c, s, _ in self.state.standing(turn.competitor.name).supply]
        current = (
            (self._selection.color, self._selection.shape) if self._selection is not None else None
        )
        index = choices.index(current) + step if current in choices else (0 if step > 0 else -1)
        self.select(*choices[index % len(choices)])

    def _staff(self, action: Staff) -> None:
        if action.op is StaffOp.ABORT:
            event(log, "game aborted by staff", logging.WARNING, game=self.game.game_id)
            if self._new_game is None:
                self.game.finish()
                self._phase = Phase.OVER
                self._say(lazy("game aborted by staff"))
                return
            self._start_next(self.state.started, lazy("game aborted by staff; a new game begins"))
        elif action.op is StaffOp.NEW:
            self._start_next(
                DropItTable.set_up(self.state.started, action), lazy("staff set up a new game")
            )
        elif action.op is StaffOp.RESYNC:
            self.asked = None
            self._question = None
            self._phase = Phase.SELECT if self.state.current else Phase.OVER
            self._say(lazy("re-synced: the turn starts again"))
        else:
            raise IllegalMove(lazy("settings are changed in the config files for this table"))

    def _start_next(self, started: GameStarted, status: Text) -> None:
        """End this game (if it is not over) and begin the next one, set up as ``started``."""
        if self._new_game is None:
            raise IllegalMove(lazy("this table cannot start a new game"))
        if self._phase is Phase.JUDGING:
            raise IllegalMove(lazy("the referee is judging a drop: try again in a moment"))
        GameState.start(started)  # a set-up the rules refuse is refused before anything ends
        self.game.finish()
        self.game = self._new_game(started)
        self.asked = None  # a question of the ended game is not this one's
        players = ",".join(m for c in started.competitors for m in c.members)
        event(log, "game started", game=self.game.game_id, players=players)
        self._verdict = None
        self._enter_turn(resumed=True)
        self._say(status)

    # -- outputs (only after the journal committed) -----------------------------------

    def _record(self, *journaled: Event) -> None:
        self.game.record(*journaled)
        self._show_tracks()

    def _show_tracks(self) -> None:
        scores = self.state.scores()
        shown = " ".join(
            f"{s.name}={s.track.points}:{s.track.position}{_faces(s.track)}" for s in scores
        )
        event(log, "tracks", events=self.game.events, shown=shown)
        if self.tracks is not None:
            self.tracks.show([score.track for score in scores])

    def _tracks_animate(self, animation: Animation, competitor: str) -> None:
        if self.tracks is None:
            return
        names = [s.competitor.name for s in self.state.standings]
        self.tracks.animate(animation, [names.index(competitor)])

    def _say(self, status: Text) -> None:
        self._status = status
        self._publish()

    def _publish(self) -> None:
        self._channel.publish(self._view())

    def _view(self) -> DropItView:
        status = self._status if self.paused is None else lazy("PAUSED: {why}", why=self.paused)
        return DropItView(
            board=self.board,
            state=self.state,
            game_id=str(self.game.game_id),  # as `tabletop games` lists it
            verdict=self._verdict,
            question=self._question,
            selection=self._selection,
            joker_offer=self._phase is Phase.JOKER,
            status=status,
            camera=self._camera_out(),
        )

    @property
    def camera_status(self) -> Text:
        """``"none"`` (no camera), ``"ok"``, or what keeps the referee's camera out."""
        return self.referee.camera_status if isinstance(self.referee, CameraReferee) else "none"

    def _camera_out(self) -> Text:
        """What keeps the referee's camera out ("" while it sees, or without one)."""
        status = self.camera_status
        return "" if status in ("ok", "none") else status


def _could_not_judge(exc: Exception) -> Mishap:
    """A mishap for a fault of the referee (``exc`` is said as it is: it is for the staff)."""
    return _disagrees(
        lazy("the referee could not judge this drop ({error}); staff: re-sync", error=str(exc))
    )


def _disagrees(message: Text) -> Mishap:
    """A mishap the table itself finds (the board and the model disagree)."""
    return Mishap(MishapKind.DISAGREES, message)


def _faces(track: TrackState) -> str:
    return "".join(f"+{token.value}" for token in track.tokens if token.face is not None)
