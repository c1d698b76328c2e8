"""The landing rules of Drop It: referee one dropped shape at its resting pose.

The rules (shared ``rules/``, Drop It): a dropped shape scores nothing when it

* **shape** -- touches a piece of the same shape,
* **color** -- touches a piece of the same colour,
* **edge** -- touches an edge of the drop zone marked with its own colour (or, in the
  shape-edge variant, its own shape); ignored in the easy variant,
* **height** -- sticks out above the top of the drop zone.

Otherwise it scores the highest level any part of it lies in, plus the points of every
bonus circle that covers part of it.

>>> from firmware_host.config.board import load_board
>>> from firmware_host.games.dropit.rules.pieces import Color, Piece, Pose, Shape
>>> board = load_board()
>>> square = Piece("d", Color.BLUE, Shape.SQUARE, Pose(150.0, 17.5, 0.0))
>>> judge(board, Position(EdgeFace.NONE, (), square)).points
1
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from firmware_host.config.board import Board, BonusCircle, EdgeFace, EdgeSegment, Side
from firmware_host.errors import InputError
from firmware_host.games.dropit.rules.geometry import (
    EPSILON_MM,
    BoardFeatures,
    PieceSpace,
    extent,
    piece_shape,
    within_reach,
)
from firmware_host.games.dropit.rules.pieces import Color, Piece
from firmware_host.games.dropit.rules.position import Position

MAX_OVERLAP_MM = 2.0
"""Pieces may overlap, or go through a wall or the floor, by this much (measurement slack).

Two pieces overlap by more than this when both, shrunk by half of it, still overlap."""


class Rule(StrEnum):
    """The landing rules, in the order verdicts list them."""

    SHAPE = "shape"
    COLOR = "color"
    EDGE = "edge"
    HEIGHT = "height"


@dataclass(frozen=True)
class EdgeContact:
    """An edge segment the dropped shape touches."""

    side: Side
    symbol: str

    def describe(self) -> str:
        """E.g. ``the yellow edge on the left`` / ``the circle edge at the bottom``."""
        where = "at the bottom" if self.side is Side.BOTTOM else f"on the {self.side}"
        return f"the {self.symbol} edge {where}"


@dataclass(frozen=True)
class Verdict:
    """The referee's decision on one landing, and what it was based on."""

    dropped: Piece
    level: int
    bonus_circles: tuple[BonusCircle, ...]
    touching: tuple[Piece, ...]
    edges: tuple[EdgeContact, ...]
    offenders: dict[Rule, tuple[Piece | EdgeContact, ...]]
    """For each broken rule, the pieces or edges that broke it (empty for height)."""

    @property
    def broken(self) -> tuple[Rule, ...]:
        """The rules broken, in rule order."""
        return tuple(rule for rule in Rule if rule in self.offenders)

    @property
    def valid(self) -> bool:
        """True when no rule was broken."""
        return not self.offenders

    @property
    def contacts(self) -> tuple[Piece | EdgeContact, ...]:
        """Everything the shape touches: the pieces, then the edge segments."""
        return (*self.touching, *self.edges)

    @property
    def offending_edges(self) -> tuple[EdgeContact, ...]:
        """The edge segments whose contact broke the edge rule."""
        found = self.offenders.get(Rule.EDGE, ())
        return tuple(e for e in found if isinstance(e, EdgeContact))

    @property
    def bonus(self) -> int:
        """The points of every bonus circle covering part of the shape."""
        return sum(c.points for c in self.bonus_circles)

    @property
    def points(self) -> int:
        """Level plus bonus when valid, else 0."""
        return self.level + self.bonus if self.valid else 0

    def to_json(self) -> dict[str, Any]:
        """The verdict as ``tabletop judge --json`` prints it."""
        return {
            "valid": self.valid,
            "broken": [str(rule) for rule in self.broken],
            "level": self.level,
            "bonus": self.bonus,
            "points": self.points,
            "touching": [
                {"id": p.id, "color": str(p.color), "shape": str(p.shape)} for p in self.touching
            ],
            "edges": [{"side": str(e.side), "symbol": e.symbol} for e in self.edges],
        }

    def explain(self) -> str:
        """The verdict in words a player understands."""
        name = self.dropped.describe()
        if not self.valid:
            why: dict[Piece | EdgeContact, list[str]] = {}
            for rule in self.broken:
                for culprit in self.offenders[rule]:
                    why.setdefault(culprit, []).append(_why(rule, culprit))
            contacts = [f"{_name(c)} (same {' and '.join(w)})" for c, w in why.items()]
            reasons = [f"it touches {_join(contacts)}"] if contacts else []
            if Rule.HEIGHT in self.offenders:
                reasons.append("it sticks out above the top")
            return f"{name}: 0 points — {', and '.join(reasons)}"
        parts = [f"level {self.level}"]
        parts += [f"+{c.points} bonus circle" for c in self.bonus_circles]
        contacts = [_name(thing) for thing in self.contacts]
        touches = f"; it touches {_join(contacts)}" if contacts else ""
        points = f"{self.points} point{'' if self.points == 1 else 's'}"
        return f"{name}: {points} — {', '.join(parts)}{touches}; no rule broken"


