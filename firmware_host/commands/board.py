"""``tabletop board [--json] [--board FILE]``: show the resolved board."""

from __future__ import annotations

import argparse
import json
from typing import Any

from firmware_host.config.board import Board, load_board


def register(subparsers: Any) -> None:
    """Add the ``board`` command."""
    parser = subparsers.add_parser("board", help="show the board (the reference board by default)")
    parser.add_argument("--json", action="store_true", help="print the board as JSON")
    parser.add_argument("--board", metavar="FILE", help="a board file instead of the reference")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the board, as JSON or as a summary a person reads."""
    board = load_board(args.board)
    print(json.dumps(board.to_json(), indent=2) if args.json else describe(board))
    return 0


def describe(board: Board) -> str:
    """A plain-words summary of a board."""
    lines = [
        f"Board {board.name!r}: drop zone {board.width:g} x {board.height:g} mm, "
        f"touching within {board.touch_tolerance:g} mm",
        f"{len(board.levels)} levels (line above each, left wall -> right wall):",
    ]
    for line in board.levels:
        points = " -> ".join(f"({x:g}, {y:g})" for x, y in line.top)
        lines.append(f"  level {line.level}: {points}")
    lines.append(f"{len(board.bonus_circles)} bonus circles:")
    for c in board.bonus_circles:
        lines.append(f"  +{c.points} at ({c.x:g}, {c.y:g}), radius {c.radius:g}")
    for face in ("color", "shape"):
        lines.append(f"edge symbols, {face} face:")
        for s in getattr(board.edges, face):
            lines.append(f"  {s.side:<6} {s.start:>5g}-{s.end:<5g} {s.symbol}")
    lines.append("shapes:")
    lines.append(f"  circle: radius {board.shapes.circle.radius:g}")
    for name in ("square", "diamond", "triangle"):
        vertices = ", ".join(f"({x:g}, {y:g})" for x, y in getattr(board.shapes, name).vertices)
        lines.append(f"  {name}: {vertices}")
    return "\n".join(lines)
