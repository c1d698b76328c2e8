"""A small dice game implementing the TableGame protocol, to test the table framework on.

Players take turns: the player throws die 0 (or, in the ``pair`` variant, dice 0 and 1),
then keeps the throw (``{"type": "keep"}``: the faces' pips, face index + 1, are added to
their score) or passes (``{"type": "pass"}``). After ``ROUNDS`` turns each, the highest
score wins (ties: all of them).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Self

from firmware_host.errors import IllegalMove, InputError
from firmware_host.games.table_game import EventJson, Roll, Setup
from firmware_host.i18n import Say

ROUNDS = 2


@dataclass(frozen=True)
class DiceDuel:
    KIND: ClassVar[str] = "duel"
    TITLE: ClassVar[str] = "Dice duel"
    VARIANTS: ClassVar[tuple[str, ...]] = ("pair",)
    DICE: ClassVar[int] = 2

    names: tuple[str, ...]
    dice: tuple[int, ...]
    scores: tuple[int, ...]
    turn: int = 0
    thrown: tuple[int, ...] | None = None

    @classmethod
    def first_event(cls, setup: Setup) -> EventJson:
        if not 2 <= len(setup.players) <= 4:
            raise ValueError(f"a dice duel takes 2 to 4 players, not {len(setup.players)}")
        if setup.variant not in (None, *cls.VARIANTS):
            raise ValueError(f"no variant {setup.variant!r}")
        return {"type": "started", "players": list(setup.players), "pair": setup.variant == "pair"}

    @classmethod
    def replay(cls, events: Sequence[EventJson]) -> Self:
        first = events[0]
        if first.get("type") != "started":
            raise InputError("duel event", "type", "the first event must be 'started'")
        names = tuple(first["players"])
        game = cls(names, (0, 1) if first["pair"] else (0,), (0,) * len(names))
        for event in events[1:]:
            game = game.apply(event)
        return game

    @property
    def players(self) -> tuple[str, ...]:
        return self.names

    @property
    def over(self) -> bool:
        return self.turn >= ROUNDS * len(self.names)

    @property
    def current(self) -> str:
        return self.names[self.turn % len(self.names)]

    def apply(self, event: EventJson) -> Self:
        kind = event.get("type")
        if self.over:
            raise IllegalMove(f"{kind}: the game is over")
        if kind == "thrown":
            if self.thrown is not None:
                raise IllegalMove(f"{self.current} has thrown already")
            faces = event.get("faces")
            if not isinstance(faces, list) or len(faces) != len(self.dice):
                raise InputError("duel event", "faces", f"expected {len(self.dice)} faces")
            return replace(self, thrown=tuple(faces))
        if kind in ("keep", "pass"):
            if event.get("player") != self.current or self.thrown is None:
                raise IllegalMove(f"{event.get('player')} may not {kind} now")
            gain = sum(face + 1 for face in self.thrown) if kind == "keep" else 0
            scores = list(self.scores)
            scores[self.turn % len(self.names)] += gain
            return replace(self, scores=tuple(scores), turn=self.turn + 1, thrown=None)
        raise InputError("duel event", "type", f"unknown event {kind!r}")

    def roll(self) -> Roll | None:
        if self.over or self.thrown is not None:
            return None
        return Roll(self.dice, self.current)

    def dice_event(self, faces: Sequence[int]) -> EventJson:
        return {"type": "thrown", "faces": list(faces)}

    def move_event(self, seat: str, move: Mapping[str, Any]) -> EventJson:
        kind = move.get("type")
        if kind not in ("keep", "pass") or set(move) != {"type"}:
            raise InputError("duel move", "type", "expected {'type': 'keep' | 'pass'}")
        return {"type": kind, "player": seat}

    def auto_move(self, player: str, rng: random.Random) -> Mapping[str, Any] | None:
        if self.over or self.thrown is None or player != self.current:
            return None
        return {"type": rng.choice(("keep", "pass"))}

    def view(self, say: Say = str) -> dict[str, Any]:
        best = max(self.scores)
        waiting = [self.current] if not self.over and self.thrown is not None else []
        roll = self.roll()
        return {
            "kind": self.KIND,
            "title": self.TITLE,
            "players": list(self.names),
            "scores": dict(zip(self.names, self.scores, strict=True)),
            "score_label": "pips",
            "waiting_for": waiting,
            "roll": roll.to_json() if roll else None,
            "status": "game over" if self.over else f"{self.current}'s turn",
            "over": self.over,
            "winners": [n for n, s in zip(self.names, self.scores, strict=True) if s == best]
            if self.over
            else [],
            "game": {"thrown": list(self.thrown) if self.thrown else None},
        }
