"""Drop It at the table: the pure half of its binding, what the table's service asks of the game.

The service of :mod:`firmware_host.service.board_play` runs it with the sensors, the camera,
the referee, the LED tracks, the panel's buttons and the page; everything here is pure
(the game's events, state and view, no hardware): :class:`DropItTable` names the game,
starts it and sets up the next one as the staff ask; :func:`rule_drop` turns where the
referee saw the pile come to rest into the drop's events and verdict; :func:`joker_on_offer`
says when the page and the panel offer a joker.

>>> from firmware_host.config.board import EdgeFace
>>> started = DropItTable.first_event(("Ann", "Ben"), EdgeFace.COLOR, jokers=True)
>>> [c.name for c in started.competitors], started.teams
(['Ann', 'Ben'], False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from firmware_host.config.board import Board, EdgeFace
from firmware_host.errors import IllegalMove
from firmware_host.games.dropit.events import (
    Event,
    GameStarted,
    PieceMove,
    PiecesMoved,
    Ruling,
    ShapeDropped,
)
from firmware_host.games.dropit.lineup import Competitor, Variants, deal_colors
from firmware_host.games.dropit.rules.landing import Verdict, judge
from firmware_host.games.dropit.rules.pieces import Piece
from firmware_host.games.dropit.state import GameState
from firmware_host.i18n import lazy, lazy_n
from firmware_host.web.actions import Staff


class DropItTable:
    """Drop It as the registry and the service know it (see the module's docstring)."""

    KIND: ClassVar[str] = "dropit"
    """``tabletop run --game KIND`` and the journal's game kind."""

    TITLE: ClassVar[str] = "Drop It"
    """The game's printed name."""

    @staticmethod
    def first_event(players: Sequence[str], edges: EdgeFace, jokers: bool) -> GameStarted:
        """The set-up event of a new game of ``players`` (one each, colours dealt), played
        with the ``edges`` face and with or without jokers."""
        colors = deal_colors([None] * len(players))
        competitors = tuple(
            Competitor(name, (name,), dealt) for name, dealt in zip(players, colors, strict=True)
        )
        return GameStarted(competitors, False, Variants(edges, jokers))

    @staticmethod
    def set_up(started: GameStarted, action: Staff) -> GameStarted:
        """The set-up staff ask for: ``action``'s players (or teams), with the colours they
        chose or dealt ones, and its settings; what they leave unset as in ``started``."""
        variants = started.variants
        settings = action.settings
        if settings is not None:
            variants = Variants(
                settings.edges if settings.edges is not None else variants.edges,
                settings.jokers if settings.jokers is not None else variants.jokers,
            )
        if action.teams is not None:
            if action.players is not None:
                raise IllegalMove(lazy("staff: name the players or the teams, not both"))
            teams = action.teams
            dealt = deal_colors([tuple(team.colors) or None for team in teams])
            competitors = tuple(
                Competitor(team.name.strip(), tuple(m.strip() for m in team.members), colors)
                for team, colors in zip(teams, dealt, strict=True)
            )
            return GameStarted(competitors, True, variants)
        if action.players is None:
            return GameStarted(started.competitors, started.teams, variants)
        names = [name.strip() for name in action.players]
        wanted = action.colors if action.colors is not None else [[] for _ in names]
        if len(wanted) != len(names):
            raise IllegalMove(
                lazy_n(
                    "staff: {players} players but {count} list of colours",
                    "staff: {players} players but {count} lists of colours",
                    len(wanted),
                    players=len(names),
                )
            )
        dealt = deal_colors([tuple(colors) or None for colors in wanted])
        competitors = tuple(
            Competitor(name, (name,), colors) for name, colors in zip(names, dealt, strict=True)
        )
        return GameStarted(competitors, False, variants)


MOVED_MM = 0.5
"""A piece whose believed position shifts by more than this (or its angle by more than
:data:`MOVED_DEGREES`) is journaled as moved."""

MOVED_DEGREES = 1.0


@dataclass(frozen=True)
class Ruled:
    """A drop ruled: its ``events`` (the pile's shifts, if any, then the drop: one journal
    entry), the landing's ``verdict`` and how many pieces of the pile ``moved``."""

    events: tuple[Event, ...]
    verdict: Verdict
    moved: int


def rule_drop(state: GameState, board: Board, pieces: Sequence[Piece]) -> Ruled:
    """The current turn's drop where the referee saw the pile come to rest: ``pieces`` are
    the board's pieces at their poses, the dropped one last; those that moved are
    journaled as moved, and the dropped one is judged on the board as they lie. Raises
    :class:`~firmware_host.errors.IllegalMove` or :class:`~firmware_host.errors.InputError`
    when the rules cannot take it (the state is unchanged)."""
    turn = state.current
    if turn is None:
        raise IllegalMove(lazy("the game is over"))
    before = {p.id: p for p in state.board}
    moves = tuple(
        PieceMove(p.id, p.pose) for p in pieces[:-1] if p.id in before and _moved(before[p.id], p)
    )
    dropped = pieces[-1]
    shifts = (PiecesMoved(moves),) if moves else ()
    position_state = state.apply(shifts[0]) if shifts else state
    verdict = judge(board, position_state.landing(dropped))
    drop = ShapeDropped(turn.number, turn.player, dropped, Ruling.of(verdict))
    return Ruled((*shifts, drop), verdict, len(moves))


def joker_on_offer(state: GameState) -> bool:
    """True when the latest drop broke a rule and its player or team may still spend a
    joker on it (the game is played with jokers, and they have one left)."""
    if not state.drops or not state.started.variants.jokers:
        return False
    drop = state.drops[-1]
    return (
        not drop.ruling.valid and not drop.joker and state.standing(drop.competitor).jokers_left > 0
    )


def _moved(before: Piece, after: Piece) -> bool:
    a, b = before.pose, after.pose
    turned = abs((a.angle - b.angle + 180.0) % 360.0 - 180.0)
    return ((a.x - b.x) ** 2 + (a.y - b.y) ** 2) ** 0.5 > MOVED_MM or turned > MOVED_DEGREES