def _name(thing: Piece | EdgeContact) -> str:
    return thing.describe() if isinstance(thing, EdgeContact) else f"the {thing.describe()}"


def _why(rule: Rule, culprit: Piece | EdgeContact) -> str:
    if isinstance(culprit, EdgeContact):
        return "colour" if culprit.symbol in Color.__members__.values() else "shape"
    return "colour" if rule is Rule.COLOR else "shape"


def _join(items: Iterable[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


_FEATURES: dict[tuple[int, EdgeFace], BoardFeatures] = {}
_FEATURES_KEPT = 32


def features(board: Board, face: EdgeFace) -> BoardFeatures:
    """The pymunk features of ``board`` for ``face``, built once and kept."""
    key = (id(board), face)
    found = _FEATURES.get(key)
    if found is None or found.board is not board:
        if len(_FEATURES) >= _FEATURES_KEPT:
            _FEATURES.clear()
        found = _FEATURES[key] = BoardFeatures(board, face)
    return found


def check_position(
    board: Board,
    position: Position,
    source: str,
    name: Callable[[Piece], str] | None = None,
) -> None:
    """Reject poses no real board can show: through a wall or the floor, above the whole
    drop zone, or pieces overlapping by more than :data:`MAX_OVERLAP_MM`.

    Errors name ``source`` and the piece, as ``name`` calls it (by default as a position
    file does: ``pieces[2] (id p3)``, ``dropped``).
    """
    name = name or position.where
    everything = (*position.pieces, position.dropped)
    half = MAX_OVERLAP_MM / 2
    shrunk = PieceSpace(board, everything, grow=-half)
    for piece in everything:
        box = extent(piece_shape(board, piece.shape, piece.pose))
        where = name(piece)
        at = f"{piece.describe()} at ({piece.pose.x:g}, {piece.pose.y:g})"
        for depth, wall in (
            (-box.left, "the left wall"),
            (box.right - board.width, "the right wall"),
            (-box.bottom, "the floor"),
        ):
            if depth > MAX_OVERLAP_MM:
                raise InputError(
                    source,
                    where,
                    f"{at} goes {depth:.1f} mm through {wall} "
                    f"(more than {MAX_OVERLAP_MM:g} mm): the pose is outside the drop zone",
                )
        if box.bottom >= board.height:
            raise InputError(
                source,
                where,
                f"{at} lies wholly above the top of the drop zone "
                f"(y > {board.height:g}): the pose is outside the drop zone",
            )
        for other in shrunk.met_by(piece_shape(board, piece.shape, piece.pose, grow=-half)):
            if other is not piece:
                raise InputError(
                    source,
                    where,
                    f"{at} overlaps {name(other)} ({other.describe()}) "
                    f"by more than {MAX_OVERLAP_MM:g} mm",
                )


def own_symbol(piece: Piece, face: EdgeFace) -> str:
    """The edge symbol that is ``piece``'s own with ``face`` up: touching a segment that
    shows it breaks the edge rule."""
    return piece.color if face is EdgeFace.COLOR else piece.shape


def judge(board: Board, position: Position) -> Verdict:
    """Referee the dropped piece of ``position`` on ``board`` (poses taken as final)."""
    dropped = position.dropped
    shrunk = piece_shape(board, dropped.shape, dropped.pose, grow=-EPSILON_MM)
    grown = piece_shape(board, dropped.shape, dropped.pose, grow=board.touch_tolerance)
    board_features = features(board, position.edges)
    near = within_reach(board, position.pieces, dropped, board.touch_tolerance)
    touching = tuple(PieceSpace(board, near).met_by(grown))
    segments: list[EdgeSegment] = board_features.edges_touched(grown)
    edges = tuple(dict.fromkeys(EdgeContact(s.side, s.symbol) for s in segments))
    offenders: dict[Rule, tuple[Piece | EdgeContact, ...]] = {}
    same_shape = tuple(p for p in touching if p.shape is dropped.shape)
    same_color = tuple(p for p in touching if p.color is dropped.color)
    own = own_symbol(dropped, position.edges)
    own_edges = tuple(e for e in edges if e.symbol == own)
    if same_shape:
        offenders[Rule.SHAPE] = same_shape
    if same_color:
        offenders[Rule.COLOR] = same_color
    if own_edges:
        offenders[Rule.EDGE] = own_edges
    if extent(shrunk).top > board.height:
        offenders[Rule.HEIGHT] = ()
    return Verdict(
        dropped=dropped,
        level=board_features.level(shrunk),
        bonus_circles=tuple(board_features.bonus_circles(shrunk)),
        touching=touching,
        edges=edges,
        offenders=offenders,
    )
