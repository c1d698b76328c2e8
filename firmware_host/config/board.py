"""The board file: the drop zone, its slanted level lines, bonus circles, edge symbols and shapes.

A board file is YAML (``config/boards/reference.yaml`` is the reference layout)::

    version: 1
    name: reference
    width: 300.0            # mm, inner width of the drop zone
    height: 300.0           # mm, from the floor to the top edge
    touch_tolerance: 1.0    # mm: closer than this counts as touching
    levels:                 # the line above each level, left wall to right wall
      - {level: 1, top: [[0, 32], [300, 44]]}
      ...
      - {level: 8, top: [[0, 300], [300, 300]]}   # the top level's top is the top edge
    bonus_circles:
      - {x: 40, y: 170, radius: 14, points: 2}
    edges:
      color: [{side: left, from: 140, to: 200, symbol: yellow}, ...]
      shape: [{side: bottom, from: 0, to: 50, symbol: circle}, ...]
    shapes:
      circle: {radius: 18}
      square: {vertices: [[-17, -17], [17, -17], [17, 17], [-17, 17]]}
      ...

``from``/``to`` run along the edge: y for the left and right sides, x for the bottom.
Polygon vertices are listed counter-clockwise around the centroid, at angle 0.
The same structure, with the same key names, is what ``tabletop board --json`` prints.
"""

from __future__ import annotations

from enum import StrEnum
from itertools import pairwise
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator, model_validator

from firmware_host.config.loader import CONFIG_DIR, ConfigValueError, StrictModel, load_model
from firmware_host.games.dropit.rules.pieces import Color, Shape

REFERENCE_BOARD = CONFIG_DIR / "boards" / "reference.yaml"
"""The reference board shipped with the project."""

CENTROID_TOLERANCE_MM = 0.01
"""How far a polygon's centroid may lie from (0, 0): poses place the centroid."""

Point = Annotated[list[float], Field(min_length=2, max_length=2)]
PositiveMM = Annotated[float, Field(gt=0)]


class Side(StrEnum):
    """An edge of the drop zone that carries symbols."""

    LEFT = "left"
    RIGHT = "right"
    BOTTOM = "bottom"


class EdgeFace(StrEnum):
    """Which face of the edge pieces is up: the variant chooses (``none``: edges ignored)."""

    COLOR = "color"
    SHAPE = "shape"
    NONE = "none"


class LevelLine(StrictModel):
    """The boundary line above level ``level``: a polyline from the left wall to the right."""

    level: Annotated[int, Field(ge=1)]
    top: Annotated[list[Point], Field(min_length=2)]

    def y_at(self, x: float) -> float:
        """Height of this line at ``x`` (linear between its points)."""
        points = self.top
        for (x0, y0), (x1, y1) in pairwise(points):
            if x <= x1:
                return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
        return points[-1][1]


class BonusCircle(StrictModel):
    """A printed bonus circle: a shape it overlaps with positive area scores ``points``."""

    x: float
    y: float
    radius: PositiveMM
    points: Annotated[int, Field(ge=1)]


class EdgeSegment(StrictModel):
    """A stretch of one edge that shows one symbol (``from``/``to`` along that edge, mm)."""

    side: Side = Field(strict=False)
    start: float = Field(alias="from")
    end: float = Field(alias="to")
    symbol: str

    @model_validator(mode="after")
    def _ordered(self) -> EdgeSegment:
        if not self.start < self.end:
            raise ValueError(f"'from' ({self.start}) must be less than 'to' ({self.end})")
        return self


class EdgeSymbols(StrictModel):
    """Both faces of the edge pieces: colour symbols and shape symbols."""

    color: list[EdgeSegment]
    shape: list[EdgeSegment]

    @model_validator(mode="after")
    def _symbols_and_overlaps(self) -> EdgeSymbols:
        for face, segments, allowed in (
            ("color", self.color, [c.value for c in Color]),
            ("shape", self.shape, [s.value for s in Shape]),
        ):
            for i, segment in enumerate(segments):
                if segment.symbol not in allowed:
                    raise ConfigValueError(
                        f"{face}[{i}].symbol",
                        f"unknown symbol {segment.symbol!r} (expected one of {', '.join(allowed)})",
                    )
            for side in Side:
                on_side = sorted(
                    (s for s in segments if s.side is side), key=lambda s: (s.start, s.end)
                )
                for a, b in pairwise(on_side):
                    if b.start < a.end:
                        raise ConfigValueError(
                            face,
                            f"{side} segments {a.start:g}-{a.end:g} and "
                            f"{b.start:g}-{b.end:g} overlap",
                        )
        return self

    def face(self, face: EdgeFace) -> list[EdgeSegment]:
        """The segments that count for ``face`` (none for the easy variant)."""
        return {EdgeFace.COLOR: self.color, EdgeFace.SHAPE: self.shape}.get(face, [])


class CircleShape(StrictModel):
    """The circle piece: its radius in mm."""

    radius: PositiveMM


