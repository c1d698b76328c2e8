"""The events of a game: everything that happens, as frozen values with a stable JSON form.

A game is a pure function of its events (see :mod:`firmware_host.games.clever.game`); the
journal stores each event's :meth:`~Event.to_json` and replays them with
:meth:`Event.from_json`. The JSON forms (``type`` names the event)::

    {"type": "game_started", "players": ["Olivia", "Eric"], "first": "Olivia", "seed": 7}
    {"type": "dice_rolled", "player": "Olivia", "faces": [0, 2, 5, 1, 3]}
    {"type": "dice_chosen", "player": "Olivia", "color": "yellow",
     "uses": [{"box": "yellow.1", "dice": [0]}], "bonuses": []}
    {"type": "passed", "player": "Eric"}

``faces`` lists the face index (0..5) each die (0..4, in the game file's order) shows.
``uses`` are the crosses made with dice, in order, each naming the box and the dice used
for it; ``bonuses`` are the boxes crossed with bonus crosses at the end of the turn, in order.

>>> event = DiceRolled("Olivia", (0, 2, 5, 1, 3))
>>> Event.from_json(event.to_json()) == event
True
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar

from firmware_host.errors import InputError
from firmware_host.games.clever.layout import Color

SOURCE = "clever event"
"""How errors name a malformed event."""


@dataclass(frozen=True, slots=True)
class Event(ABC):
    """Base of every event; :meth:`from_json` reads any of them."""

    TYPE: ClassVar[str] = ""
    KEYS: ClassVar[tuple[str, ...]] = ()

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The event's stable JSON form (a dict of JSON values)."""

    @classmethod
    def from_json(cls, data: Any) -> Event:
        """Read an event from its JSON form; :class:`InputError` names what is wrong."""
        if not isinstance(data, dict):
            raise InputError(SOURCE, "(top level)", f"expected an object, got {data!r}")
        kind = data.get("type")
        types = {t.TYPE: t for t in (GameStarted, DiceRolled, DiceChosen, Passed)}
        if kind not in types:
            raise InputError(SOURCE, "type", f"expected one of {', '.join(types)}, got {kind!r}")
        event_type = types[kind]
        if cls is not Event and event_type is not cls:
            raise InputError(SOURCE, "type", f"expected {cls.TYPE!r}, got {kind!r}")
        return event_type.read(_Fields(data, {"type", *event_type.KEYS}))

    @classmethod
    @abstractmethod
    def read(cls, fields: _Fields) -> Event:
        """Build the event from its checked fields (each concrete event defines it)."""


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    """A game begins: the players in clockwise order, the first starting player, a seed.

    The first starting player is the one who most recently celebrated their birthday. The
    seed drives the virtual dice when the table plays without a hub.
    """

    TYPE: ClassVar[str] = "game_started"
    KEYS: ClassVar[tuple[str, ...]] = ("players", "first", "seed")
    players: tuple[str, ...]
    first: str
    seed: int

    def to_json(self) -> dict[str, Any]:
        """See :class:`Event`."""
        return {
            "type": self.TYPE,
            "players": list(self.players),
            "first": self.first,
            "seed": self.seed,
        }

    @classmethod
    def read(cls, fields: _Fields) -> GameStarted:
        """See :class:`Event`."""
        return cls(fields.strings("players"), fields.string("first"), fields.integer("seed"))


@dataclass(frozen=True, slots=True)
class DiceRolled(Event):
    """The starting player rolled all the dice: ``faces[d]`` is the face index die d shows."""

    TYPE: ClassVar[str] = "dice_rolled"
    KEYS: ClassVar[tuple[str, ...]] = ("player", "faces")
    player: str
    faces: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """See :class:`Event`."""
        return {"type": self.TYPE, "player": self.player, "faces": list(self.faces)}

    @classmethod
    def read(cls, fields: _Fields) -> DiceRolled:
        """See :class:`Event`."""
        return cls(fields.string("player"), fields.integers("faces"))


@dataclass(frozen=True, slots=True)
class Use:
    """One symbol crossed with dice: the box and the dice (indices 0..4) that pay for it."""

    box: str
    dice: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DiceChosen(Event):
    """A player's whole turn: the area (``color``), the crosses made with dice, the bonuses."""

    TYPE: ClassVar[str] = "dice_chosen"
    KEYS: ClassVar[tuple[str, ...]] = ("player", "color", "uses", "bonuses")
    player: str
    color: Color
    uses: tuple[Use, ...]
    bonuses: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """See :class:`Event`."""
        return {
            "type": self.TYPE,
            "player": self.player,
            "color": self.color.value,
            "uses": [{"box": u.box, "dice": list(u.dice)} for u in self.uses],
            "bonuses": list(self.bonuses),
        }

    @classmethod
    def read(cls, fields: _Fields) -> DiceChosen:
        """See :class:`Event`."""
        color = fields.string("color")
        if color not in {c.value for c in Color}:
            raise InputError(SOURCE, "color", f"expected a colour of the dice, got {color!r}")
        uses = []
        for i, item in enumerate(fields.items("uses")):
            use = _Fields(item, {"box", "dice"}, f"uses[{i}].")
            uses.append(Use(use.string("box"), use.integers("dice")))
        return cls(fields.string("player"), Color(color), tuple(uses), fields.strings("bonuses"))


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """A player who is not the starting player uses none of the dice this turn."""

    TYPE: ClassVar[str] = "passed"
    KEYS: ClassVar[tuple[str, ...]] = ("player",)
    player: str

    def to_json(self) -> dict[str, Any]:
        """See :class:`Event`."""
        return {"type": self.TYPE, "player": self.player}

    @classmethod
    def read(cls, fields: _Fields) -> Passed:
        """See :class:`Event`."""
        return cls(fields.string("player"))


class _Fields:
    """The keys of one JSON object, each read with its type checked; errors name the key."""

    def __init__(self, data: Any, keys: set[str], prefix: str = "") -> None:
        if not isinstance(data, dict):
            raise InputError(SOURCE, prefix.rstrip(".") or "(top level)", "expected an object")
        for key in data:
            if key not in keys:
                raise InputError(SOURCE, f"{prefix}{key}", "unknown key")
        for key in keys:
            if key not in data:
                raise InputError(SOURCE, f"{prefix}{key}", "required key is missing")
        self.data = data
        self.prefix = prefix

    def _bad(self, key: str, expected: str) -> InputError:
        return InputError(
            SOURCE, f"{self.prefix}{key}", f"expected {expected}, got {self.data[key]!r}"
        )

    def string(self, key: str) -> str:
        value = self.data[key]
        if not isinstance(value, str) or not value:
            raise self._bad(key, "a non-empty string")
        return value

    def integer(self, key: str) -> int:
        value = self.data[key]
        if not isinstance(value, int) or isinstance(value, bool):
            raise self._bad(key, "an integer")
        return value

    def items(self, key: str) -> list[Any]:
        value = self.data[key]
        if not isinstance(value, list):
            raise self._bad(key, "a list")
        return value

    def strings(self, key: str) -> tuple[str, ...]:
        values = self.items(key)
        if not all(isinstance(v, str) and v for v in values):
            raise self._bad(key, "a list of non-empty strings")
        return tuple(values)

    def integers(self, key: str) -> tuple[int, ...]:
        values = self.items(key)
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            raise self._bad(key, "a list of integers")
        return tuple(values)
