"""The events a game of Drop It is made of; the game's state is a pure function of them.

Every event is a frozen dataclass with a stable JSON form: ``event.to_json()`` gives a
dict of JSON values whose ``"type"`` key names the event, and :func:`event_from_json`
(or ``EventClass.from_json``) reads it back, checking every key. The journal stores
these forms and replays them through :func:`firmware_host.games.dropit.state.replay`.

>>> event = JokerSpent(turn=4)
>>> event.to_json()
{'type': 'joker_spent', 'turn': 4}
>>> event_from_json(event.to_json()) == event
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Self, TypeVar

from pydantic import Field, TypeAdapter, ValidationError

from firmware_host.config.loader import format_location, validation_error
from firmware_host.errors import InputError
from firmware_host.games.dropit.lineup import Competitor, Variants
from firmware_host.games.dropit.rules.landing import EdgeContact, Rule, Verdict
from firmware_host.games.dropit.rules.pieces import Piece, Pose

E = TypeVar("E")

_ADAPTERS: dict[type, TypeAdapter[Any]] = {}
"""Each event class's pydantic adapter, made when first needed."""


def _adapter(cls: type[E]) -> TypeAdapter[E]:
    adapter = _ADAPTERS.get(cls)
    if adapter is None:
        adapter = _ADAPTERS[cls] = TypeAdapter(cls)
    return adapter


class _JsonEvent:
    """JSON form shared by every event: its fields plus ``"type"``."""

    TYPE: ClassVar[str]

    def to_json(self) -> dict[str, Any]:
        """The event as JSON values, ``"type"`` first."""
        return {"type": self.TYPE, **_adapter(type(self)).dump_python(self, mode="json")}

    @classmethod
    def from_json(cls, data: Any, source: str = "event") -> Self:
        """Read the JSON form back; InputError (naming ``source`` and the key) if it is wrong."""
        if not isinstance(data, dict) or data.get("type") != cls.TYPE:
            raise InputError(source, "type", f"expected a mapping with type {cls.TYPE!r}")
        fields = {k: v for k, v in data.items() if k != "type"}
        try:
            event = _adapter(cls).validate_python(fields)
        except ValidationError as exc:
            raise validation_error(source, exc) from None
        unknown = _unknown_key(fields, _adapter(cls).dump_python(event, mode="json"), ())
        if unknown is not None:
            raise InputError(
                source, format_location(unknown), "unknown key (not part of this event's form)"
            )
        return event


def _unknown_key(given: Any, known: Any, at: tuple[str | int, ...]) -> tuple[str | int, ...] | None:
    """The location of the first key in ``given`` that the event's own form ``known`` lacks
    (pydantic ignores extra keys of plain dataclasses such as :class:`Piece`)."""
    if isinstance(given, dict) and isinstance(known, dict):
        for key, value in given.items():
            if key not in known:
                return (*at, key)
            found = _unknown_key(value, known[key], (*at, key))
            if found is not None:
                return found
    elif isinstance(given, list) and isinstance(known, list):
        for i, (value, form) in enumerate(zip(given, known, strict=False)):
            found = _unknown_key(value, form, (*at, i))
            if found is not None:
                return found
    return None


@dataclass(frozen=True, slots=True)
class GameStarted(_JsonEvent):
    """The set-up: players (or two teams) in turn order, their colours, variant switches."""

    TYPE: ClassVar[str] = "game_started"

    competitors: tuple[Competitor, ...]
    teams: bool
    variants: Variants


@dataclass(frozen=True, slots=True)
class Ruling:
    """A landing verdict as the journal keeps it (see
    :class:`~firmware_host.games.dropit.rules.landing.Verdict`): the broken rules, the level
    and bonus, what the shape touched."""

    broken: tuple[Rule, ...]
    level: Annotated[int, Field(ge=1)]
    bonus: Annotated[int, Field(ge=0)]
    touching: tuple[str, ...] = ()
    edges: tuple[EdgeContact, ...] = ()

    @classmethod
    def of(cls, verdict: Verdict) -> Ruling:
        """The ruling of a judge's verdict."""
        return cls(
            broken=verdict.broken,
            level=verdict.level,
            bonus=verdict.bonus,
            touching=tuple(p.id for p in verdict.touching),
            edges=verdict.edges,
        )

    @property
    def valid(self) -> bool:
        """True when no rule was broken."""
        return not self.broken

    @property
    def full_points(self) -> int:
        """Level plus bonus: what the drop scores when valid, or with a joker."""
        return self.level + self.bonus

    @property
    def points(self) -> int:
        """What the drop scores by itself: level plus bonus when valid, else 0."""
        return self.full_points if self.valid else 0


@dataclass(frozen=True, slots=True)
class ShapeDropped(_JsonEvent):
    """Turn ``turn``: player ``by`` dropped ``piece`` (at its resting pose); the verdict."""

    TYPE: ClassVar[str] = "shape_dropped"

    turn: Annotated[int, Field(ge=1)]
    by: str
    piece: Piece
    ruling: Ruling


@dataclass(frozen=True, slots=True)
class JokerSpent(_JsonEvent):
    """A joker spent on the drop of turn ``turn``, right after its verdict."""

    TYPE: ClassVar[str] = "joker_spent"

    turn: Annotated[int, Field(ge=1)]


@dataclass(frozen=True, slots=True)
class PieceMove:
    """A piece already on the board (by id) now rests at ``pose``."""

    id: str
    pose: Pose


@dataclass(frozen=True, slots=True)
class PiecesMoved(_JsonEvent):
    """Pieces already on the board shifted (say, knocked by a falling shape).

    Scores never change: points were assessed when each shape was dropped.
    """

    TYPE: ClassVar[str] = "pieces_moved"

    moves: tuple[PieceMove, ...]


Event = GameStarted | ShapeDropped | JokerSpent | PiecesMoved
"""Any event of a game of Drop It."""

EVENT_TYPES: dict[str, type[GameStarted | ShapeDropped | JokerSpent | PiecesMoved]] = {
    cls.TYPE: cls for cls in (GameStarted, ShapeDropped, JokerSpent, PiecesMoved)
}
"""Each event class by the ``"type"`` of its JSON form."""


def event_from_json(data: Any, source: str = "event") -> Event:
    """Read any event's JSON form (dispatching on ``"type"``)."""
    kind = data.get("type") if isinstance(data, dict) else None
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise InputError(
            source,
            "type",
            f"unknown event type {kind!r} (expected one of {', '.join(EVENT_TYPES)})",
        )
    return cls.from_json(data, source)
