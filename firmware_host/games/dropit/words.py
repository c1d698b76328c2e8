"""The words the page shows for pieces, edges and verdicts, in any language.

Each is a :class:`~firmware_host.i18n.Message`, said in the language of whoever reads the
view. A piece's name is one message per colour, shape and part it plays in a sentence
(German inflects the colour for the shape's gender and the case), so a translator writes
each whole; the page's scripts look the bare names up in the same catalogue.

>>> from firmware_host.i18n import translator
>>> from firmware_host.games.dropit.rules.pieces import Color, Shape
>>> LIT_UP[Color.BLUE, Shape.CIRCLE](translator("de"))
'den hervorgehobenen blauen Kreis'
"""

from __future__ import annotations

from firmware_host.config.board import Side
from firmware_host.games.dropit.rules.landing import EdgeContact, Rule, Verdict
from firmware_host.games.dropit.rules.pieces import Color, Piece, Shape
from firmware_host.i18n import Listed, Message, lazy, lazy_n, lazy_p

PIECE: dict[tuple[Color, Shape], Message] = {
    (Color.RED, Shape.CIRCLE): lazy_p("piece", "red circle"),
    (Color.RED, Shape.SQUARE): lazy_p("piece", "red square"),
    (Color.RED, Shape.DIAMOND): lazy_p("piece", "red diamond"),
    (Color.RED, Shape.TRIANGLE): lazy_p("piece", "red triangle"),
    (Color.BLUE, Shape.CIRCLE): lazy_p("piece", "blue circle"),
    (Color.BLUE, Shape.SQUARE): lazy_p("piece", "blue square"),
    (Color.BLUE, Shape.DIAMOND): lazy_p("piece", "blue diamond"),
    (Color.BLUE, Shape.TRIANGLE): lazy_p("piece", "blue triangle"),
    (Color.YELLOW, Shape.CIRCLE): lazy_p("piece", "yellow circle"),
    (Color.YELLOW, Shape.SQUARE): lazy_p("piece", "yellow square"),
    (Color.YELLOW, Shape.DIAMOND): lazy_p("piece", "yellow diamond"),
    (Color.YELLOW, Shape.TRIANGLE): lazy_p("piece", "yellow triangle"),
    (Color.GREEN, Shape.CIRCLE): lazy_p("piece", "green circle"),
    (Color.GREEN, Shape.SQUARE): lazy_p("piece", "green square"),
    (Color.GREEN, Shape.DIAMOND): lazy_p("piece", "green diamond"),
    (Color.GREEN, Shape.TRIANGLE): lazy_p("piece", "green triangle"),
}
"""A piece by itself, as a button or a verdict names it ("yellow square")."""

SUBJECT: dict[tuple[Color, Shape], Message] = {
    (Color.RED, Shape.CIRCLE): lazy_p("subject", "the red circle"),
    (Color.RED, Shape.SQUARE): lazy_p("subject", "the red square"),
    (Color.RED, Shape.DIAMOND): lazy_p("subject", "the red diamond"),
    (Color.RED, Shape.TRIANGLE): lazy_p("subject", "the red triangle"),
    (Color.BLUE, Shape.CIRCLE): lazy_p("subject", "the blue circle"),
    (Color.BLUE, Shape.SQUARE): lazy_p("subject", "the blue square"),
    (Color.BLUE, Shape.DIAMOND): lazy_p("subject", "the blue diamond"),
    (Color.BLUE, Shape.TRIANGLE): lazy_p("subject", "the blue triangle"),
    (Color.YELLOW, Shape.CIRCLE): lazy_p("subject", "the yellow circle"),
    (Color.YELLOW, Shape.SQUARE): lazy_p("subject", "the yellow square"),
    (Color.YELLOW, Shape.DIAMOND): lazy_p("subject", "the yellow diamond"),
    (Color.YELLOW, Shape.TRIANGLE): lazy_p("subject", "the yellow triangle"),
    (Color.GREEN, Shape.CIRCLE): lazy_p("subject", "the green circle"),
    (Color.GREEN, Shape.SQUARE): lazy_p("subject", "the green square"),
    (Color.GREEN, Shape.DIAMOND): lazy_p("subject", "the green diamond"),
    (Color.GREEN, Shape.TRIANGLE): lazy_p("subject", "the green triangle"),
}
"""A piece a question is about ("the yellow square" is touching ...)."""

