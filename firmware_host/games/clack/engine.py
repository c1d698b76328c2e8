"""The rules of Clack!: a pure, event-sourced engine.

A :class:`ClackGame` is immutable: :meth:`ClackGame.apply` returns the game after one more
event, or raises :class:`~firmware_host.errors.IllegalMove` (naming the player, the move and
the rule) and the game it was called on is unchanged. The same events always give the same
game (:func:`replay`).

>>> from firmware_host.games.clack.discs import load_disc_set
>>> game = ClackGame.start(load_disc_set(), GameStarted(players=("ana", "ben")))
>>> game = game.apply(DiceRolled(round=1, shape="star", color="red"))
>>> game.matching()
(10, 18, 22, 23)
>>> game = game.apply(DiscClaimed(round=1, player="ben", disc=22))
>>> game.stack("ben"), game.round_open
((22,), True)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import partial

from firmware_host.errors import IllegalMove
from firmware_host.games import event_log
from firmware_host.games.clack.discs import DiscSet
from firmware_host.games.clack.events import (
    ClackEvent,
    DiceRolled,
    DiscClaimed,
    GameStarted,
    Variant,
)
from firmware_host.i18n import lazy


@dataclass(frozen=True)
class ClaimOutcome:
    """What a claim does: the disc is taken, or it was wrong and costs a penalty disc."""

    player: str
    disc: int
    taken: bool
    penalty: int | None
    """The disc the player gave back from the top of their stack (None: none, or taken)."""

    def describe(self) -> str:
        """The outcome as the table announces it."""
        if self.taken:
            return f"{self.player} takes disc {self.disc}"
        if self.penalty is None:
            return f"{self.player}'s disc {self.disc} does not match; it stays on the table"
        return (
            f"{self.player}'s disc {self.disc} does not match; it stays on the table "
            f"and {self.player} returns disc {self.penalty} as a penalty"
        )


@dataclass(frozen=True)
class ClackGame:
    """A game of Clack! after some events: the table, every stack, the round and the roller."""

    discs: DiscSet
    players: tuple[str, ...]
    variant: Variant
    table: tuple[int, ...]
    """The ids of the discs lying on the table, ascending."""
    stacks: tuple[tuple[int, ...], ...]
    """Each player's stack (same order as ``players``), bottom first: the last is on top.

    A disc is picked up as the rules say: the player puts the stack they already have on
    top of it, so the disc taken last is at the bottom and the first disc taken is on top."""
    round: int = 0
    """The number of the latest round (0 before the first roll)."""
    last_roll: DiceRolled | None = None
    round_open: bool = False
    """True while discs matching the latest roll lie on the table (race variant)."""
    roller_index: int = 0

    @classmethod
    def start(cls, discs: DiscSet, started: GameStarted) -> ClackGame:
        """A new game: every disc on the table, the first player to roll."""
        players = started.players
        if len(players) < 2:
            raise IllegalMove(lazy("cannot start Clack!: it needs at least 2 players"))
        if len(set(players)) != len(players) or not all(p.strip() for p in players):
            raise IllegalMove(
                lazy(
                    "cannot start Clack!: player names must be distinct, got {players}",
                    players=str(players),
                )
            )
        return cls(
            discs=discs,
            players=players,
            variant=started.variant,
            table=tuple(sorted(d.id for d in discs.discs)),
            stacks=tuple(() for _ in players),
        )

    # -- queries -------------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """The game ends when the last disc is taken from the table."""
        return not self.table

    @property
    def roller(self) -> str:
        """The player who rolls the next round (or rolled the open one)."""
        return self.players[self.roller_index]

    @property
    def awaiting_roll(self) -> bool:
        """True when the next event must be the roller's throw."""
        return not self.over and not self.round_open

    def stack(self, player: str) -> tuple[int, ...]:
        """The discs in ``player``'s stack, bottom first."""
        return self.stacks[self._index(player, "look at the stack")]

    def heights(self) -> dict[str, int]:
        """Each player's stack height, in seating order."""
        return {p: len(s) for p, s in zip(self.players, self.stacks, strict=True)}

    def matching(self) -> tuple[int, ...]:
        """The discs on the table that match the open round's roll (empty between rounds)."""
        if not self.round_open or self.last_roll is None:
            return ()
        return self._matching_on_table(self.last_roll, self.table)

    def legal_claims(self) -> tuple[int, ...]:
        """The discs a claim would take now (any disc on the table may be claimed, at a risk)."""
        return self.matching() if self.variant == "race" else ()

    def holder(self, disc: int) -> str | None:
        """Who holds ``disc`` in their stack (None: on the table)."""
        return next((p for p, s in zip(self.players, self.stacks, strict=True) if disc in s), None)

    def winners(self) -> tuple[str, ...]:
        """The players with the tallest stack once the game is over (ties all win); else ()."""
        if not self.over:
            return ()
        tallest = max(len(s) for s in self.stacks)
        return tuple(p for p, s in zip(self.players, self.stacks, strict=True) if len(s) == tallest)

    def judge_claim(self, claim: DiscClaimed) -> ClaimOutcome:
        """What ``claim`` would do now; raises :class:`IllegalMove` when it must be refused
        (in the players' words: in a race, a claim may lose to another)."""
        said = {"player": claim.player, "disc": claim.disc, "round": claim.round}
        if self.over:
            raise IllegalMove(
                lazy(
                    "{player}'s claim of disc {disc} in round {round} is refused: the game is over",
                    **said,
                )
            )
        if self.variant == "turns":
            raise IllegalMove(
                lazy(
                    "{player}'s claim of disc {disc} in round {round} is refused: in the "
                    "young-children variant the roller takes every matching disc, nobody claims",
                    **said,
                )
            )
        index = self._index(claim.player, f"claim disc {claim.disc}")
        disc = self.discs.disc(claim.disc)
        if disc is None:
            raise IllegalMove(
                lazy(
                    "{player}'s claim of disc {disc} in round {round} is refused: there is no "
                    "disc {disc} in the set",
                    **said,
                )
            )
        if claim.round > self.round:
            raise IllegalMove(
                lazy(
                    "{player}'s claim of disc {disc} in round {round} is refused: round "
                    "{round} has not started",
                    **said,
                )
            )
        if claim.round < self.round or not self.round_open:
            raise IllegalMove(
                lazy(
                    "{player}'s claim of disc {disc} in round {round} is refused: too late, "
                    "round {round} is over",
                    **said,
                )
            )
        if claim.disc not in self.table:
            raise IllegalMove(
                lazy(
                    "{player}'s claim of disc {disc} in round {round} is refused: disc {disc} "
                    "is already in {holder}'s stack",
                    holder=self.holder(claim.disc),
                    **said,
                )
            )
        if claim.disc in self.matching():
            return ClaimOutcome(claim.player, claim.disc, taken=True, penalty=None)
        own = self.stacks[index]
        return ClaimOutcome(claim.player, claim.disc, taken=False, penalty=own[-1] if own else None)

    # -- events --------------------------------------------------------------------------------

    def apply(self, event: ClackEvent) -> ClackGame:
        """The game after ``event``; an illegal event raises :class:`IllegalMove`."""
        if isinstance(event, DiceRolled):
            return self._rolled(event)
        if isinstance(event, DiscClaimed):
            return self._claimed(event)
        if isinstance(event, GameStarted):
            raise IllegalMove(f"cannot start a game that has already started ({event})")
        raise IllegalMove(f"{event} is not an event of a Clack! game")

    def _rolled(self, roll: DiceRolled) -> ClackGame:
        move = f"{self.roller}'s roll for round {roll.round}"
        if self.over:
            raise IllegalMove(f"{move} is refused: the game is over")
        if self.round_open:
            raise IllegalMove(
                f"{move} is refused: round {self.round} goes on while matching discs "
                f"{list(self.matching())} lie on the table"
            )
        if roll.round != self.round + 1:
            raise IllegalMove(f"{move} is refused: the next round is round {self.round + 1}")
        matching = self._matching_on_table(roll, self.table)
        game = replace(self, round=roll.round, last_roll=roll, round_open=bool(matching))
        if self.variant == "turns":
            stacks = list(self.stacks)
            # one disc after the other, in ascending id order: the stack goes on top of each
            stacks[self.roller_index] = (*reversed(matching), *stacks[self.roller_index])
            table = tuple(d for d in self.table if d not in matching)
            game = replace(game, table=table, stacks=tuple(stacks), round_open=False)
        return game._after_move()

    def _claimed(self, claim: DiscClaimed) -> ClackGame:
        outcome = self.judge_claim(claim)
        index = self.players.index(claim.player)
        stacks = list(self.stacks)
        if outcome.taken:
            table = tuple(d for d in self.table if d != claim.disc)
            stacks[index] = (claim.disc, *stacks[index])  # the stack goes on top of it
        elif outcome.penalty is not None:
            table = tuple(sorted((*self.table, outcome.penalty)))
            stacks[index] = stacks[index][:-1]
        else:
            table = self.table
        return replace(self, table=table, stacks=tuple(stacks))._after_move()

    def _after_move(self) -> ClackGame:
        """Close the round when no matching disc is left; the next player then rolls."""
        if self.round_open and self.matching():
            return self
        return replace(
            self, round_open=False, roller_index=(self.roller_index + 1) % len(self.players)
        )

    def _matching_on_table(self, roll: DiceRolled, table: tuple[int, ...]) -> tuple[int, ...]:
        matching = self.discs.matching_ids(roll.shape, roll.color)
        return tuple(d for d in table if d in matching)

    def _index(self, player: str, move: str) -> int:
        if player not in self.players:
            raise IllegalMove(
                f"{player!r} cannot {move}: not a player of this game "
                f"(players: {', '.join(self.players)})"
            )
        return self.players.index(player)


def replay(discs: DiscSet, events: Iterable[ClackEvent]) -> ClackGame:
    """The game the events describe; the first must be :class:`GameStarted`."""
    return event_log.replay(GameStarted, partial(ClackGame.start, discs), events, "Clack!")
