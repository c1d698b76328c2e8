"""Look back at journaled games of Drop It: list them, re-referee one, export it as a game file.

:func:`summaries` gives what ``tabletop games`` lists; :func:`rereferee` turns a game's
events back into a :class:`~firmware_host.games.dropit.gamefile.GameRecord` and judges
every turn again with :func:`~firmware_host.games.dropit.referee.referee_game`, from the
journaled poses on the board as it lay (so a replay is exactly what ``tabletop referee``
says of the exported game file); :func:`game_file` is that export.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from firmware_host.config.board import Board
from firmware_host.games.dropit.events import (
    Event,
    GameStarted,
    JokerSpent,
    PieceMove,
    PiecesMoved,
    Ruling,
    ShapeDropped,
)
from firmware_host.games.dropit.gamefile import GameRecord, RecordedTurn
from firmware_host.games.dropit.referee import RefereeReport, referee_game
from firmware_host.journal.dropit import KIND, load_events, load_state
from firmware_host.journal.store import Journal


def summaries(journal: Journal) -> list[dict[str, Any]]:
    """Every game of Drop It, newest first: ``{"id", "started", "finished", "turns",
    "totals"}`` (``totals``: each player's or team's total so far; see docs/journal.md)."""
    listed = []
    for game in journal.games(KIND):
        state = load_state(journal, game.id)
        listed.append(
            {
                "id": game.id,
                "started": game.started,
                "finished": game.finished is not None,
                "turns": len(state.drops),
                "totals": {score.name: score.total for score in state.scores()},
            }
        )
    return listed


def game_record(events: Sequence[Event]) -> GameRecord:
    """The game file form of a game's events: each drop with the pieces moved before it
    and whether a joker was spent on it. Moves after the last drop change no score and
    have no place in a game file; they are left out."""
    started = events[0]
    if not isinstance(started, GameStarted):
        raise ValueError("a game's events begin with its set-up")
    turns: list[RecordedTurn] = []
    moved: list[PieceMove] = []
    for event in events[1:]:
        if isinstance(event, PiecesMoved):
            moved += event.moves
        elif isinstance(event, ShapeDropped):
            piece = event.piece
            turns.append(
                RecordedTurn(
                    event.turn, event.by, piece.color, piece.shape, piece.pose, tuple(moved), False
                )
            )
            moved = []
        elif isinstance(event, JokerSpent):
            turns[-1] = replace(turns[-1], joker=True)
    return GameRecord(started, tuple(turns))


@dataclass(frozen=True)
class Replay:
    """A journaled game judged again: the referee's report and where it differs from the
    rulings journaled during play (turn number, journaled ruling, ruling now)."""

    game_id: int
    report: RefereeReport
    differences: tuple[tuple[int, Ruling, Ruling], ...]

    def to_json(self) -> dict[str, Any]:
        """The documented form of ``tabletop replay ID --json``."""
        state = self.report.state
        return {
            "id": self.game_id,
            "turns": [
                {
                    "turn": turn.drop.turn,
                    "player": turn.drop.player,
                    "dropped": {
                        "id": turn.drop.piece.id,
                        "color": str(turn.drop.piece.color),
                        "shape": str(turn.drop.piece.shape),
                        "x": turn.drop.piece.pose.x,
                        "y": turn.drop.piece.pose.y,
                        "angle": turn.drop.piece.pose.angle,
                    },
                    "verdict": turn.verdict.to_json(),
                    "joker": turn.drop.joker,
                    "points": turn.drop.points,
                }
                for turn in self.report.turns
            ],
            "totals": {score.name: score.total for score in state.scores()},
            "winners": list(state.winners()),
        }


def rereferee(journal: Journal, game_id: int, board: Board) -> Replay:
    """Judge every turn of game ``game_id`` again on ``board`` from its journaled poses."""
    events = load_events(journal, game_id)
    load_state(journal, game_id)  # a journaled event that breaks the rules is named as such
    source = f"{journal.path}: game {game_id}"
    report = referee_game(game_record(events), board, source)
    journaled = [e.ruling for e in events if isinstance(e, ShapeDropped)]
    differences = tuple(
        (turn.drop.turn, then, turn.drop.ruling)
        for turn, then in zip(report.turns, journaled, strict=True)
        if then != turn.drop.ruling
    )
    return Replay(game_id, report, differences)


def game_file(record: GameRecord) -> dict[str, Any]:
    """``record`` as the data of a game file (docs/game-file.md), ready for YAML."""
    started = record.started
    competitors = [
        {"name": c.name, "members": list(c.members), "colors": [str(x) for x in c.colors]}
        if started.teams
        else {"name": c.name, "colors": [str(x) for x in c.colors]}
        for c in started.competitors
    ]
    turns = []
    for turn in record.turns:
        entry: dict[str, Any] = {
            "by": turn.by,
            "color": str(turn.color),
            "shape": str(turn.shape),
            "x": turn.pose.x,
            "y": turn.pose.y,
            "angle": turn.pose.angle,
        }
        if turn.moved:
            entry["moved"] = [
                {"id": m.id, "x": m.pose.x, "y": m.pose.y, "angle": m.pose.angle}
                for m in turn.moved
            ]
        if turn.joker:
            entry["joker"] = True
        turns.append(entry)
    return {
        "version": 1,
        "variants": {"edges": str(started.variants.edges), "jokers": started.variants.jokers},
        "teams" if started.teams else "players": competitors,
        "turns": turns,
    }