OBJECT: dict[tuple[Color, Shape], Message] = {
    (Color.RED, Shape.CIRCLE): lazy_p("object", "the red circle"),
    (Color.RED, Shape.SQUARE): lazy_p("object", "the red square"),
    (Color.RED, Shape.DIAMOND): lazy_p("object", "the red diamond"),
    (Color.RED, Shape.TRIANGLE): lazy_p("object", "the red triangle"),
    (Color.BLUE, Shape.CIRCLE): lazy_p("object", "the blue circle"),
    (Color.BLUE, Shape.SQUARE): lazy_p("object", "the blue square"),
    (Color.BLUE, Shape.DIAMOND): lazy_p("object", "the blue diamond"),
    (Color.BLUE, Shape.TRIANGLE): lazy_p("object", "the blue triangle"),
    (Color.YELLOW, Shape.CIRCLE): lazy_p("object", "the yellow circle"),
    (Color.YELLOW, Shape.SQUARE): lazy_p("object", "the yellow square"),
    (Color.YELLOW, Shape.DIAMOND): lazy_p("object", "the yellow diamond"),
    (Color.YELLOW, Shape.TRIANGLE): lazy_p("object", "the yellow triangle"),
    (Color.GREEN, Shape.CIRCLE): lazy_p("object", "the green circle"),
    (Color.GREEN, Shape.SQUARE): lazy_p("object", "the green square"),
    (Color.GREEN, Shape.DIAMOND): lazy_p("object", "the green diamond"),
    (Color.GREEN, Shape.TRIANGLE): lazy_p("object", "the green triangle"),
}
"""A piece something touches ("it touches the yellow square")."""

LIT_UP: dict[tuple[Color, Shape], Message] = {
    (Color.RED, Shape.CIRCLE): lazy_p("lit-up object", "the lit-up red circle"),
    (Color.RED, Shape.SQUARE): lazy_p("lit-up object", "the lit-up red square"),
    (Color.RED, Shape.DIAMOND): lazy_p("lit-up object", "the lit-up red diamond"),
    (Color.RED, Shape.TRIANGLE): lazy_p("lit-up object", "the lit-up red triangle"),
    (Color.BLUE, Shape.CIRCLE): lazy_p("lit-up object", "the lit-up blue circle"),
    (Color.BLUE, Shape.SQUARE): lazy_p("lit-up object", "the lit-up blue square"),
    (Color.BLUE, Shape.DIAMOND): lazy_p("lit-up object", "the lit-up blue diamond"),
    (Color.BLUE, Shape.TRIANGLE): lazy_p("lit-up object", "the lit-up blue triangle"),
    (Color.YELLOW, Shape.CIRCLE): lazy_p("lit-up object", "the lit-up yellow circle"),
    (Color.YELLOW, Shape.SQUARE): lazy_p("lit-up object", "the lit-up yellow square"),
    (Color.YELLOW, Shape.DIAMOND): lazy_p("lit-up object", "the lit-up yellow diamond"),
    (Color.YELLOW, Shape.TRIANGLE): lazy_p("lit-up object", "the lit-up yellow triangle"),
    (Color.GREEN, Shape.CIRCLE): lazy_p("lit-up object", "the lit-up green circle"),
    (Color.GREEN, Shape.SQUARE): lazy_p("lit-up object", "the lit-up green square"),
    (Color.GREEN, Shape.DIAMOND): lazy_p("lit-up object", "the lit-up green diamond"),
    (Color.GREEN, Shape.TRIANGLE): lazy_p("lit-up object", "the lit-up green triangle"),
}
"""A piece lit up on the board, that a question asks about ("touching the lit-up ...")."""

