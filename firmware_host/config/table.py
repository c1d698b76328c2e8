"""The table file: which board, and where each sensor sits around its drop zone.

A table file is YAML (``config/tables/reference.yaml`` is the reference table)::

    version: 1
    board: ../boards/reference.yaml   # relative to this file
    entry_gate:          # break beams through the panes, a row across the top opening
      height: 60.0       # mm above the drop zone's top edge
      first: 5.0         # x of beam 0 (mm)
      pitch: 10.0        # mm between beams
      count: 30          # beams 0..29 at x = 5, 15, ..., 295
    top_gate:            # horizontal beams across the full width, just above the top edge
      heights: [2.0]     # mm above the top edge, one beam each, lowest first
    curtain:             # horizontal beams across the drop zone, up the side edges
      first: 2.5         # height of beam 0 above the floor (mm)
      pitch: 5.0
      count: 60          # beams at y = 2.5, 7.5, ..., 297.5
    edge_strip:          # contact elements lining the left, bottom and right edges
      first: 0.5         # where element 0 starts along its edge (y on the sides, x on the bottom)
      pitch: 10.0
      length: 9.0        # each element's span along the edge (<= pitch)
      count: {left: 30, bottom: 30, right: 30}
      threshold: 0.5     # mm: a piece this close to an element's span presses it
    piece_reader: {present: true}
    dice: {count: 6, faces: 6}
    language: de         # the page's language: en (the default), de, or any shipped catalogue's

Element and beam ``i`` of a strip is bit ``i`` of its reading (beam 0 lowest or leftmost,
element 0 nearest the edge's origin: bottom of a side, left end of the bottom).

>>> table = load_table()
>>> table.entry_beams[:3], table.curtain_heights[-1], table.board.name
((5.0, 15.0, 25.0), 297.5, 'reference')
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, model_validator

from firmware_host.camera.setup import CameraSetup
from firmware_host.config.board import Board, Side, load_board
from firmware_host.config.loader import (
    CONFIG_DIR,
    ConfigValueError,
    StrictModel,
    load_model,
    load_yaml,
)
from firmware_host.errors import InputError
from firmware_host.i18n import SOURCE_LANGUAGE, languages

REFERENCE_TABLE = CONFIG_DIR / "tables" / "reference.yaml"

MAX_FACES = 6
"""The most faces a die may have: the hub protocol reports faces 0-5."""
"""The reference table shipped with the project."""

PositiveMM = Annotated[float, Field(gt=0)]
NonNegativeMM = Annotated[float, Field(ge=0)]
Count = Annotated[int, Field(ge=1)]


class EntryGateConfig(StrictModel):
    """A row of break beams at ``height`` mm above the top edge, at x = first + i * pitch."""

    height: PositiveMM
    first: NonNegativeMM
    pitch: PositiveMM
    count: Count

    def beams(self) -> tuple[float, ...]:
        """Each beam's x (mm), beam 0 first."""
        return tuple(self.first + i * self.pitch for i in range(self.count))


class TopGateConfig(StrictModel):
    """Horizontal beams across the whole width at ``heights`` mm above the top edge."""

    heights: Annotated[list[PositiveMM], Field(min_length=1)]

    @model_validator(mode="after")
    def _increasing(self) -> TopGateConfig:
        for i in range(1, len(self.heights)):
            if self.heights[i] <= self.heights[i - 1]:
                raise ConfigValueError(
                    f"heights[{i}]", "beam heights must increase (each beam once, lowest first)"
                )
        return self


class CurtainConfig(StrictModel):
    """Horizontal beams across the drop zone at y = first + i * pitch."""

    first: PositiveMM
    pitch: PositiveMM
    count: Count

    def heights(self) -> tuple[float, ...]:
        """Each beam's height above the floor (mm), beam 0 first."""
        return tuple(self.first + i * self.pitch for i in range(self.count))


class SideCounts(StrictModel):
    """How many contact elements line each edge."""

    left: Annotated[int, Field(ge=0)]
    bottom: Annotated[int, Field(ge=0)]
    right: Annotated[int, Field(ge=0)]


class EdgeStripConfig(StrictModel):
    """Contact elements along the left, bottom and right edges.

    Element ``i`` of a side spans ``first + i * pitch`` to that + ``length`` along its edge
    and is pressed by a piece within ``threshold`` mm of that span.
    """

    first: NonNegativeMM
    pitch: PositiveMM
    length: PositiveMM
    count: SideCounts
    threshold: Annotated[float, Field(gt=0, le=5)]

    @model_validator(mode="after")
    def _no_overlap(self) -> EdgeStripConfig:
        if self.length > self.pitch:
            raise ConfigValueError(
                "length",
                f"elements {self.length:g} mm long every {self.pitch:g} mm would overlap "
                f"(length must be <= pitch)",
            )
        return self

    def spans(self, side: Side) -> tuple[tuple[float, float], ...]:
        """Each element's ``(from, to)`` along ``side``'s edge, element 0 first."""
        count = getattr(self.count, side.value)
        return tuple(
            (self.first + i * self.pitch, self.first + i * self.pitch + self.length)
            for i in range(count)
        )


class PieceReaderConfig(StrictModel):
    """Whether the table has a reader of the piece held over the slot."""

    present: bool


