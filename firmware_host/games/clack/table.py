"""Clack! at the table: the rules engine bound to the tray's two dice and the players' claims.

:class:`ClackTable` is the :class:`~firmware_host.games.table_game.TableGame` of Clack!
(``docs/games/clack.md``, "At the table"). The roller throws the shape die (game die 0)
and the colour die (game die 1); in the race every player may then claim a disc with
``{"type": "claim", "disc": 18, "round": 1}`` until no matching disc is left. In the
``turns`` variant nobody claims: the roll itself hands the roller every matching disc.

>>> from firmware_host.games.table_game import Setup
>>> game = ClackTable.replay([ClackTable.first_event(Setup(players=("ana", "ben")))])
>>> game.roll()
Roll(dice=(0, 1), by='ana')
>>> game = game.apply(game.dice_event([1, 0]))  # shape die: star, colour die: red
>>> game.view()["status"]
'Round 1: claim every disc showing a red star!'
>>> game = game.apply(game.move_event("ben", {"type": "claim", "disc": 22, "round": 1}))
>>> game.view()["scores"], game.view()["game"]["last"]
({'ana': 0, 'ben': 1}, 'ben takes disc 22')
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from firmware_host.errors import IllegalMove, InputError
from firmware_host.games.clack.dice import roll_from_faces
from firmware_host.games.clack.discs import WILD, DiscSet, load_disc_set
from firmware_host.games.clack.engine import ClackGame, ClaimOutcome
from firmware_host.games.clack.events import (
    DiceRolled,
    DiscClaimed,
    GameStarted,
    Variant,
    read_event,
)
from firmware_host.games.table_game import EventJson, Roll, Setup
from firmware_host.i18n import Listed, Message, Say, lazy, lazy_n, lazy_p

MOVE = "clack move"
"""The source an :class:`InputError` about a malformed move names."""

BLUNDER = 0.1
"""How often a simulated player grabs a disc that does not match (when one lies there)."""


@cache
def disc_set() -> DiscSet:
    """The shipped disc set (``config/games/clack.yaml``), loaded once."""
    return load_disc_set()


def roll_words(roll: DiceRolled) -> Message:
    """What a roll asks for, in words (said in the reader's language).

    >>> [str(roll_words(DiceRolled(1, s, c))) for s, c in (("star", "red"), ("star", "white"))]
    ['a red star', 'a star of any colour']
    >>> [str(roll_words(DiceRolled(1, "white", c))) for c in ("red", "white")]
    ['any red symbol', 'any symbol']
    """
    if roll.shape == WILD and roll.color == WILD:
        return lazy_p("clack roll", "any symbol")
    if roll.color == WILD:
        return lazy_p("clack roll", "a {shape} of any colour", shape=SHAPES[roll.shape])
    if roll.shape == WILD:
        return lazy_p("clack roll", "any {color} symbol", color=COLOURS[roll.color])
    return lazy_p(
        "clack roll", "a {color} {shape}", color=COLOURS[roll.color], shape=SHAPES[roll.shape]
    )


@dataclass(frozen=True)
class ClackTable:
    """A game of Clack! as the table service drives it: the engine's game and the latest
    outcome every device shows (``last``)."""

    KIND: ClassVar[str] = "clack"
    TITLE: ClassVar[str] = "Clack!"
    VARIANTS: ClassVar[tuple[str, ...]] = ("race", "turns")
    DICE: ClassVar[int] = 2

    game: ClackGame
    last: Message | None = None
    """What the latest event did (``ben takes disc 22``), None before the first roll. The
    page names each disc by its symbols (``disc {id}`` in the reader's language)."""

    # -- starting and replaying ----------------------------------------------------------------

    @classmethod
    def first_event(cls, setup: Setup) -> EventJson:
        """``game_started`` for ``setup`` (variant ``None``: the race); raises
        :class:`ValueError` for fewer than 2 players, a name twice or blank, an unknown variant.

        >>> ClackTable.first_event(Setup(players=("ana", "ben"), seed=3, variant="turns"))
        {'type': 'game_started', 'players': ['ana', 'ben'], 'variant': 'turns', 'seed': 3}
        """
        if setup.variant not in (None, *cls.VARIANTS):
            raise ValueError(
                f"Clack! has no variant {setup.variant!r} (variants: {', '.join(cls.VARIANTS)})"
            )
        variant: Variant = "turns" if setup.variant == "turns" else "race"
        started = GameStarted(players=setup.players, variant=variant, seed=setup.seed)
        try:
            ClackGame.start(disc_set(), started)
        except IllegalMove as exc:
            raise ValueError(exc.text) from None
        return started.to_json()

    @classmethod
    def replay(cls, events: Sequence[EventJson]) -> ClackTable:
        """The game after ``events``, the first being ``game_started``."""
        if not events:
            raise IllegalMove("a game of Clack! must begin with its set-up; the journal is empty")
        first = read_event(events[0], "clack event 0")
        if not isinstance(first, GameStarted):
            raise IllegalMove(f"a game of Clack! must begin with its set-up, not {first}")
        table = cls(ClackGame.start(disc_set(), first))
        for index, event in enumerate(events[1:], start=1):
            table = table._apply(event, f"clack event {index}")
        return table

    def apply(self, event: EventJson) -> ClackTable:
        """The game after one more event (a roll or a claim)."""
        return self._apply(event, "clack event")

    def _apply(self, data: EventJson, source: str) -> ClackTable:
        event = read_event(data, source)
        if isinstance(event, DiscClaimed):
            last = _claimed(self.game.judge_claim(event))
            return ClackTable(self.game.apply(event), last)
        if isinstance(event, DiceRolled):
            game = self.game.apply(event)
            return ClackTable(game, self._roll_outcome(event, game))
        raise IllegalMove(f"{event} is refused: this game of Clack! has already started")

    def _roll_outcome(self, roll: DiceRolled, after: ClackGame) -> Message:
        said = lazy(
            "Round {round}: {player} rolled {roll}",
            round=roll.round,
            player=self.game.roller,
            roll=roll_words(roll),
        )
        if self.game.variant == "turns":
            taken = [d for d in self.game.table if d not in after.table]
            if taken:
                return lazy("{rolled} and takes {discs}", rolled=said, discs=_discs(taken))
        elif after.round_open:
            return said
        return lazy("{rolled}; no disc on the table matches", rolled=said)

    # -- what the service asks -----------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        """The players, in seating order (the first rolls first)."""
        return self.game.players

    @property
    def over(self) -> bool:
        """True once the last disc has left the table."""
        return self.game.over

    def roll(self) -> Roll | None:
        """Both dice, thrown by the roller, whenever the game waits for the next round."""
        if not self.game.awaiting_roll:
            return None
        return Roll(dice=(0, 1), by=self.game.roller)

    def dice_event(self, faces: Sequence[int]) -> EventJson:
        """``dice_rolled`` for the next round: ``faces`` are the shape and colour dice's face
        indices (``config/games/clack.yaml`` lists each die's faces in index order)."""
        if self.roll() is None:
            raise IllegalMove(f"the dice are not due: {self._state()}")
        if len(faces) != self.DICE:
            raise InputError("dice", "faces", f"expected 2 face indices, got {len(faces)}")
        for die, face in zip(("shape die", "colour die"), faces, strict=True):
            if isinstance(face, bool) or not isinstance(face, int):
                raise InputError(die, "face index", f"expected an integer, got {face!r}")
        shape, color = faces
        return roll_from_faces(disc_set(), self.game.round + 1, shape, color).to_json()

    def move_event(self, seat: str, move: Mapping[str, Any]) -> EventJson:
        """``disc_claimed`` for ``seat`` claiming ``move["disc"]``; ``move["round"]`` (optional,
        the round the player saw) refuses the claim as late once that round is over."""
        disc, round_seen = parse_claim(move)
        if seat not in self.game.players:
            raise IllegalMove(
                f"{seat!r} cannot claim disc {disc}: not a player of this game "
                f"(players: {', '.join(self.game.players)})"
            )
        if round_seen is None and self.game.awaiting_roll and self.game.variant == "race":
            raise IllegalMove(
                lazy(
                    "{player}'s claim of disc {disc} is refused: no round is open, {roller} "
                    "rolls the dice next",
                    player=seat,
                    disc=disc,
                    roller=self.game.roller,
                )
            )
        claim = DiscClaimed(self.game.round if round_seen is None else round_seen, seat, disc)
        self.game.judge_claim(claim)
        return claim.to_json()

    def waiting_for(self) -> tuple[str, ...]:
        """Who may send a move now: everyone while a race round is open, else nobody."""
        return self.game.players if self.game.legal_claims() else ()

    def claimable(self) -> tuple[int, ...]:
        """The discs a waiting player may claim: any disc on the table (a wrong one costs a
        penalty), while a race round is open."""
        return self.game.table if self.waiting_for() else ()

    def auto_move(self, player: str, rng: random.Random) -> Mapping[str, Any] | None:
        """A simulated player's claim: a random matching disc, now and then (``BLUNDER``) a
        disc that does not match; None when ``player`` may not claim now."""
        if player not in self.waiting_for():
            return None
        matching = self.game.matching()
        wrong = tuple(d for d in self.game.table if d not in matching)
        pool = wrong if wrong and rng.random() < BLUNDER else matching
        return {"type": "claim", "disc": rng.choice(pool), "round": self.game.round}

    # -- the view ------------------------------------------------------------------------------

    def view(self, say: Say = str) -> dict[str, Any]:
        """The view every device draws: the common keys and the ``game`` part
        (``docs/games/clack.md``); the words said by ``say`` (English by default)."""
        game = self.game
        roll = self.roll()
        return {
            "kind": self.KIND,
            "title": self.TITLE,
            "players": list(game.players),
            "scores": game.heights(),
            "score_label": say(lazy_p("score", "discs")),
            "waiting_for": list(self.waiting_for()),
            "roll": roll.to_json() if roll else None,
            "status": say(self._state()),
            "over": game.over,
            "winners": list(game.winners()),
            "game": {
                "variant": game.variant,
                "round": game.round,
                "round_open": game.round_open,
                "roller": game.roller,
                "dice": (
                    {"shape": game.last_roll.shape, "color": game.last_roll.color}
                    if game.last_roll
                    else None
                ),
                "discs": [{"id": d.id, "symbols": list(d.symbols)} for d in disc_set().discs],
                "table": list(game.table),
                "stacks": {p: list(game.stack(p)) for p in game.players},
                "claimable": list(self.claimable()),
                "left": len(game.matching()),
                "last": None if self.last is None else say(self.last),
            },
        }

    def _state(self) -> Message:
        game = self.game
        if game.over:
            winners = game.winners()
            height = len(game.stack(winners[0]))
            return lazy_n(
                "Game over: {winners} wins with {discs}",
                "Game over: {winners} tie with {discs}",
                len(winners),
                winners=Listed(winners),
                discs=lazy_n("{count} disc", "{count} discs", height),
            )
        if game.round_open and game.last_roll is not None:
            return _claim_every(game.round, game.last_roll)
        return lazy(
            "Round {round}: {player} rolls the dice", round=game.round + 1, player=game.roller
        )


def parse_claim(move: Mapping[str, Any]) -> tuple[int, int | None]:
    """``(disc, round)`` of an untrusted claim; a malformed one is an :class:`InputError`
    naming the key.

    >>> parse_claim({"type": "claim", "disc": 7})
    (7, None)
    >>> parse_claim({"type": "claim", "disc": "7"})
    Traceback (most recent call last):
    ...
    firmware_host.errors.InputError: clack move: disc: expected a disc id (an integer), got '7'
    """
    if not isinstance(move, Mapping):
        raise InputError(MOVE, "(top level)", "expected a JSON object")
    for key in move:
        if key not in ("type", "disc", "round"):
            raise InputError(MOVE, str(key), "unknown key (a claim has type, disc, round)")
    if move.get("type") != "claim":
        raise InputError(MOVE, "type", f"expected 'claim', got {move.get('type')!r}")
    if "disc" not in move:
        raise InputError(MOVE, "disc", "missing (the id of the disc claimed)")
    disc = move["disc"]
    if isinstance(disc, bool) or not isinstance(disc, int):
        raise InputError(MOVE, "disc", f"expected a disc id (an integer), got {disc!r}")
    round_seen = move.get("round")
    if round_seen is not None and (isinstance(round_seen, bool) or not isinstance(round_seen, int)):
        raise InputError(MOVE, "round", f"expected a round number (an integer), got {round_seen!r}")
    return disc, round_seen


SHAPES = {
    "arrow": lazy_p("clack shape", "arrow"),
    "star": lazy_p("clack shape", "star"),
    "puzzle": lazy_p("clack shape", "puzzle"),
    "flower": lazy_p("clack shape", "flower"),
    "foot": lazy_p("clack shape", "foot"),
}
"""The shape die's symbols as the page names them (white, the wild face, has none)."""

COLOURS = {
    "red": lazy_p("clack colour", "red"),
    "green": lazy_p("clack colour", "green"),
    "yellow": lazy_p("clack colour", "yellow"),
    "blue": lazy_p("clack colour", "blue"),
    "purple": lazy_p("clack colour", "purple"),
}
"""The colour die's colours as the page names them."""


def _claim_every(round_number: int, roll: DiceRolled) -> Message:
    """What the players race for after ``roll``, one whole sentence for each kind of roll."""
    if roll.shape == WILD and roll.color == WILD:
        return lazy("Round {round}: claim every disc showing any symbol!", round=round_number)
    if roll.color == WILD:
        return lazy(
            "Round {round}: claim every disc showing a {shape} of any colour!",
            round=round_number,
            shape=SHAPES[roll.shape],
        )
    if roll.shape == WILD:
        return lazy(
            "Round {round}: claim every disc showing any {color} symbol!",
            round=round_number,
            color=COLOURS[roll.color],
        )
    return lazy(
        "Round {round}: claim every disc showing a {color} {shape}!",
        round=round_number,
        color=COLOURS[roll.color],
        shape=SHAPES[roll.shape],
    )


def _disc(disc: int) -> Message:
    # TRANSLATORS: the page finds the disc's number in these words and names the disc by
    # its symbols instead: keep the same words as in "disc {id}: {symbols}"
    return lazy("disc {disc}", disc=str(disc))


def _discs(ids: Sequence[int]) -> Message:
    if len(ids) == 1:
        return _disc(ids[0])
    return lazy("discs {discs}", discs=", ".join(map(str, ids)))


def _claimed(outcome: ClaimOutcome) -> Message:
    """A claim's outcome as the table announces it (:meth:`ClaimOutcome.describe`)."""
    disc = _disc(outcome.disc)
    if outcome.taken:
        return lazy("{player} takes {disc}", player=outcome.player, disc=disc)
    if outcome.penalty is None:
        return lazy(
            "{player}'s {disc} does not match; it stays on the table",
            player=outcome.player,
            disc=disc,
        )
    return lazy(
        "{player}'s {disc} does not match; it stays on the table and {player} returns "
        "{penalty} as a penalty",
        player=outcome.player,
        disc=disc,
        penalty=_disc(outcome.penalty),
    )
