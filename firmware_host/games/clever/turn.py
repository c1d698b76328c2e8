"""One player's turn, built step by step: the crossing rules of each area and the bonus crosses.

A :class:`Draft` starts from a player's sheet, the dice they may use and the colour area they
chose. :meth:`Draft.use` crosses one symbol with dice, :meth:`Draft.bonus` makes one bonus
cross at the end of the turn; each checks the rules and raises
:class:`~firmware_host.errors.IllegalMove` naming the player, the move and the rule, leaving
the draft as it was. :meth:`Draft.use_options` and :meth:`Draft.bonus_options` list what is
legal next, which is all a page needs to offer only legal choices.

The rules checked:

- every cross with dice is in the chosen area, with dice of that background colour or jokers
  (a joker is any colour and any symbol), each die used once;
- a symbol needs as many matching dice at once as it has parts: one for a balloon or a
  present, two for a pair of sweets, one per candle for a wagon;
- balloons, wagons and each row of sweets are crossed from left to right without skipping;
  presents in any order;
- crossing a symbol in a bonus circle, or completing a green column with a colour bonus,
  earns a bonus cross in that colour; bonus crosses come after the crosses with dice, each
  crosses one whole symbol by the same order rules, and may earn more (chains). Unspent
  bonus crosses lapse when the turn ends.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from itertools import combinations
from typing import NoReturn

from firmware_host.errors import IllegalMove
from firmware_host.games.clever.events import DiceChosen, Use
from firmware_host.games.clever.layout import Color, Face
from firmware_host.games.clever.sheet import Box, Crossed, Sheet


@dataclass(frozen=True)
class Draft:
    """A turn in the making: ``dice`` maps each die the player may use now to its face."""

    sheet: Sheet
    player: str
    color: Color
    dice: Mapping[int, Face]
    crossed: Crossed
    uses: tuple[Use, ...] = ()
    bonuses: tuple[str, ...] = ()
    pending: tuple[Color, ...] = ()

    @property
    def used(self) -> frozenset[int]:
        """The dice used so far in this turn."""
        return frozenset(d for use in self.uses for d in use.dice)

    def use_options(self) -> list[Use]:
        """Every legal next cross with dice (none once a bonus cross was made)."""
        if self.bonuses:
            return []
        free = [
            d
            for d, face in sorted(self.dice.items())
            if d not in self.used and (face.joker or face.color is self.color)
        ]
        options: list[Use] = []
        for box in self.sheet.crossable(self.crossed, self.color):
            matching = [d for d in free if _matches(self.dice[d], box)]
            options.extend(Use(box.id, combo) for combo in combinations(matching, box.size))
        return options

    def use(self, use: Use) -> Draft:
        """Cross ``use.box`` with the dice ``use.dice``; IllegalMove if a rule forbids it."""
        box = self._box(use.box, f"cross {use.box}")
        move = f"cross {box.describe()} with {_dice_words(use.dice)}"
        if self.bonuses:
            self._illegal(move, "crosses with dice come first; bonus crosses end the turn")
        if box.area is not self.color:
            self._illegal(
                move, f"a turn crosses symbols in one colour area only, this one is {self.color}"
            )
        if len(set(use.dice)) != len(use.dice):
            self._illegal(move, "each die is used once")
        for d in use.dice:
            face = self.dice.get(d)
            if face is None:
                self._illegal(move, f"die {d} is not among the dice left to use ({self._left()})")
            if d in self.used:
                self._illegal(move, f"die {d} is used already this turn")
            if not face.joker and face.color is not self.color:
                self._illegal(
                    move,
                    f"die {d} shows {face.describe()}: a turn uses the dice of one background "
                    f"colour ({self.color}) and jokers",
                )
            if not _matches(face, box):
                self._illegal(
                    move, f"die {d} shows {face.describe()}, which is not the {box.symbol} needed"
                )
        if len(use.dice) != box.size:
            needed = "one die" if box.size == 1 else f"{box.size} dice at once"
            self._illegal(move, f"{box.describe()} needs {needed}, showing {box.symbol} or joker")
        self._check_order(move, box)
        return replace(
            self,
            crossed=self.crossed | {box.id},
            uses=(*self.uses, Use(box.id, tuple(use.dice))),
            pending=(*self.pending, *self.sheet.earned(self.crossed, box)),
        )

    def bonus_options(self) -> list[str]:
        """The boxes a bonus cross may cross now (in the areas of the bonuses due)."""
        return [
            box.id
            for color in dict.fromkeys(self.pending)
            for box in self.sheet.crossable(self.crossed, color)
        ]

    def bonus(self, box_id: str) -> Draft:
        """Cross ``box_id`` with a bonus cross due in its colour; IllegalMove if none is due."""
        box = self._box(box_id, f"make a bonus cross on {box_id}")
        move = f"make a bonus cross on {box.describe()}"
        if box.area not in self.pending:
            due = ", ".join(self.pending) or "none"
            self._illegal(
                move,
                f"a bonus cross goes in the area of the bonus earned this turn (due: {due})",
            )
        self._check_order(move, box)
        pending = list(self.pending)
        pending.remove(box.area)
        return replace(
            self,
            crossed=self.crossed | {box.id},
            bonuses=(*self.bonuses, box.id),
            pending=(*pending, *self.sheet.earned(self.crossed, box)),
        )

    def event(self) -> DiceChosen:
        """The turn as the event the journal records."""
        return DiceChosen(self.player, self.color, self.uses, self.bonuses)

    def _box(self, box_id: str, move: str) -> Box:
        if box_id not in self.sheet.boxes:
            self._illegal(move, f"the sheet has no box {box_id!r}")
        return self.sheet.box(box_id)

    def _check_order(self, move: str, box: Box) -> None:
        reason = self.sheet.why_not(self.crossed, box)
        if reason is not None:
            self._illegal(move, reason)

    def _left(self) -> str:
        left = sorted(set(self.dice) - self.used)
        return ", ".join(str(d) for d in left) or "none"

    def _illegal(self, move: str, rule: str) -> NoReturn:
        raise IllegalMove(f"{self.player} cannot {move}: {rule}")


def _matches(face: Face, box: Box) -> bool:
    return face.joker or (face.color is box.area and face.symbol == box.symbol)


def _dice_words(dice: tuple[int, ...]) -> str:
    if not dice:
        return "no dice"
    return ("die " if len(dice) == 1 else "dice ") + ", ".join(str(d) for d in dice)
