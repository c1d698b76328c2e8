"""Auch schon clever at the table: the rules engine bound to the tray's dice and the page.

:class:`CleverTable` is the :class:`~firmware_host.games.table_game.TableGame` of the party dice
game (engine: :mod:`firmware_host.games.clever`, rules and choices: ``docs/games/clever.md``).
The journal keeps the engine's own events (``game_started``, ``dice_rolled``,
``dice_chosen``, ``passed``): the lines ``tabletop clever --replay`` reads.

A player's whole turn is one move, built on the page step by step from the view and checked
here once more::

    {"type": "choose", "color": "yellow",
     "uses": [{"box": "yellow.1", "dice": [0]}], "bonuses": ["blue.donut.1"]}
    {"type": "pass"}

>>> from firmware_host.games.table_game import Setup
>>> game = CleverTable.replay([CleverTable.first_event(Setup(("Olivia", "Eric")))])
>>> game.roll()
Roll(dice=(0, 1, 2, 3, 4), by='Olivia')
>>> game = game.apply(game.dice_event([0, 1, 3, 2, 0]))  # yellow heart, yellow green, ...
>>> game.view()["waiting_for"]
['Olivia']
>>> move = {"type": "choose", "color": "yellow", "uses": [{"box": "yellow.1", "dice": [0]}]}
>>> game = game.apply(game.move_event("Olivia", move))
>>> game.view()["game"]["choices"]["Eric"]["dice"]
[1, 2, 3, 4]
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from firmware_host.errors import IllegalMove, InputError
from firmware_host.games.clever.autoplay import choose
from firmware_host.games.clever.events import DiceChosen, DiceRolled, Event, GameStarted, Passed
from firmware_host.games.clever.game import Game, Phase
from firmware_host.games.clever.layout import DICE, FACES, load_layout
from firmware_host.games.clever.sheet import Box, Sheet
from firmware_host.games.table_game import EventJson, Roll, Setup
from firmware_host.i18n import Listed, Message, Say, lazy, lazy_n, lazy_p

MOVE = "clever move"
"""How errors name a malformed move."""

DICE_SOURCE = "clever dice"
"""How errors name a malformed throw."""

MIN_PLAYERS = 1
"""The engine plays solo games too."""

MAX_PLAYERS = 4
"""The box is for two to four players (four pencils)."""

CHOOSE_KEYS = frozenset({"type", "color", "uses", "bonuses"})


@cache
def reference_sheet() -> Sheet:
    """The sheet of the reference layout (``config/games/clever.yaml``), loaded once."""
    return Sheet(load_layout())


@dataclass(frozen=True)
class CleverTable:
    """A game of Auch schon clever in progress, as the table service drives it."""

    KIND: ClassVar[str] = "clever"
    TITLE: ClassVar[str] = "Auch schon clever"
    VARIANTS: ClassVar[tuple[str, ...]] = ()
    DICE: ClassVar[int] = DICE

    game: Game

    @classmethod
    def first_event(cls, setup: Setup) -> EventJson:
        """``game_started`` with the players (the first starts) and the seed."""
        if setup.variant is not None:
            raise ValueError(f"{cls.TITLE} has no variants, got {setup.variant!r}")
        if not MIN_PLAYERS <= len(setup.players) <= MAX_PLAYERS:
            raise ValueError(
                lazy(
                    "{game} is for {least} to {most} players, got {count}",
                    game=cls.TITLE,
                    least=MIN_PLAYERS,
                    most=MAX_PLAYERS,
                    count=len(setup.players),
                )
            )
        if len(set(setup.players)) != len(setup.players):
            raise ValueError(
                lazy("a name appears twice among {players}", players=", ".join(setup.players))
            )
        return GameStarted(setup.players, setup.players[0], setup.seed).to_json()

    @classmethod
    def replay(cls, events: Sequence[EventJson]) -> CleverTable:
        """The game after ``events`` (the journal's JSON forms)."""
        read = [Event.from_json(event) for event in events]
        return cls(Game.replay(reference_sheet(), read))

    def apply(self, event: EventJson) -> CleverTable:
        """The game after one more event."""
        return CleverTable(self.game.apply(Event.from_json(event)))

    @property
    def players(self) -> tuple[str, ...]:
        """The players in seating order."""
        return self.game.players

    @property
    def over(self) -> bool:
        """True once someone completed an area and the turn ended."""
        return self.game.over

    def roll(self) -> Roll | None:
        """All five dice by the starting player: at the start of a turn, and again while
        they can use none of the dice."""
        if self.game.phase is Phase.ROLL or self.game.must_reroll:
            return Roll(tuple(range(DICE)), self.game.starter)
        return None

    def dice_event(self, faces: Sequence[int]) -> EventJson:
        """``dice_rolled`` for the throw :meth:`roll` asked for (face indices 0..5)."""
        roll = self.roll()
        if roll is None:
            raise IllegalMove(f"nobody rolls now: {self._status()}")
        if len(faces) != len(roll.dice):
            raise InputError(DICE_SOURCE, "faces", f"expected {DICE} faces, got {len(faces)}")
        for d, face in enumerate(faces):
            if isinstance(face, bool) or not isinstance(face, int) or not 0 <= face < FACES:
                raise InputError(
                    DICE_SOURCE, f"faces[{d}]", f"expected a face 0 to {FACES - 1}, got {face!r}"
                )
        return DiceRolled(roll.by, tuple(faces)).to_json()

    def move_event(self, seat: str, move: Mapping[str, Any]) -> EventJson:
        """The ``dice_chosen`` or ``passed`` event of ``seat``'s ``move``, checked by the rules."""
        if seat not in self.game.players:
            raise IllegalMove(
                f"{seat} cannot move: not a player of this game ({', '.join(self.game.players)})"
            )
        event = parse_move(seat, move)
        self.game.apply(event)
        return event.to_json()

    def auto_move(self, player: str, rng: random.Random) -> Mapping[str, Any] | None:
        """A random legal turn for ``player``, or None when no move of theirs is awaited."""
        if self.roll() is not None or player not in self.game.waiting_for:
            return None
        return move_json(choose(self.game, player, rng))

    def view(self, say: Say = str) -> dict[str, Any]:
        """The common view keys, scores in rainbow stars, and the game's part (see the
        docs); the words said by ``say`` (English by default)."""
        game = self.game
        waiting = [] if self.roll() is not None else list(game.waiting_for)
        roll = self.roll()
        return {
            "kind": self.KIND,
            "title": self.TITLE,
            "players": list(game.players),
            "scores": game.scores(),
            "score_label": say(lazy_p("score", "stars")),
            "waiting_for": waiting,
            "roll": roll.to_json() if roll is not None else None,
            "status": say(self._status()),
            "over": game.over,
            "winners": list(game.winners()),
            "game": {
                "turn": game.turn,
                "phase": game.phase.value,
                "starter": game.starter,
                "dice": [
                    {
                        "die": d,
                        "face": f,
                        "name": face.describe(),
                        "color": face.color.value if face.color is not None else None,
                        "symbol": face.symbol,
                    }
                    for d, (f, face) in enumerate(zip(game.faces, game.rolled(), strict=True))
                ],
                "left": sorted(game.unused) if game.phase is Phase.OTHERS else None,
                "sheet": sheet_json(game.sheet, say),
                "sheets": {
                    p: {
                        "crossed": sorted(game.sheets[p], key=list(game.sheet.boxes).index),
                        "stars": {c.value: n for c, n in game.stars(p).items()},
                        "completed": [c.value for c in game.completed(p)],
                    }
                    for p in game.players
                },
                "choices": {
                    p: {
                        "dice": sorted(game.dice_for(p)),
                        "colors": [c.value for c in game.colors(p)],
                        "may_pass": p != game.starter,
                    }
                    for p in waiting
                },
            },
        }

    def _status(self) -> Message:
        game = self.game
        turn, starter = game.turn, game.starter
        if game.over:
            winners = game.winners()
            stars = game.scores()[winners[0]]
            return lazy_n(
                "Game over: {winners} wins with {stars}",
                "Game over: {winners} share the win with {stars}",
                len(winners),
                winners=Listed(winners),
                stars=lazy_n("{count} rainbow star", "{count} rainbow stars", stars),
            )
        if game.phase is Phase.ROLL:
            return lazy("Turn {turn}: {player} rolls the five dice", turn=turn, player=starter)
        if game.must_reroll:
            return lazy(
                "Turn {turn}: {player} can use no die and rolls all five again",
                turn=turn,
                player=starter,
            )
        if game.phase is Phase.START:
            return lazy("Turn {turn}: {player} chooses a colour", turn=turn, player=starter)
        return lazy_n(
            "Turn {turn}: {players} chooses from the dice {player} left",
            "Turn {turn}: {players} choose from the dice {player} left",
            len(game.waiting_for),
            turn=turn,
            players=Listed(game.waiting_for),
            player=starter,
        )


def parse_move(player: str, move: Any) -> DiceChosen | Passed:
    """``player``'s move as the engine's event; :class:`InputError` names a malformed key.

    >>> parse_move("Ann", {"type": "pass"})
    Passed(player='Ann')
    >>> parse_move("Ann", {"type": "choose", "color": "red", "uses": "x"})
    Traceback (most recent call last):
    ...
    firmware_host.errors.InputError: clever move: uses: expected a list, got 'x'
    """
    if not isinstance(move, Mapping):
        raise InputError(MOVE, "(top level)", f"expected an object, got {move!r}")
    kind = move.get("type")
    if kind == "pass":
        for key in move:
            if key != "type":
                raise InputError(MOVE, str(key), "unknown key (a pass has only 'type')")
        return Passed(player)
    if kind != "choose":
        raise InputError(MOVE, "type", f"expected 'choose' or 'pass', got {kind!r}")
    for key in move:
        if key not in CHOOSE_KEYS:
            raise InputError(MOVE, str(key), "unknown key")
    data = {"bonuses": [], **move, "type": DiceChosen.TYPE, "player": player}
    try:
        event = Event.from_json(data)
    except InputError as exc:
        raise InputError(MOVE, exc.where, exc.problem) from None
    assert isinstance(event, DiceChosen)
    return event


def move_json(event: DiceChosen | Passed) -> dict[str, Any]:
    """The move a page sends for ``event`` (the inverse of :func:`parse_move`)."""
    if isinstance(event, Passed):
        return {"type": "pass"}
    data = event.to_json()
    return {key: data[key] for key in ("color", "uses", "bonuses")} | {"type": "choose"}


def sheet_json(sheet: Sheet, say: Say = str) -> dict[str, Any]:
    """The printed sheet for the page: every box (its name said by ``say``), each row
    crossed in order (a list, as the order of the rows matters and JSON objects have
    none), the green grid."""
    green = sheet.layout.green
    return {
        "boxes": [_box_json(box, say) for box in sheet.boxes.values()],
        "tracks": [
            {"name": name, "boxes": [b.id for b in track]} for name, track in sheet.tracks.items()
        ],
        "green": {
            "rows": [list(row) for row in sheet.rows],
            "columns": [list(column) for column in sheet.columns],
            "column_bonuses": {str(c): color.value for c, color in green.column_bonuses.items()},
            "left_column_stars": green.left_column_stars,
            "row_stars": green.row_stars,
        },
    }


SYMBOLS = {
    "heart": lazy_p("clever symbol", "heart"),
    "present": lazy_p("clever symbol", "present"),
    "cupcake": lazy_p("clever symbol", "cupcake"),
    "donut": lazy_p("clever symbol", "donut"),
    "cake": lazy_p("clever symbol", "cake"),
}
"""The shipped sheet's symbols as a box's name says them (another sheet's are as written)."""

BALLOONS = {
    "heart": lazy_p("clever balloon", "heart"),
    "blue": lazy_p("clever balloon", "blue"),
    "pink": lazy_p("clever balloon", "pink"),
    "green": lazy_p("clever balloon", "green"),
}
"""The yellow row's balloons, by their symbol."""


def box_name(box: Box) -> Message:
    """The box as a player says it (the engine's :attr:`Box.name`), in any language.

    >>> from firmware_host.i18n import translator
    >>> sheet = Sheet(load_layout())
    >>> [box_name(sheet.box(b))(translator("de")) for b in ("yellow.2", "red.3", "green.1.2")]
    ['Ballon 2 (blau)', 'Wagen 3 (1 Kerze)', 'Geschenk in Reihe 1, Spalte 2']
    """
    place = box.id.split(".")
    if box.area.value == "yellow":
        symbol = BALLOONS.get(box.symbol, box.symbol)
        return lazy("balloon {number} ({symbol})", number=int(place[1]), symbol=symbol)
    if box.area.value == "red":
        return lazy_n(
            "wagon {number} ({count} candle)",
            "wagon {number} ({count} candles)",
            box.size,
            number=int(place[1]),
        )
    symbol = SYMBOLS.get(box.symbol, box.symbol)
    if box.area.value == "blue":
        return lazy("{symbol} pair {number}", symbol=symbol, number=int(place[2]))
    return lazy(
        "{symbol} at row {row}, column {column}",
        symbol=symbol,
        row=int(place[1]),
        column=int(place[2]),
    )


def _box_json(box: Box, say: Say) -> dict[str, Any]:
    return {
        "id": box.id,
        "area": box.area.value,
        "symbol": box.symbol,
        "size": box.size,
        "track": box.track,
        "stars": box.stars,
        "bonus": box.bonus.value if box.bonus is not None else None,
        "name": say(box_name(box)),
    }
