"""A game of "Auch schon clever" as a pure function of its events.

:meth:`Game.start` begins from a :class:`~firmware_host.games.clever.events.GameStarted`
event, :meth:`Game.apply` returns the state after one more event (the state itself never
changes), and :meth:`Game.replay` folds a whole journal. An event the rules do not allow
raises :class:`~firmware_host.errors.IllegalMove` naming the player, the move and the rule.

A turn goes through these phases:

- ``roll``: the starting player rolls all five dice;
- ``start``: the starting player chooses a colour area and crosses symbols with the dice of
  that background colour plus jokers (a :class:`DiceChosen`); when no die can be used at
  all, they roll all the dice again instead;
- ``others``: every other player may choose from the dice the starting player did not use
  (they share them) or pass; a player who can use none of them is skipped;
- then the next player clockwise starts, unless someone completed a colour area this turn:
  then the game is ``over`` and the players with the most rainbow stars win.

>>> from firmware_host.games.clever.events import Use
>>> from firmware_host.games.clever.layout import Color, load_layout
>>> from firmware_host.games.clever.sheet import Sheet
>>> game = Game.start(Sheet(load_layout()), GameStarted(("Olivia", "Eric"), "Olivia", 7))
>>> game = game.apply(DiceRolled("Olivia", (0, 1, 3, 2, 0)))   # yellow heart, yellow green, ...
>>> game.phase, game.waiting_for
(<Phase.START: 'start'>, ('Olivia',))
>>> game = game.apply(DiceChosen("Olivia", Color.YELLOW, (Use("yellow.1", (0,)),)))
>>> game.phase, game.waiting_for, sorted(game.dice_for("Eric"))
(<Phase.OTHERS: 'others'>, ('Eric',), [1, 2, 3, 4])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import partial
from typing import Any, NoReturn

from firmware_host.errors import IllegalMove
from firmware_host.games import event_log
from firmware_host.games.clever.dice import faces_shown
from firmware_host.games.clever.events import (
    DiceChosen,
    DiceRolled,
    Event,
    GameStarted,
    Passed,
)
from firmware_host.games.clever.layout import Color, Face
from firmware_host.games.clever.sheet import Crossed, Sheet
from firmware_host.games.clever.turn import Draft


class Phase(StrEnum):
    """Where the current turn stands."""

    ROLL = "roll"
    START = "start"
    OTHERS = "others"
    OVER = "over"


@dataclass(frozen=True)
class Game:
    """The state of a game after some events; every query a page or scoreboard needs.

    ``faces`` is the current roll (face indices per die, empty before the roll),
    ``unused`` the dice the starting player did not use, ``acted`` the other players who
    chose or passed this turn, ``sheets`` each player's crossed boxes.
    """

    sheet: Sheet
    players: tuple[str, ...]
    seed: int
    starter: str
    phase: Phase = Phase.ROLL
    turn: int = 1
    faces: tuple[int, ...] = ()
    unused: frozenset[int] = frozenset()
    acted: frozenset[str] = frozenset()
    sheets: Mapping[str, Crossed] = field(default_factory=dict)

    @classmethod
    def start(cls, sheet: Sheet, event: GameStarted) -> Game:
        """A new game: empty sheets, the first starting player about to roll."""
        players = event.players
        if not players:
            raise IllegalMove("a game cannot start without players")
        if len(set(players)) != len(players):
            raise IllegalMove(f"a game cannot start with a name twice: {', '.join(players)}")
        if event.first not in players:
            raise IllegalMove(
                f"{event.first} cannot start the game: not one of the players "
                f"({', '.join(players)})"
            )
        return cls(
            sheet=sheet,
            players=players,
            seed=event.seed,
            starter=event.first,
            sheets={p: frozenset() for p in players},
        )

    @classmethod
    def replay(cls, sheet: Sheet, events: Iterable[Event]) -> Game:
        """The state after ``events`` (the first must be :class:`GameStarted`)."""
        return event_log.replay(GameStarted, partial(cls.start, sheet), events, "Auch schon clever")

    def apply(self, event: Event) -> Game:
        """The state after ``event``; IllegalMove (and no change) if the rules forbid it."""
        if isinstance(event, DiceRolled):
            return self._rolled(event)
        if isinstance(event, DiceChosen):
            return self._chosen(event)
        if isinstance(event, Passed):
            return self._passed(event)
        raise IllegalMove(f"{event!r} cannot happen during a game (it starts one)")

    # -- queries -------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.phase is Phase.OVER

    @property
    def waiting_for(self) -> tuple[str, ...]:
        """The players who may act now (in seat order)."""
        if self.phase in (Phase.ROLL, Phase.START):
            return (self.starter,)
        if self.phase is Phase.OTHERS:
            return tuple(
                p
                for p in self.players
                if p != self.starter and p not in self.acted and self.can_use(p)
            )
        return ()

    @property
    def must_reroll(self) -> bool:
        """Whether the starting player has rolled and can use none of the dice."""
        return self.phase is Phase.START and not self.can_use(self.starter)

    def rolled(self) -> tuple[Face, ...]:
        """The faces of the current roll, die by die (empty before the roll)."""
        return faces_shown(self.sheet.layout, self.faces) if self.faces else ()

    def dice_for(self, player: str) -> dict[int, Face]:
        """The dice ``player`` may choose from now: the whole roll for the starting player,
        the dice the starting player did not use for the others."""
        rolled = self.rolled()
        if not rolled:
            return {}
        if player == self.starter:
            return dict(enumerate(rolled)) if self.phase is Phase.START else {}
        if self.phase is not Phase.OTHERS:
            return {}
        return {d: rolled[d] for d in sorted(self.unused)}

    def draft(self, player: str, color: Color) -> Draft:
        """A fresh turn for ``player`` in the area ``color``, to build with legal steps."""
        return Draft(self.sheet, player, color, self.dice_for(player), self.sheets[player])

    def colors(self, player: str) -> list[Color]:
        """The colour areas in which ``player`` can cross at least one symbol with dice now."""
        return [c for c in Color if self.draft(player, c).use_options()]

    def can_use(self, player: str) -> bool:
        """Whether ``player`` can cross anything with the dice they may choose from now."""
        return bool(self.colors(player))

    def stars(self, player: str) -> dict[Color, int]:
        """``player``'s rainbow stars per area."""
        return self.sheet.stars(self.sheets[player])

    def scores(self) -> dict[str, int]:
        """Every player's rainbow stars, in seat order."""
        return {p: self.sheet.total_stars(self.sheets[p]) for p in self.players}

    def winners(self) -> tuple[str, ...]:
        """The players with the most stars (several on a tie); empty until the game is over."""
        if not self.over:
            return ()
        scores = self.scores()
        best = max(scores.values())
        return tuple(p for p, s in scores.items() if s == best)

    def completed(self, player: str) -> list[Color]:
        """The colour areas ``player`` has crossed in full."""
        return [c for c in Color if self.sheet.complete(self.sheets[player], c)]

    def to_json(self) -> dict[str, Any]:
        """What the scoreboard shows, as JSON values: turn, whose move, sheets, stars, winners."""
        return {
            "phase": self.phase.value,
            "turn": self.turn,
            "starter": self.starter,
            "waiting_for": list(self.waiting_for),
            "rolled": [face.describe() for face in self.rolled()],
            "sheets": {p: sorted(self.sheets[p], key=self._order) for p in self.players},
            "stars": {p: {c.value: n for c, n in self.stars(p).items()} for p in self.players},
            "scores": self.scores(),
            "winners": list(self.winners()),
        }

    def _order(self, box_id: str) -> int:
        return list(self.sheet.boxes).index(box_id)

    # -- events --------------------------------------------------------------------------

    def _rolled(self, event: DiceRolled) -> Game:
        who = event.player
        self._check_player(who, "roll the dice")
        if self.phase is Phase.OVER:
            _illegal(who, "roll the dice", "the game is over")
        if who != self.starter or self.phase is Phase.OTHERS:
            _illegal(who, "roll the dice", f"{self.starter} is the starting player who rolls")
        if self.phase is Phase.START and not self.must_reroll:
            _illegal(
                who,
                "roll the dice again",
                "the starting player rolls again only when no die can be used",
            )
        try:
            faces_shown(self.sheet.layout, event.faces)
        except ValueError as exc:
            _illegal(who, f"roll {list(event.faces)}", str(exc))
        return replace(self, phase=Phase.START, faces=event.faces)

    def _chosen(self, event: DiceChosen) -> Game:
        who = event.player
        move = f"choose {event.color}"
        self._check_player(who, move)
        self._check_may_choose(who, move)
        if not event.uses:
            _illegal(
                who,
                move,
                "a choice crosses at least one symbol with dice"
                + ("" if who == self.starter else "; a player who uses nothing passes"),
            )
        draft = self.draft(who, event.color)
        for use in event.uses:
            draft = draft.use(use)
        for box in event.bonuses:
            draft = draft.bonus(box)
        sheets = {**self.sheets, who: draft.crossed}
        if who == self.starter:
            unused = frozenset(range(len(self.faces))) - draft.used
            return replace(self, phase=Phase.OTHERS, unused=unused, sheets=sheets)._settled()
        return replace(self, acted=self.acted | {who}, sheets=sheets)._settled()

    def _passed(self, event: Passed) -> Game:
        who = event.player
        self._check_player(who, "pass")
        if who == self.starter and self.phase is Phase.START:
            _illegal(
                who, "pass", "the starting player uses at least one die, rolling again if needed"
            )
        self._check_may_choose(who, "pass")
        return replace(self, acted=self.acted | {who})._settled()

    def _check_player(self, who: str, move: str) -> None:
        if who not in self.players:
            raise IllegalMove(
                f"{who} cannot {move}: not a player of this game ({', '.join(self.players)})"
            )

    def _check_may_choose(self, who: str, move: str) -> None:
        if self.phase is Phase.OVER:
            _illegal(who, move, "the game is over")
        if self.phase is Phase.ROLL:
            _illegal(who, move, f"{self.starter} has not rolled the dice yet")
        if self.phase is Phase.START and who != self.starter:
            _illegal(who, move, f"the others choose after the starting player {self.starter} has")
        if self.phase is Phase.START and self.must_reroll:
            _illegal(who, move, "no die can be used, so the starting player rolls again")
        if self.phase is Phase.OTHERS and who == self.starter:
            _illegal(who, move, "the starting player has made their choice this turn")
        if self.phase is Phase.OTHERS and who in self.acted:
            _illegal(who, move, "each other player chooses once per turn")
        if self.phase is Phase.OTHERS and not self.can_use(who):
            _illegal(who, move, "none of the dice left by the starting player can be used")

    def _settled(self) -> Game:
        """End the turn once no other player can still act: next starter, or game over."""
        if self.phase is not Phase.OTHERS or self.waiting_for:
            return self
        if any(self.completed(p) for p in self.players):
            return replace(self, phase=Phase.OVER)
        seat = self.players.index(self.starter)
        return replace(
            self,
            starter=self.players[(seat + 1) % len(self.players)],
            phase=Phase.ROLL,
            turn=self.turn + 1,
            faces=(),
            unused=frozenset(),
            acted=frozenset(),
        )


def _illegal(player: str, move: str, rule: str) -> NoReturn:
    raise IllegalMove(f"{player} cannot {move}: {rule}")
