"""Referee a recorded game: judge every turn on the board as it lay, and count the game.

Each turn is judged with :func:`~firmware_host.games.dropit.rules.landing.check_position` and
:func:`~firmware_host.games.dropit.rules.landing.judge` on the board at that turn: every earlier
piece at its latest pose (after the turn's ``moved`` entries), plus the dropped shape.
The turn becomes events (:class:`PiecesMoved`, :class:`ShapeDropped`, :class:`JokerSpent`)
applied to a :class:`GameState`, so the offline referee counts exactly as a live game does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from firmware_host.config.board import Board
from firmware_host.errors import IllegalMove, InputError
from firmware_host.games.dropit.events import (
    Event,
    JokerSpent,
    PiecesMoved,
    Ruling,
    ShapeDropped,
)
from firmware_host.games.dropit.gamefile import GameRecord, RecordedTurn, piece_id
from firmware_host.games.dropit.rules.landing import Verdict, check_position, judge
from firmware_host.games.dropit.rules.pieces import Piece
from firmware_host.games.dropit.state import Drop, GameState


@dataclass(frozen=True)
class RefereedTurn:
    """A turn as refereed: the drop as counted, the full verdict, the pieces it moved."""

    drop: Drop
    verdict: Verdict
    recorded: RecordedTurn

    def to_json(self) -> dict[str, Any]:
        """One entry of ``turns`` in ``tabletop referee --json``."""
        piece = self.drop.piece
        return {
            "turn": self.drop.turn,
            "by": self.drop.player,
            "for": self.drop.competitor,
            "piece": {
                "id": piece.id,
                "color": str(piece.color),
                "shape": str(piece.shape),
                "x": piece.pose.x,
                "y": piece.pose.y,
                "angle": piece.pose.angle,
            },
            "moved": [
                {"id": m.id, "x": m.pose.x, "y": m.pose.y, "angle": m.pose.angle}
                for m in self.recorded.moved
            ],
            "verdict": self.verdict.to_json(),
            "joker": self.drop.joker,
            "points": self.drop.points,
        }

    def describe(self) -> str:
        """The turn in plain words."""
        who = self.drop.player
        if who != self.drop.competitor:
            who += f" ({self.drop.competitor})"
        moved = ""
        if self.recorded.moved:
            moved = f" [moved: {', '.join(m.id for m in self.recorded.moved)}]"
        joker = f"; joker spent: scores {self.drop.points}" if self.drop.joker else ""
        return f"Turn {self.drop.turn}, {who}: {self.verdict.explain()}{joker}{moved}"


@dataclass(frozen=True)
class RefereeReport:
    """A refereed game: every turn, the events it made, and the final state."""

    turns: tuple[RefereedTurn, ...]
    events: tuple[Event, ...]
    state: GameState

    def to_json(self) -> dict[str, Any]:
        """The documented JSON form of ``tabletop referee --json`` (docs/game-file.md)."""
        started = self.state.started
        return {
            "setup": {
                "teams": started.teams,
                "edges": str(started.variants.edges),
                "jokers": started.variants.jokers,
                "competitors": [
                    {
                        "name": c.name,
                        "members": list(c.members),
                        "colors": [str(color) for color in c.colors],
                    }
                    for c in started.competitors
                ],
            },
            "turns": [turn.to_json() for turn in self.turns],
            "standings": [score.to_json() for score in self.state.scores()],
            "over": self.state.over,
            "shapes_left": self.state.shapes_left,
            "winners": list(self.state.winners()),
        }

    def describe(self) -> str:
        """The game in plain words: set-up, each turn, the standings, the winners."""
        started = self.state.started
        kind = "teams" if started.teams else "players"
        who = "; ".join(
            f"{c.name} ({', '.join(c.colors)}"
            + (f": {', '.join(c.members)})" if started.teams else ")")
            for c in started.competitors
        )
        lines = [
            f"{len(started.competitors)} {kind}: {who}",
            f"Variants: edges {started.variants.edges}, "
            f"jokers {'on' if started.variants.jokers else 'off'}",
        ]
        lines += [turn.describe() for turn in self.turns]
        state = self.state
        if state.over:
            lines.append(f"Game over after {len(state.drops)} turns.")
        else:
            lines.append(
                f"After {len(state.drops)} turns (not over: {state.shapes_left} shapes to drop):"
            )
        for score in state.scores():
            parts = [f"{score.scored} scored ({score.track.describe()})"]
            if started.variants.jokers:
                parts.append(
                    f"{score.jokers_left} unused joker(s) = {score.unused_joker_points} points"
                    if state.over
                    else f"{score.jokers_left} joker(s) left"
                )
            lines.append(f"  {score.name}: {score.total} points — {'; '.join(parts)}")
        if state.over:
            lines.append(
                f"Winner{'s' if len(state.winners()) > 1 else ''}: {', '.join(state.winners())}"
            )
        return "\n".join(lines)


def referee_game(record: GameRecord, board: Board, source: str) -> RefereeReport:
    """Judge and count every turn of ``record`` on ``board``.

    Bad input (an impossible pose, an illegal move) raises InputError naming ``source``
    and the turn.
    """
    state = GameState.start(record.started)
    events: list[Event] = [record.started]
    turns: list[RefereedTurn] = []
    for turn in record.turns:
        try:
            turn_events, verdict, state = _referee_turn(state, turn, board, source)
        except IllegalMove as exc:
            raise InputError(source, f"turns[{turn.number - 1}]", str(exc)) from None
        except InputError as exc:
            raise InputError(source, turn.where, f"{exc.where}: {exc.problem}") from None
        events += turn_events
        turns.append(RefereedTurn(state.drops[-1], verdict, turn))
    return RefereeReport(tuple(turns), tuple(events), state)


def _game_name(dropped: Piece) -> Callable[[Piece], str]:
    """Name pieces as a game file does: ``piece t3``, ``the dropped shape``."""
    return lambda piece: "the dropped shape" if piece is dropped else f"piece {piece.id}"


def _referee_turn(
    state: GameState, turn: RecordedTurn, board: Board, source: str
) -> tuple[list[Event], Verdict, GameState]:
    events: list[Event] = []
    state.check_drop(turn.by, turn.color, turn.shape)
    if turn.moved:
        events.append(PiecesMoved(turn.moved))
        state = state.apply(events[-1])
    piece = Piece(piece_id(turn.number), turn.color, turn.shape, turn.pose)
    position = state.landing(piece)
    check_position(board, position, source, name=_game_name(position.dropped))
    verdict = judge(board, position)
    events.append(ShapeDropped(turn.number, turn.by, piece, Ruling.of(verdict)))
    state = state.apply(events[-1])
    if turn.joker:
        events.append(JokerSpent(turn.number))
        state = state.apply(events[-1])
    return events, verdict, state
