"""The dice games' controller: one dice game's flow, journaled, for the tray and the page.

:class:`DiceController` holds a :class:`~firmware_host.games.table_game.TableGame` and its journal.
Every event -- a throw read from the tray, a player's move from the page -- is checked by
the game, committed to the journal, and only then applied and shown: a power cut never
takes back what a player saw, and :meth:`DiceController.resume` continues the game from its
journal. It implements the page's :class:`~firmware_host.web.game_feed.GameFeed` (``snapshot``,
``updates``, ``act``) and what :class:`~firmware_host.service.link_watch.LinkWatch`
calls (``link_changed``, ``redraw``).

"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any

from firmware_host.errors import IllegalMove, InputError
from firmware_host.games.table_game import EventJson, Setup, TableGame
from firmware_host.i18n import Text, lazy, said
from firmware_host.journal.store import Journal
from firmware_host.logs import event as log_event
from firmware_host.sensors import DieReading
from firmware_host.service.dice_tray import DiceTray
from firmware_host.web.actions import Again, Staff, StaffOp
from firmware_host.web.dice_actions import DiceAction, Move, Roll
from firmware_host.web.dice_view import DiceView
from firmware_host.web.game_feed import ViewChannel

log = logging.getLogger("firmware_host.service")

Thrower = Callable[[tuple[int, ...]], None]
"""Throws the tray's dice given (the simulator's virtual dice; a real tray has none)."""


class DiceController:
    """One dice game at the table (build it with :meth:`start` or :meth:`resume`)."""

    def __init__(
        self,
        journal: Journal,
        game_id: int,
        game: TableGame,
        events: int,
        *,
        dice: int,
        thrower: Thrower | None = None,
    ) -> None:
        if dice < type(game).DICE:
            raise InputError(
                "table",
                "tray.dice",
                f"{type(game).TITLE} needs {type(game).DICE} dice, the tray has {dice}",
            )
        self.journal = journal
        self.game_id = game_id
        self.game = game
        self.events = events
        self.thrower = thrower
        self.tray = DiceTray(dice)
        self.tray.want(game.roll())
        self.setup: Setup | None = None
        """The set-up this table's game was started with (None for a resumed game)."""
        self._link: tuple[Text, bool] = (lazy("connecting to the hub"), False)
        self._channel = ViewChannel(self._view())

    @classmethod
    def start(
        cls,
        journal: Journal,
        kind: type[TableGame],
        setup: Setup,
        *,
        dice: int,
        thrower: Thrower | None = None,
    ) -> DiceController:
        """Journal a new game of ``kind`` for ``setup`` and return its table."""
        first = kind.first_event(setup)
        game = kind.replay([first])
        game_id = journal.start_game(kind.KIND, first)
        log_event(
            log, "game started", game=game_id, kind=kind.KIND, players=",".join(setup.players)
        )
        table = cls(journal, game_id, game, 1, dice=dice, thrower=thrower)
        table.setup = setup
        return table

    @classmethod
    def resume(
        cls,
        journal: Journal,
        kind: type[TableGame],
        *,
        dice: int,
        thrower: Thrower | None = None,
    ) -> DiceController | None:
        """The newest unfinished game of ``kind`` in ``journal``, replayed; ``None`` if none."""
        row = journal.unfinished(kind.KIND)
        if row is None:
            return None
        stored = journal.events(row.id)
        try:
            game = kind.replay([item.data for item in stored])
        except (InputError, IllegalMove) as exc:
            raise InputError(
                str(journal.path), f"game {row.id}", f"cannot be replayed: {exc}"
            ) from None
        log_event(log, "game resumed", game=row.id, kind=kind.KIND, events=len(stored))
        return cls(journal, row.id, game, len(stored), dice=dice, thrower=thrower)

    @property
    def finished(self) -> bool:
        """True once the game is over."""
        return self.game.over

    def snapshot(self) -> DiceView:
        """The view as it is now."""
        return self._channel.view

    def updates(self) -> AsyncIterator[DiceView]:
        """Each new view as it is published."""
        return self._channel.updates()

    def redraw(self) -> None:
        """Publish the view again (after the link came back, say)."""
        self._publish()

    def link_changed(self, up: bool, message: str = "", why: Text | None = None) -> None:
        """The hub link went up or down (``why``: what keeps it unusable though up)."""
        text = why or message or (lazy("hub connected") if up else lazy("hub disconnected"))
        self._link = (text, up and why is None)
        self._publish()

    async def act(self, action: DiceAction | Staff, seat: str) -> None:
        """Carry out a checked page action from ``seat``; IllegalMove refuses it."""
        if isinstance(action, Move):
            self.play(action.player or seat, action.move)
        elif isinstance(action, Roll):
            self.throw()
        elif isinstance(action, Again):
            if not self.game.over:
                raise IllegalMove(lazy("the game is not over yet"))
            self._start_next(self.journal.events(self.game_id)[0].data)
        elif action.op is StaffOp.ABORT:
            self.abort()
        elif action.op is StaffOp.NEW and action.players is not None and not action.settings:
            self.set_up(tuple(name.strip() for name in action.players))
        else:
            raise IllegalMove(
                lazy(
                    "staff: {action} is a Drop It action, not for {game}",
                    action=action.op.value,
                    game=type(self.game).TITLE,
                )
            )

    def play(self, player: str, move: Mapping[str, Any]) -> None:
        """Player ``player``'s move (untrusted JSON): journaled and shown, or refused with
        :class:`InputError` (malformed) / :class:`IllegalMove` (not allowed now)."""
        self._record(self.game.move_event(player, move))

    def throw(self) -> None:
        """Throw the dice the game waits for (the simulator's dice only)."""
        roll = self.game.roll()
        if roll is None:
            raise IllegalMove(lazy("the game is not waiting for a throw"))
        if self.thrower is None:
            raise IllegalMove(lazy("{player}: throw the dice in the tray", player=roll.by))
        self.thrower(roll.dice)

    def die(self, reading: DieReading) -> None:
        """One report from the tray; a completed throw is journaled and shown."""
        try:
            faces = self.tray.see(reading)
            if faces is not None:
                self._record(self.game.dice_event(faces))
                return
        except (ValueError, InputError, IllegalMove) as exc:
            log_event(log, "dice report refused", logging.WARNING, problem=str(exc))
        self._publish()

    def abort(self) -> None:
        """Staff end the game: it is marked finished and a new one with the same set-up
        starts (the aborted game stays in the journal)."""
        log_event(log, "game aborted", game=self.game_id)
        self._start_next(self.journal.events(self.game_id)[0].data)

    def set_up(self, players: tuple[str, ...]) -> None:
        """Staff end this game and start the next with ``players`` (the same variant; a
        new seed); refused, changing nothing, when the game does not take them."""
        kind = type(self.game)
        setup = Setup(players, seed=self.game_id + 1)
        if self.setup is not None:
            setup = Setup(players, self.setup.seed + self.game_id, self.setup.variant)
        try:
            first = kind.first_event(setup)
            kind.replay([first])
        except (ValueError, InputError) as exc:
            raise IllegalMove(lazy("staff: {problem}", problem=said(exc))) from exc
        self.setup = setup
        self._start_next(first)

    def _start_next(self, first: EventJson) -> None:
        """End this game (if it is not over) and start the next from its ``first`` event."""
        kind = type(self.game)
        self.journal.finish(self.game_id)
        self.game = kind.replay([first])
        self.game_id = self.journal.start_game(kind.KIND, first)
        self.events = 1
        log_event(
            log,
            "game started",
            game=self.game_id,
            kind=kind.KIND,
            players=",".join(self.game.players),
        )
        self.tray.want(self.game.roll())
        self._publish()

    def _record(self, event: EventJson) -> None:
        after = self.game.apply(event)
        self.journal.append(self.game_id, self.events + 1, event)
        self.events += 1
        self.game = after
        what = {k: v for k, v in event.items() if k != "type"}
        log_event(
            log,
            "move",
            game=self.game_id,
            event=self.events,
            type=event.get("type", ""),
            data=json.dumps(what, separators=(",", ":"), sort_keys=True),
            scores=" ".join(f"{k}={v}" for k, v in after.view()["scores"].items()),
        )
        if after.over:
            self.journal.finish(self.game_id)
            log_event(
                log, "game over", game=self.game_id, winners=",".join(after.view()["winners"])
            )
        self.tray.want(after.roll())
        self._publish()

    def _view(self) -> DiceView:
        text, up = self._link
        return DiceView(
            str(self.game_id),
            self.game.view(),
            text,
            up,
            self.thrower is not None,
            self.tray.rolling(),
            self.game,
        )

    def _publish(self) -> None:
        self._channel.publish(self._view())