EDGE: dict[tuple[str, Side], Message] = {
    ("red", Side.LEFT): lazy_p("object", "the red edge on the left"),
    ("red", Side.BOTTOM): lazy_p("object", "the red edge at the bottom"),
    ("red", Side.RIGHT): lazy_p("object", "the red edge on the right"),
    ("blue", Side.LEFT): lazy_p("object", "the blue edge on the left"),
    ("blue", Side.BOTTOM): lazy_p("object", "the blue edge at the bottom"),
    ("blue", Side.RIGHT): lazy_p("object", "the blue edge on the right"),
    ("yellow", Side.LEFT): lazy_p("object", "the yellow edge on the left"),
    ("yellow", Side.BOTTOM): lazy_p("object", "the yellow edge at the bottom"),
    ("yellow", Side.RIGHT): lazy_p("object", "the yellow edge on the right"),
    ("green", Side.LEFT): lazy_p("object", "the green edge on the left"),
    ("green", Side.BOTTOM): lazy_p("object", "the green edge at the bottom"),
    ("green", Side.RIGHT): lazy_p("object", "the green edge on the right"),
    ("circle", Side.LEFT): lazy_p("object", "the circle edge on the left"),
    ("circle", Side.BOTTOM): lazy_p("object", "the circle edge at the bottom"),
    ("circle", Side.RIGHT): lazy_p("object", "the circle edge on the right"),
    ("square", Side.LEFT): lazy_p("object", "the square edge on the left"),
    ("square", Side.BOTTOM): lazy_p("object", "the square edge at the bottom"),
    ("square", Side.RIGHT): lazy_p("object", "the square edge on the right"),
    ("diamond", Side.LEFT): lazy_p("object", "the diamond edge on the left"),
    ("diamond", Side.BOTTOM): lazy_p("object", "the diamond edge at the bottom"),
    ("diamond", Side.RIGHT): lazy_p("object", "the diamond edge on the right"),
    ("triangle", Side.LEFT): lazy_p("object", "the triangle edge on the left"),
    ("triangle", Side.BOTTOM): lazy_p("object", "the triangle edge at the bottom"),
    ("triangle", Side.RIGHT): lazy_p("object", "the triangle edge on the right"),
}
"""An edge segment something touches, by its symbol and side ("the yellow edge on the left")."""


def _touched(thing: Piece | EdgeContact) -> Message:
    if isinstance(thing, EdgeContact):
        return EDGE[thing.symbol, thing.side]
    return OBJECT[thing.color, thing.shape]


def _same(rules: set[str], thing: Piece | EdgeContact) -> Message:
    name = _touched(thing)
    if rules == {"colour", "shape"}:
        return lazy("{thing} (same shape and colour)", thing=name)
    if rules == {"colour"}:
        return lazy("{thing} (same colour)", thing=name)
    return lazy("{thing} (same shape)", thing=name)


def _why(rule: Rule, culprit: Piece | EdgeContact) -> str:
    if isinstance(culprit, EdgeContact):
        return "colour" if culprit.symbol in Color.__members__.values() else "shape"
    return "colour" if rule is Rule.COLOR else "shape"


def explain(verdict: Verdict) -> Message:
    """The verdict in words a player understands (:meth:`Verdict.explain`, translatable)."""
    piece = PIECE[verdict.dropped.color, verdict.dropped.shape]
    if not verdict.valid:
        why: dict[Piece | EdgeContact, set[str]] = {}
        for rule in verdict.broken:
            for culprit in verdict.offenders[rule]:
                why.setdefault(culprit, set()).add(_why(rule, culprit))
        contacts = Listed(tuple(_same(rules, thing) for thing, rules in why.items()))
        high = Rule.HEIGHT in verdict.offenders
        if contacts.items and high:
            return lazy(
                "{piece}: 0 points — it touches {contacts}, and it sticks out above the top",
                piece=piece,
                contacts=contacts,
            )
        if contacts.items:
            return lazy("{piece}: 0 points — it touches {contacts}", piece=piece, contacts=contacts)
        return lazy("{piece}: 0 points — it sticks out above the top", piece=piece)
    scored = Listed(
        (
            lazy("level {level}", level=verdict.level),
            *(lazy("+{points} bonus circle", points=c.points) for c in verdict.bonus_circles),
        )
    )
    points = lazy_n("{count} point", "{count} points", verdict.points)
    touched = Listed(tuple(_touched(t) for t in verdict.contacts))
    if touched.items:
        return lazy(
            "{piece}: {points} — {scored}; it touches {touched}; no rule broken",
            piece=piece,
            points=points,
            scored=scored,
            touched=touched,
        )
    return lazy(
        "{piece}: {points} — {scored}; no rule broken", piece=piece, points=points, scored=scored
    )


def drop_points(piece: Piece, points: int) -> Message:
    """A drop's points when its full verdict is not at hand ("blue square: 3 points")."""
    return lazy(
        "{piece}: {points}",
        piece=PIECE[piece.color, piece.shape],
        points=lazy_n("{count} point", "{count} points", points),
    )


def with_joker(explanation: Message, points: int) -> Message:
    """A verdict the player spent a joker on, and what the drop scores with it."""
    return lazy("{verdict} — joker spent: scores {points}", verdict=explanation, points=points)
