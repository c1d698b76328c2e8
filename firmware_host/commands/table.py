"""``tabletop table [--json] [--table FILE]``: show where every sensor of a table sits.

The people who build a table check their table file with it: a bad file gives one line
naming the file and the key (exit status 2).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from firmware_host.config.board import Side
from firmware_host.config.table import Table, load_table


def register(subparsers: Any) -> None:
    """Add the ``table`` command."""
    parser = subparsers.add_parser(
        "table", help="show the table's sensors (the reference table by default)"
    )
    parser.add_argument("--json", action="store_true", help="print every sensor's position as JSON")
    parser.add_argument("--table", metavar="FILE", help="a table file instead of the reference")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the table's sensors, as JSON or as a summary a person reads."""
    table = load_table(args.table)
    print(json.dumps(positions(table), indent=2) if args.json else describe(table))
    return 0


def positions(table: Table) -> dict[str, Any]:
    """Every sensor's position in mm, bit i of a reading = item i of its list."""
    strip = table.config.edge_strip
    return {
        "board": table.board.name,
        "entry_gate": {"y": table.entry_row, "x": list(table.entry_beams)},
        "top_gate": {"y": list(table.top_gate_heights)},
        "curtain": {"y": list(table.curtain_heights)},
        "edge_strip": {
            "threshold": strip.threshold,
            **{side.value: [list(span) for span in strip.spans(side)] for side in Side},
        },
        "piece_reader": table.config.piece_reader.present,
        "dice": {"count": table.config.dice.count, "faces": table.config.dice.faces},
    }


def describe(table: Table) -> str:
    """A plain-words summary of a table's sensors."""
    config, board = table.config, table.board
    beams, curtain = table.entry_beams, table.curtain_heights
    strip = config.edge_strip
    lines = [
        f"Table on board {board.name!r} ({board.width:g} x {board.height:g} mm):",
        f"  entry gate: {len(beams)} beams at x = {beams[0]:g} .. {beams[-1]:g} "
        f"every {config.entry_gate.pitch:g}, row at y = {table.entry_row:g}",
        "  top gate: beams across the width at y = "
        + ", ".join(f"{h:g}" for h in table.top_gate_heights),
        f"  curtain: {len(curtain)} beams at y = {curtain[0]:g} .. {curtain[-1]:g} "
        f"every {config.curtain.pitch:g}",
    ]
    for side in Side:
        spans = strip.spans(side)
        where = f"from {spans[0][0]:g} to {spans[-1][1]:g}" if spans else "none"
        lines.append(
            f"  edge strip {side}: {len(spans)} elements of {strip.length:g} mm every "
            f"{strip.pitch:g}, {where}"
        )
    lines.append(f"  pressed within {strip.threshold:g} mm")
    lines.append(f"  piece reader: {'yes' if config.piece_reader.present else 'no'}")
    lines.append(f"  dice: {config.dice.count} of {config.dice.faces} faces")
    return "\n".join(lines)
