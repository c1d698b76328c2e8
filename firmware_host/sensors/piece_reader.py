"""Forward model of the piece reader: the tag of the piece held over the slot.

A tag names the piece's colour and shape, ``<color>-<shape>`` (the reader's tags are
written that way when a table's pieces are tagged). A table without a reader, or an empty
slot, reads nothing (None).

>>> from firmware_host.config.table import load_table
>>> PieceReader(load_table()).read((Color.BLUE, Shape.DIAMOND))
'blue-diamond'
>>> piece_of_tag("blue-diamond")
(<Color.BLUE: 'blue'>, <Shape.DIAMOND: 'diamond'>)
"""

from __future__ import annotations

from firmware_host.config.table import Table
from firmware_host.errors import InputError
from firmware_host.games.dropit.rules.pieces import Color, Shape


def tag_of(color: Color, shape: Shape) -> str:
    """The tag of a ``color`` ``shape`` piece."""
    return f"{color}-{shape}"


def piece_of_tag(tag: str) -> tuple[Color, Shape]:
    """The colour and shape a tag names; an unknown tag is an :class:`InputError`."""
    color, _, shape = tag.partition("-")
    try:
        return Color(color), Shape(shape)
    except ValueError:
        raise InputError(
            "piece reader", repr(tag), "not a piece tag (expected <color>-<shape>)"
        ) from None


class PieceReader:
    """The piece reader of ``table`` (present or not)."""

    def __init__(self, table: Table) -> None:
        self.present = table.config.piece_reader.present

    def read(self, held: tuple[Color, Shape] | None) -> str | None:
        """The tag read with the ``(color, shape)`` piece ``held`` over the slot (or None)."""
        if not self.present or held is None:
            return None
        return tag_of(*held)