class DiceTrayConfig(StrictModel):
    """The dice in the tray: how many, and faces per die (face index 0 .. faces - 1).

    At most :data:`MAX_FACES`: the hub protocol's ``die`` message carries faces 0-5.
    """

    count: Annotated[int, Field(ge=0, le=32)]
    faces: Annotated[int, Field(ge=2, le=MAX_FACES)]


class SettleConfig(StrictModel):
    """When the host calls a drop over (:mod:`firmware_host.sensors.collector`).

    ``quiet``: seconds with no strip or gate change after which the drop has settled;
    ``jam``: seconds after the piece entered by which it must have settled, or it jammed.
    """

    quiet: Annotated[float, Field(gt=0, le=10)] = 0.3
    jam: Annotated[float, Field(gt=0, le=120)] = 10.0

    @model_validator(mode="after")
    def _jam_after_quiet(self) -> SettleConfig:
        if self.jam <= self.quiet:
            raise ValueError(f"jam ({self.jam:g} s) must be longer than quiet ({self.quiet:g} s)")
        return self


def _spoken(language: str) -> str:
    known = languages()
    if language not in known:
        raise ValueError(f"expected one of {', '.join(known)} (a language with a catalogue)")
    return language


Language = Annotated[str, AfterValidator(_spoken)]
"""A language the table can speak (:func:`firmware_host.i18n.languages`)."""


class TableConfig(StrictModel):
    """A table file as written; :func:`load_table` checks it against its board."""

    version: Literal[1]
    board: str
    entry_gate: EntryGateConfig
    top_gate: TopGateConfig
    curtain: CurtainConfig
    edge_strip: EdgeStripConfig
    piece_reader: PieceReaderConfig
    dice: DiceTrayConfig
    settle: SettleConfig = SettleConfig()
    camera: CameraSetup | Literal["none"] = "none"
    language: Language = SOURCE_LANGUAGE
    """The page's language until a browser asks for another (``?lang=``)."""

    def check_against(self, board: Board) -> None:
        """Raise :class:`ConfigValueError` where a sensor does not fit ``board``'s drop zone."""
        gate = self.entry_gate
        last = gate.beams()[-1]
        if last >= board.width or gate.first <= 0:
            raise ConfigValueError(
                "entry_gate",
                f"beams run from x={gate.first:g} to x={last:g}: they must lie inside the "
                f"opening (0 < x < {board.width:g})",
            )
        if self.top_gate.heights[-1] >= gate.height:
            raise ConfigValueError(
                "top_gate.heights",
                f"the top gate's beams must lie below the entry gate's row "
                f"({gate.height:g} mm above the top edge)",
            )
        top = self.curtain.heights()[-1]
        if top >= board.height:
            raise ConfigValueError(
                "curtain",
                f"beams run up to y={top:g}: the strip is longer than the side edge "
                f"(beams must lie below the top edge, y < {board.height:g})",
            )
        strip = self.edge_strip
        for side in Side:
            spans = strip.spans(side)
            edge = board.width if side is Side.BOTTOM else board.height
            if spans and spans[-1][1] > edge:
                raise ConfigValueError(
                    f"edge_strip.count.{side}",
                    f"{len(spans)} elements reach {spans[-1][1]:g} mm: the strip is longer "
                    f"than the {side} edge ({edge:g} mm)",
                )


@dataclass(frozen=True)
class Table:
    """A validated table: its config, its board, and every sensor's position in mm."""

    config: TableConfig
    board: Board

    @property
    def entry_beams(self) -> tuple[float, ...]:
        """Entry-gate beam x positions (mm)."""
        return self.config.entry_gate.beams()

    @property
    def entry_row(self) -> float:
        """Height of the entry gate's row above the floor (mm)."""
        return self.board.height + self.config.entry_gate.height

    @property
    def top_gate_heights(self) -> tuple[float, ...]:
        """Top-gate beam heights above the floor (mm)."""
        return tuple(self.board.height + h for h in self.config.top_gate.heights)

    @property
    def curtain_heights(self) -> tuple[float, ...]:
        """Curtain beam heights above the floor (mm)."""
        return self.config.curtain.heights()

    @property
    def camera(self) -> CameraSetup | None:
        """The camera's set-up (``None`` for a table without a camera)."""
        camera = self.config.camera
        return None if camera == "none" else camera


def _board_path(table_path: Path, data: Any) -> Path:
    """The board file a table file names, relative to the table file's folder."""
    name = data.get("board") if isinstance(data, dict) else None
    if not isinstance(name, str):
        raise InputError(str(table_path), "board", "expected the path of a board file")
    path = (table_path.parent / name).resolve()
    if not path.is_file():
        raise InputError(str(table_path), "board", f"no board file {name!r} (looked at {path})")
    return path


def load_table(path: Path | str | None = None) -> Table:
    """Load and validate a table file and its board (the reference table when ``path`` is None).

    Every problem is one :class:`InputError` naming the file and the key.
    """
    path = Path(path) if path is not None else REFERENCE_TABLE
    data = load_yaml(path)
    config = load_model(TableConfig, path, data)
    board = load_board(_board_path(path, data))
    try:
        config.check_against(board)
    except ConfigValueError as exc:
        raise InputError(str(path), exc.where, exc.problem) from None
    return Table(config, board)
