"""Drop It's view: everything the scoreboard page shows, built from the game (pure).

A :class:`DropItView` is made from the :class:`~firmware_host.config.board.Board`, a Drop It
:class:`~firmware_host.games.dropit.state.GameState`, the pieces' believed poses, the last
:class:`~firmware_host.games.dropit.rules.landing.Verdict` and what the table is waiting for
(a question to the players, a joker offer, the selected shape). :meth:`DropItView.to_json`
gives the documented JSON form (``docs/web.md``); :mod:`firmware_host.games.dropit.svg`
draws its board.

>>> from firmware_host.config.board import load_board
>>> from firmware_host.games.dropit.events import GameStarted
>>> from firmware_host.games.dropit.lineup import Competitor, Variants
>>> from firmware_host.games.dropit.state import replay
>>> from firmware_host.games.dropit.rules.pieces import Color
>>> state = replay([GameStarted((Competitor("Ann", ("Ann",), (Color.RED, Color.BLUE)),
...     Competitor("Ben", ("Ben",), (Color.YELLOW, Color.GREEN))), False, Variants())])
>>> view = DropItView(load_board(), state, game_id="g1")
>>> view.to_json()["game"]["turn"]
{'number': 1, 'player': 'Ann', 'for': 'Ann'}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from firmware_host.config.board import Board, BonusCircle
from firmware_host.games.dropit.ask import Mark
from firmware_host.games.dropit.rules.landing import EdgeContact, Verdict
from firmware_host.games.dropit.rules.pieces import Color, Piece, Pose, Shape
from firmware_host.games.dropit.state import Drop, GameState, Standing
from firmware_host.games.dropit.words import drop_points, explain, with_joker
from firmware_host.i18n import Say, Text, lazy


@dataclass(frozen=True, slots=True)
class Question:
    """A yes/no question the referee asks ``player`` (``id`` tells answers apart);
    ``ghost`` is the piece asked about where the referee believes it rests, ``mark`` what
    the question lights up on the board (:mod:`firmware_host.games.dropit.ask`); ``choices``, when
    there are any, are the shapes to pick from instead of yes or no ("which piece fell?")."""

    id: str
    text: Text
    player: str
    ghost: Piece | None = None
    mark: Mark | None = None
    choices: tuple[tuple[Color, Shape], ...] = ()

    def to_json(self, say: Say = str) -> dict[str, Any]:
        """``{"id", "text", "player", "ghost", "mark", "choices"}`` (``choices``: ``[{"color",
        "shape"}, ...]``, empty for a yes/no question); ``say`` says the words (English
        by default)."""
        ghost = self.ghost
        return {
            "id": self.id,
            "text": say(self.text),
            "player": self.player,
            "ghost": None
            if ghost is None
            else {
                "color": str(ghost.color),
                "shape": str(ghost.shape),
                "x": ghost.pose.x,
                "y": ghost.pose.y,
                "angle": ghost.pose.angle,
            },
            "mark": None if self.mark is None else self.mark.to_json(),
            "choices": [{"color": str(c), "shape": str(s)} for c, s in self.choices],
        }


@dataclass(frozen=True, slots=True)
class Selection:
    """The shape ``player`` has chosen to drop next."""

    player: str
    color: Color
    shape: Shape

    def to_json(self) -> dict[str, Any]:
        """``{"player", "color", "shape"}``."""
        return {"player": self.player, "color": str(self.color), "shape": str(self.shape)}


@dataclass(frozen=True)
class DropItView:
    """What the page shows at one moment; immutable, so it can be handed to every client.

    ``verdict`` is the full verdict of the latest drop (it names the offending contacts);
    ``poses`` overrides where pieces are believed to rest (by id; default: the game's
    poses); ``joker_offer`` is True while the latest drop's player may still spend a joker.
    """

    board: Board
    state: GameState
    game_id: str
    verdict: Verdict | None = None
    poses: Mapping[str, Pose] = field(default_factory=dict)
    question: Question | None = None
    selection: Selection | None = None
    joker_offer: bool = False
    status: Text = ""
    camera: Text = ""
    """What keeps the table's camera out ("" while it sees, or on a table without one)."""

    @property
    def current_player(self) -> str | None:
        """Who drops now (None once the game is over)."""
        turn = self.state.current
        return None if turn is None else turn.player

    @property
    def current_standing(self) -> Standing | None:
        """The standing of the player or team whose turn it is."""
        turn = self.state.current
        return None if turn is None else self.state.standing(turn.competitor.name)

    @property
    def last_drop(self) -> Drop | None:
        """The latest drop, if any."""
        return self.state.drops[-1] if self.state.drops else None

    @property
    def joker_players(self) -> tuple[str, ...]:
        """The players who may spend the offered joker (the dropping team's members)."""
        drop = self.last_drop
        if not self.joker_offer or drop is None:
            return ()
        return self.state.standing(drop.competitor).competitor.members

    @property
    def players(self) -> tuple[str, ...]:
        """Every player (team members for a team game), in turn order: the seats."""
        return tuple(m for c in self.state.started.competitors for m in c.members)

    @property
    def pieces(self) -> tuple[Piece, ...]:
        """The pieces on the board at their believed poses."""
        return tuple(
            replace(p, pose=self.poses[p.id]) if p.id in self.poses else p for p in self.state.board
        )

    @property
    def offending_pieces(self) -> frozenset[str]:
        """Ids of the pieces whose contact broke a rule in the latest verdict."""
        if self.verdict is None:
            return frozenset()
        return frozenset(
            c.id for found in self.verdict.offenders.values() for c in found if isinstance(c, Piece)
        )

    @property
    def offending_edges(self) -> frozenset[EdgeContact]:
        """The edge segments whose contact broke the edge rule in the latest verdict."""
        if self.verdict is None:
            return frozenset()
        return frozenset(self.verdict.offending_edges)

    @property
    def scored_circles(self) -> tuple[BonusCircle, ...]:
        """The bonus circles the latest dropped shape covers."""
        return () if self.verdict is None else self.verdict.bonus_circles

    def to_json(self, say: Say = str) -> dict[str, Any]:
        """The documented JSON form of the view (``docs/web.md``); ``say`` says its words
        (the status, the last drop's explanation, the question) in the reader's language
        (:meth:`firmware_host.i18n.Translator.say`; English by default)."""
        state = self.state
        started = state.started
        turn = state.current
        dropped = self.last_drop.piece.id if self.last_drop else None
        offenders = self.offending_pieces
        return {
            "game": {
                "id": self.game_id,
                "status": say(self.status),
                "camera": say(self.camera),
                "over": state.over,
                "turn": None
                if turn is None
                else {"number": turn.number, "player": turn.player, "for": turn.competitor.name},
                "shapes_left": state.shapes_left,
                "winners": list(state.winners()),
                "teams": started.teams,
                "edges": str(started.variants.edges),
                "jokers": started.variants.jokers,
            },
            "board": {
                "name": self.board.name,
                "width": self.board.width,
                "height": self.board.height,
            },
            "competitors": [
                _competitor_json(
                    standing,
                    score.to_json(),
                    turn is not None and turn.competitor == standing.competitor,
                )
                for standing, score in zip(state.standings, state.scores(), strict=True)
            ],
            "pieces": [
                {
                    "id": p.id,
                    "color": str(p.color),
                    "shape": str(p.shape),
                    "x": p.pose.x,
                    "y": p.pose.y,
                    "angle": p.pose.angle,
                    "dropped": p.id == dropped,
                    "offender": p.id in offenders,
                }
                for p in self.pieces
            ],
            "last_drop": self._last_drop_json(say),
            "question": None if self.question is None else self.question.to_json(say),
            "joker_offer": self._joker_json(),
            "selection": None if self.selection is None else self.selection.to_json(),
            "results": self.results() if state.over and not self.joker_offer else None,
        }

    def staff_json(self, say: Say = str) -> dict[str, Any]:
        """What the staff view shows of this game and offers for the next (``docs/web.md``):
        the game's id, its state in one line (said by ``say``), the staff actions it takes,
        the set-up form's fields and this game's set-up to fill them with."""
        state = self.state
        started = state.started
        turn = state.current
        line: Text
        if state.over:
            line = lazy("Game {game} is over.", game=self.game_id)
        elif turn is None:
            line = lazy("Game {game}: {status}", game=self.game_id, status=self.status)
        else:
            line = lazy(
                "Game {game}, turn {turn}: {status}",
                game=self.game_id,
                turn=turn.number,
                status=self.status,
            )
        competitors = [
            {"name": c.name, "colors": [str(color) for color in c.colors]}
            for c in started.competitors
        ]
        teams = [
            {**named, "members": list(c.members)}
            for named, c in zip(competitors, started.competitors, strict=True)
        ]
        variants = started.variants
        return {
            "game": self.game_id,
            "status": say(line),
            "ops": ["abort", "resync", "new"],
            "fields": ["players", "colours", "teams", "edges", "jokers"],
            "setup": {
                "players": [] if started.teams else competitors,
                "teams": teams if started.teams else None,
                "settings": {"edges": str(variants.edges), "jokers": variants.jokers},
            },
        }

    def results(self) -> list[dict[str, Any]]:
        """The ranking once the game is over, best first (ties share a rank): each
        competitor's total and how it was made (``levels`` and ``bonus`` of the drops that
        scored, ``jokers_spent``, ``unused_joker_points``, ``drops``, ``scoring_drops``)."""
        made: dict[str, dict[str, int]] = {
            s.competitor.name: {
                "levels": 0,
                "bonus": 0,
                "jokers_spent": 0,
                "drops": 0,
                "scoring_drops": 0,
            }
            for s in self.state.standings
        }
        for drop in self.state.drops:
            tally = made[drop.competitor]
            tally["drops"] += 1
            tally["jokers_spent"] += drop.joker
            if drop.points:
                tally["scoring_drops"] += 1
                tally["levels"] += drop.ruling.level
                tally["bonus"] += drop.ruling.bonus
        scores = sorted(self.state.scores(), key=lambda score: -score.total)
        ranked: list[dict[str, Any]] = []
        for place, score in enumerate(scores, start=1):
            rank = ranked[-1]["rank"] if ranked and ranked[-1]["total"] == score.total else place
            ranked.append(
                {
                    "rank": rank,
                    "name": score.name,
                    "total": score.total,
                    **made[score.name],
                    "unused_joker_points": score.unused_joker_points,
                }
            )
        return ranked

    def _last_drop_json(self, say: Say) -> dict[str, Any] | None:
        drop = self.last_drop
        if drop is None:
            return None
        piece = drop.piece
        verdict = None
        explanation = drop_points(piece, drop.points)
        if self.verdict is not None:
            verdict = {
                **self.verdict.to_json(),
                "offenders": {
                    str(rule): [_offender_json(c) for c in found]
                    for rule, found in self.verdict.offenders.items()
                },
            }
            explanation = explain(self.verdict)
        if drop.joker:
            explanation = with_joker(explanation, drop.points)
        return {
            "turn": drop.turn,
            "by": drop.player,
            "for": drop.competitor,
            "piece": {"id": piece.id, "color": str(piece.color), "shape": str(piece.shape)},
            "verdict": verdict,
            "joker": drop.joker,
            "points": drop.points,
            "explanation": say(explanation),
        }

    def _joker_json(self) -> dict[str, Any] | None:
        drop = self.last_drop
        if not self.joker_offer or drop is None:
            return None
        return {"turn": drop.turn, "for": drop.competitor, "players": list(self.joker_players)}


def _competitor_json(standing: Standing, score: dict[str, Any], current: bool) -> dict[str, Any]:
    competitor = standing.competitor
    return {
        "name": competitor.name,
        "members": list(competitor.members),
        "colors": [str(c) for c in competitor.colors],
        "current": current,
        **{k: v for k, v in score.items() if k != "name"},
        "supply": [{"color": str(c), "shape": str(s), "count": n} for c, s, n in standing.supply],
        "shapes_left": len(standing.supply),
    }


def _offender_json(culprit: Piece | EdgeContact) -> dict[str, Any]:
    if isinstance(culprit, EdgeContact):
        return {"edge": {"side": str(culprit.side), "symbol": culprit.symbol}}
    return {"piece": culprit.id}