class PolygonShape(StrictModel):
    """A polygon piece: convex, vertices counter-clockwise around its centroid at angle 0."""

    vertices: Annotated[list[Point], Field(min_length=3)]

    @field_validator("vertices")
    @classmethod
    def _convex_centred(cls, vertices: list[list[float]]) -> list[list[float]]:
        n = len(vertices)
        area2 = cx = cy = 0.0
        for i in range(n):
            (x0, y0), (x1, y1), (x2, y2) = vertices[i], vertices[(i + 1) % n], vertices[(i + 2) % n]
            if (x1 - x0) * (y2 - y1) - (y1 - y0) * (x2 - x1) <= 0:
                raise ValueError("vertices must form a convex polygon listed counter-clockwise")
            cross = x0 * y1 - x1 * y0
            area2 += cross
            cx += (x0 + x1) * cross
            cy += (y0 + y1) * cross
        cx, cy = cx / (3 * area2), cy / (3 * area2)
        if abs(cx) > CENTROID_TOLERANCE_MM or abs(cy) > CENTROID_TOLERANCE_MM:
            raise ValueError(
                f"the centroid must be at [0, 0] (poses place the centroid), "
                f"it is at [{cx:.3f}, {cy:.3f}]"
            )
        return vertices


class ShapeDimensions(StrictModel):
    """The four shapes' dimensions."""

    circle: CircleShape
    square: PolygonShape
    diamond: PolygonShape
    triangle: PolygonShape

    def of(self, shape: Shape) -> CircleShape | PolygonShape:
        """The dimensions of ``shape``."""
        match shape:
            case Shape.CIRCLE:
                return self.circle
            case Shape.SQUARE:
                return self.square
            case Shape.DIAMOND:
                return self.diamond
            case Shape.TRIANGLE:
                return self.triangle


class Board(StrictModel):
    """A validated board: every value in mm, origin at the inner bottom-left corner."""

    version: Literal[1]
    name: str
    width: PositiveMM
    height: PositiveMM
    touch_tolerance: Annotated[float, Field(ge=0, le=5)]
    levels: Annotated[list[LevelLine], Field(min_length=1)]
    bonus_circles: list[BonusCircle]
    edges: EdgeSymbols
    shapes: ShapeDimensions

    @model_validator(mode="after")
    def _inside_drop_zone(self) -> Board:
        self._check_levels()
        for i, c in enumerate(self.bonus_circles):
            if (
                c.x - c.radius < 0
                or c.x + c.radius > self.width
                or c.y - c.radius < 0
                or (c.y + c.radius > self.height)
            ):
                raise ConfigValueError(
                    f"bonus_circles[{i}]",
                    f"circle at ({c.x:g}, {c.y:g}) radius {c.radius:g} "
                    f"reaches outside the drop zone (0..{self.width:g} x 0..{self.height:g})",
                )
        for face in ("color", "shape"):
            for i, s in enumerate(getattr(self.edges, face)):
                length = self.width if s.side is Side.BOTTOM else self.height
                if s.start < 0 or s.end > length:
                    raise ConfigValueError(
                        f"edges.{face}[{i}]",
                        f"{s.side} segment {s.start:g}-{s.end:g} leaves the "
                        f"edge (expected within 0..{length:g})",
                    )
        return self

    def _check_levels(self) -> None:
        for i, line in enumerate(self.levels):
            where = f"levels[{i}]"
            if line.level != i + 1:
                raise ConfigValueError(f"{where}.level", f"expected {i + 1} (levels count from 1)")
            xs = [p[0] for p in line.top]
            if xs[0] != 0 or xs[-1] != self.width:
                raise ConfigValueError(
                    f"{where}.top",
                    f"must run from the left wall (x=0) to the right wall "
                    f"(x={self.width:g}), runs from x={xs[0]:g} to x={xs[-1]:g}",
                )
            if any(b <= a for a, b in pairwise(xs)):
                raise ConfigValueError(f"{where}.top", "x must increase from point to point")
            for x, y in line.top:
                if not 0 < y <= self.height:
                    raise ConfigValueError(
                        f"{where}.top",
                        f"point ({x:g}, {y:g}) leaves the drop zone "
                        f"(expected 0 < y <= {self.height:g})",
                    )
            if i > 0:
                below = self.levels[i - 1]
                for x in sorted({p[0] for p in line.top} | {p[0] for p in below.top}):
                    if line.y_at(x) <= below.y_at(x):
                        raise ConfigValueError(
                            f"{where}.top",
                            f"at x={x:g} it is not above the line of level {below.level}",
                        )
        top = self.levels[-1]
        if any(y != self.height for _, y in top.top):
            raise ConfigValueError(
                f"levels[{len(self.levels) - 1}].top",
                f"the top level's top must be the drop zone's top edge (y={self.height:g})",
            )

    def to_json(self) -> dict[str, Any]:
        """The board in the documented JSON form of ``tabletop board --json``."""
        return self.model_dump(mode="json", by_alias=True)


def load_board(path: Path | str | None = None) -> Board:
    """Load and validate a board file (the reference board when ``path`` is None)."""
    return load_model(Board, path if path is not None else REFERENCE_BOARD)
