"""The yes/no questions the eye asks, and which one best separates its candidates.

A question is about one **feature** of the dropped piece's landing that a player can see
at a glance: does it touch a given piece, a part of an edge that shows its own symbol
(``edge:<side>``: what the edge rule turns on; a side carries several symbols), stick out
above the top, reach a level, lie on a bonus circle (``bonus:<k>``, the k-th of the
board's circles). Each
candidate landing has a yes or no for every feature (:func:`features`); the eye asks the
feature whose answer most raises the chance of then deciding right (:func:`best_question`).

>>> Question("edge:left", "Does the blue square touch the left edge?").to_json()["id"]
'edge:left'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from firmware_host.config.board import BonusCircle, Side
from firmware_host.games.dropit.rules.landing import Rule, Verdict
from firmware_host.games.dropit.rules.pieces import Color, Piece, Shape


@dataclass(frozen=True, slots=True)
class Question:
    """A yes/no question for the players; ``id`` names the feature it asks about.

    The service shows ``text`` on the page (``firmware_host.games.dropit.view.Question`` is built
    from it, adding the player asked) and maps the yes/no buttons to ``Look.answer``.
    ``dropped`` is the dropped piece at the pose the eye believes (the page draws it).
    """

    id: str
    text: str
    dropped: Piece | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"id", "text"}``."""
        return {"id": self.id, "text": self.text}


@dataclass(frozen=True, slots=True)
class PieceQuestion:
    """Which piece was dropped? Asked when the piece was neither selected nor read; the
    page shows ``options`` (the current player's shapes) and ``Look.choose`` takes one."""

    text: str
    options: tuple[tuple[Color, Shape], ...]

    def to_json(self) -> dict[str, Any]:
        """``{"text", "options": [{"color", "shape"}, ...]}``."""
        return {
            "text": self.text,
            "options": [{"color": str(c), "shape": str(s)} for c, s in self.options],
        }


def features(
    verdict: Verdict, pieces: Sequence[Piece], circles: Sequence[BonusCircle] = ()
) -> dict[str, bool]:
    """Every feature (question id) of a landing, yes or no.

    ``pieces`` are the pieces the players can ask about (the others on the board),
    ``circles`` the board's bonus circles. ``edge:<side>`` is whether the landing touches
    a segment of that side showing the dropped piece's own symbol: a segment of another
    symbol breaks no rule, and a player answering about the whole side would keep the
    wrong landing.
    """
    touching = {p.id for p in verdict.touching}
    sides = {e.side for e in verdict.offending_edges}
    found = {f"touch:{p.id}": p.id in touching for p in pieces}
    found.update({f"edge:{side}": side in sides for side in Side})
    found["height"] = Rule.HEIGHT in verdict.offenders
    found.update({f"level:{n}": verdict.level >= n for n in range(2, 8)})
    found.update({f"bonus:{k}": c in verdict.bonus_circles for k, c in enumerate(circles)})
    return found


def question_text(
    feature: str, dropped: Piece, pieces: Sequence[Piece], circles: Sequence[BonusCircle] = ()
) -> str:
    """The words for ``feature`` about ``dropped`` (``pieces`` name the touch targets,
    ``circles`` are the board's bonus circles)."""
    name = f"the {dropped.describe()}"
    kind, _, arg = feature.partition(":")
    if kind == "touch":
        other = next(p for p in pieces if p.id == arg)
        return f"Is {name} touching the {other.describe()} ({other.id})?"
    if kind == "edge":
        return f"Does {name} touch a part of the {arg} edge that shows its own symbol?"
    if kind == "height":
        return f"Does {name} stick out above the top?"
    if kind == "bonus":
        circle = circles[int(arg)]
        return (
            f"Does any part of {name} lie on the {circle.points}-point bonus circle "
            f"at x={circle.x:g}, y={circle.y:g} mm?"
        )
    return f"Does any part of {name} lie in level {arg} or higher?"


def best_question(
    weights: Sequence[float],
    verdicts: Sequence[tuple[object, ...]],
    found: Sequence[dict[str, bool]],
    asked: set[str],
) -> str | None:
    """The feature whose answer best lets the eye decide: the one maximising the expected
    weight share of the leading verdict after the answer. None when no feature splits the
    candidates (or all that do were asked)."""
    best, best_score = None, -1.0
    for feature in sorted(found[0]):
        if feature in asked:
            continue
        values = [f[feature] for f in found]
        if all(values) or not any(values):
            continue
        score = 0.0
        for side in (True, False):
            shares: dict[tuple[object, ...], float] = {}
            for w, v, key in zip(weights, values, verdicts, strict=True):
                if v is side:
                    shares[key] = shares.get(key, 0.0) + w
            score += max(shares.values(), default=0.0)
        if score > best_score + 1e-12:
            best, best_score = feature, score
    return best
