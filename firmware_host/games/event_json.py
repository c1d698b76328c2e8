"""The stable JSON form of game events, shared by the game engines.

A game is event-sourced: its state is a pure function of its events, and the journal stores
each event as a JSON object whose ``type`` key names the event class. Events are frozen
dataclasses that inherit :class:`JsonEvent` and set ``TYPE``; their fields are plain JSON
values (``str``, ``int``, ``bool``, tuples of those). Reading an event checks every field
strictly (no ``"3"`` for ``3``, no unknown keys) and names the bad key.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Rolled(JsonEvent):
...     TYPE = "rolled"
...     face: int
>>> Rolled(4).to_json()
{'type': 'rolled', 'face': 4}
>>> Rolled.from_json({"type": "rolled", "face": 4})
Rolled(face=4)
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from enum import Enum
from typing import Any, ClassVar, Generic, Self, TypeVar

from pydantic import ConfigDict, TypeAdapter, ValidationError

from firmware_host.config.loader import validation_error
from firmware_host.errors import InputError


class JsonEvent:
    """Mixin of a frozen event dataclass: ``to_json()`` and ``from_json()`` in a stable form."""

    TYPE: ClassVar[str]
    """The value of the ``type`` key that names this event in JSON."""
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]
    """Every event is a dataclass (declared, not set: the mixin itself is none)."""

    __pydantic_config__ = ConfigDict(strict=True, extra="forbid")

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON-ready mapping: ``type`` first, then the fields in order."""
        fields = dataclasses.asdict(self)
        return {"type": self.TYPE} | {k: _plain(v) for k, v in fields.items()}

    @classmethod
    def from_json(cls, data: Any, source: str = "event") -> Self:
        """Read the event back; anything malformed is an :class:`InputError` naming the key."""
        if not isinstance(data, dict):
            raise InputError(source, "(top level)", "expected a JSON object")
        if data.get("type") != cls.TYPE:
            raise InputError(source, "type", f"expected {cls.TYPE!r}, got {data.get('type')!r}")
        fields = {k: v for k, v in data.items() if k != "type"}
        known = {f.name for f in dataclasses.fields(cls)}
        for key in fields:
            if key not in known:
                raise InputError(source, str(key), "unknown key (not part of this event)")
        try:
            text = json.dumps(fields)
        except (TypeError, ValueError) as exc:
            raise InputError(source, "(top level)", f"not JSON data ({exc})") from None
        try:
            return TypeAdapter(cls).validate_json(text)
        except ValidationError as exc:
            raise validation_error(source, exc) from None


def _plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, Enum):
        return value.value
    return value


E = TypeVar("E", bound=JsonEvent)


def event_reader(classes: Iterable[type[E]]) -> EventReader[E]:
    """A reader for one game's events ``E`` (the union of ``classes``), dispatching on the
    ``type`` key."""
    return EventReader({cls.TYPE: cls for cls in classes})


@dataclasses.dataclass(frozen=True)
class EventReader(Generic[E]):
    """Reads any of one game's events ``E`` from JSON (see :func:`event_reader`)."""

    classes: dict[str, type[E]]

    def __call__(self, data: Any, source: str = "event") -> E:
        """The event ``data`` describes; an unknown ``type`` is an :class:`InputError`."""
        if not isinstance(data, dict):
            raise InputError(source, "(top level)", "expected a JSON object")
        kind = data.get("type")
        cls = self.classes.get(kind) if isinstance(kind, str) else None
        if cls is None:
            known = ", ".join(sorted(self.classes))
            problem = f"unknown event type {kind!r} (expected one of {known})"
            raise InputError(source, "type", problem)
        return cls.from_json(data, source)
