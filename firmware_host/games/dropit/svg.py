"""The board drawn as SVG from a :class:`~firmware_host.games.dropit.view.DropItView` (pure).

The drawing uses board millimetres: the drop zone is ``0..width`` by ``0..height`` with y
flipped (SVG's y runs down), plus a margin on the left, right and bottom for the edge
symbols of the active face. Classes and ``data-`` attributes name what each element is,
so the page can style it and tests can read it:

* ``level-line`` polylines (``data-level``) and ``level-number`` labels (drawn over the
  pieces, so a piece never hides them);
* ``bonus`` circles (``data-points``; ``scored`` when the last drop covers them);
* ``edge`` segments (``data-side``, ``data-symbol``; ``offender`` when the last drop broke
  the edge rule on them);
* ``piece`` shapes (``data-id``, ``data-color``, ``data-shape``, ``data-x``, ``data-y``,
  ``data-angle``; ``dropped`` for the latest drop, ``offender`` for the pieces it touched
  against the rules);
* while the referee asks: the piece asked about as a ``ghost`` at the pose the referee
  believes, and what the question is about lit up with the class ``asked`` (a piece, a
  bonus circle, a level line, the segments of an edge that show the ghost's own symbol,
  or an ``asked-line`` along the top, or along an edge when no segment shows it).
"""

from __future__ import annotations

import math
from xml.sax.saxutils import quoteattr

from firmware_host.config.board import Board, CircleShape, EdgeSegment, Side
from firmware_host.games.dropit.rules.landing import EdgeContact, own_symbol
from firmware_host.games.dropit.rules.pieces import Color, Piece, Shape
from firmware_host.games.dropit.view import DropItView

MARGIN_MM = 16.0
"""Room around the drop zone for the edge symbols (mm)."""

COLORS: dict[str, str] = {
    Color.RED: "#d62828",
    Color.BLUE: "#1f5fd6",
    Color.YELLOW: "#f2c200",
    Color.GREEN: "#2a9d3a",
}
"""How each piece colour is painted."""


def _n(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _classes(*names: str | None) -> str:
    return quoteattr(" ".join(n for n in names if n))


def board_svg(view: DropItView) -> str:
    """The board of ``view`` as one ``<svg>`` element (a string)."""
    board = view.board
    w, h, m = board.width, board.height, MARGIN_MM
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board" role="img" '
        f'aria-label="the drop zone" viewBox="{_n(-m)} {_n(-m)} {_n(w + 2 * m)} {_n(h + 2 * m)}">',
        f'<rect class="zone" x="0" y="0" width="{_n(w)}" height="{_n(h)}"/>',
    ]
    mark = view.question.mark if view.question is not None else None
    asked = (mark.kind, mark.ref) if mark is not None else ("", "")
    lines, numbers = _levels(board, int(asked[1]) if asked[0] == "level" else None)
    parts += lines
    scored = set(view.scored_circles)
    for k, c in enumerate(board.bonus_circles):
        asked_here = "asked" if asked == ("circle", str(k)) else None
        parts.append(
            f"<circle class={_classes('bonus', 'scored' if c in scored else None, asked_here)} "
            f'data-index="{k}" data-points="{c.points}" cx="{_n(c.x)}" cy="{_n(h - c.y)}" '
            f'r="{_n(c.radius)}"/>'
            f'<text class="bonus-points" x="{_n(c.x)}" y="{_n(h - c.y)}">+{c.points}</text>'
        )
    offending = view.offending_edges
    face = view.state.started.variants.edges
    ghost = view.question.ghost if view.question is not None else None
    own = own_symbol(ghost, face) if asked[0] == "edge" and ghost is not None else None
    lit_edges = 0
    for segment in board.edges.face(face):
        lit = own is not None and asked[1] == segment.side and segment.symbol == own
        lit_edges += lit
        offender = EdgeContact(segment.side, segment.symbol) in offending
        parts.append(_edge(board, segment, offender, lit))
    dropped = view.last_drop.piece.id if view.last_drop else None
    offenders = view.offending_pieces
    for piece in view.pieces:
        lit = asked == ("piece", piece.id)
        parts.append(_piece(board, piece, piece.id == dropped, piece.id in offenders, lit))
    if asked[0] == "top" or (asked[0] == "edge" and not lit_edges):
        parts.append(_asked_line(board, asked[1] or "top"))
    if view.question is not None and view.question.ghost is not None:
        parts.append(_piece(board, view.question.ghost, ghost=True))
    parts += numbers
    parts.append("</svg>")
    return "".join(parts)


def _asked_line(board: Board, side: str) -> str:
    """A lit-up line along ``side`` of the drop zone (``left``, ``right``, ``bottom``,
    ``top``)."""
    w, h = board.width, board.height
    x1, y1, x2, y2 = {
        "left": (0.0, 0.0, 0.0, h),
        "right": (w, 0.0, w, h),
        "bottom": (0.0, h, w, h),
        "top": (0.0, 0.0, w, 0.0),
    }[side]
    return (
        f'<line class="asked asked-line" data-side="{side}" x1="{_n(x1)}" y1="{_n(y1)}" '
        f'x2="{_n(x2)}" y2="{_n(y2)}"/>'
    )


def _levels(board: Board, asked: int | None = None) -> tuple[list[str], list[str]]:
    """The level lines and the level numbers; with ``asked``, the line under that level
    lit up."""
    h, label_x = board.height, 10.0
    out: list[str] = []
    numbers: list[str] = []
    floor = 0.0
    for line in board.levels:
        if line is not board.levels[-1]:
            points = " ".join(f"{_n(x)},{_n(h - y)}" for x, y in line.top)
            lit = asked is not None and line.level == asked - 1
            out.append(
                f"<polyline class={_classes('level-line', 'asked' if lit else None)} "
                f'data-level="{line.level}" points="{points}"/>'
            )
        top = line.y_at(label_x)
        numbers.append(
            f'<text class="level-number" x="{_n(label_x)}" y="{_n(h - (floor + top) / 2)}">'
            f"{line.level}</text>"
        )
        floor = top
    return out, numbers


def _edge(board: Board, segment: EdgeSegment, offender: bool, asked: bool = False) -> str:
    m, w, h = MARGIN_MM, board.width, board.height
    band = m * 0.7
    if segment.side is Side.LEFT:
        x, y, width, height = -band, h - segment.end, band, segment.end - segment.start
    elif segment.side is Side.RIGHT:
        x, y, width, height = w, h - segment.end, band, segment.end - segment.start
    else:
        x, y, width, height = segment.start, h, segment.end - segment.start, band
    fill = COLORS.get(segment.symbol, "#ddd")
    attrs = (
        f"class={_classes('edge', 'offender' if offender else None, 'asked' if asked else None)} "
        f'data-side="{segment.side}" data-symbol={quoteattr(segment.symbol)}'
    )
    out = (
        f'<g {attrs}><rect x="{_n(x)}" y="{_n(y)}" width="{_n(width)}" '
        f'height="{_n(height)}" fill="{fill}"/>'
    )
    if segment.symbol in Shape.__members__.values():
        cx, cy = x + width / 2, y + height / 2
        out += _glyph(Shape(segment.symbol), cx, cy, band * 0.35)
    return out + "</g>"


def _glyph(shape: Shape, cx: float, cy: float, r: float) -> str:
    """A small outline of ``shape`` centred on (cx, cy), for the shape face of the edges."""
    if shape is Shape.CIRCLE:
        return f'<circle class="glyph" cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r)}"/>'
    corners: dict[Shape, list[tuple[float, float]]] = {
        Shape.SQUARE: [(-1, -1), (1, -1), (1, 1), (-1, 1)],
        Shape.DIAMOND: [(0, -1.3), (0.9, 0), (0, 1.3), (-0.9, 0)],
        Shape.TRIANGLE: [(-1.1, 0.8), (1.1, 0.8), (0, -1.1)],
    }
    points = " ".join(f"{_n(cx + dx * r)},{_n(cy + dy * r)}" for dx, dy in corners[shape])
    return f'<polygon class="glyph" points="{points}"/>'


def _piece(
    board: Board,
    piece: Piece,
    dropped: bool = False,
    offender: bool = False,
    asked: bool = False,
    ghost: bool = False,
) -> str:
    h = board.height
    pose = piece.pose
    classes = _classes(
        "ghost" if ghost else "piece",
        "dropped" if dropped else None,
        "offender" if offender else None,
        "asked" if asked else None,
    )
    attrs = (
        f"class={classes} "
        f"data-id={quoteattr(piece.id)} data-color={quoteattr(str(piece.color))} "
        f'data-shape={quoteattr(str(piece.shape))} data-x="{_n(pose.x)}" '
        f'data-y="{_n(pose.y)}" data-angle="{_n(pose.angle)}" fill="{COLORS[piece.color]}"'
    )
    dims = board.shapes.of(piece.shape)
    if isinstance(dims, CircleShape):
        return f'<circle {attrs} cx="{_n(pose.x)}" cy="{_n(h - pose.y)}" r="{_n(dims.radius)}"/>'
    turn = math.radians(pose.angle)
    cos, sin = math.cos(turn), math.sin(turn)
    points = " ".join(
        f"{_n(pose.x + x * cos - y * sin)},{_n(h - (pose.y + x * sin + y * cos))}"
        for x, y in dims.vertices
    )
    return f'<polygon {attrs} points="{points}"/>'
