"""The game file ``tabletop referee`` reads: a recorded game of Drop It, turn by turn.

Format (YAML; units mm and degrees, frame as in :mod:`firmware_host.games.dropit.rules.pieces`; the
full description with an example is in ``docs/game-file.md``)::

    version: 1
    variants: {edges: color, jokers: false}    # edges: color | shape | none
    players:                                   # 2-4, in clockwise turn order
      - {name: Ann, colors: [red]}             # colors optional (dealt red, blue, ...)
      - {name: Ben}
    # or, for the teams variant, instead of players:
    # teams:
    #   - {name: Owls, members: [Ann, Ben], colors: [red, blue]}
    #   - {name: Foxes, members: [Cy, Di]}
    turns:                                     # one entry per drop, in order
      - {by: Ann, color: red, shape: square, x: 21.0, y: 17.0, angle: 0}
      - by: Ben
        color: blue
        shape: circle
        x: 63.0
        y: 18.0
        moved: [{id: t1, x: 22.5, y: 17.0, angle: 4}]   # pieces knocked by this drop
        joker: false                                    # spend a joker on this drop

The shape dropped in turn ``n`` gets the id ``t<n>`` (``t1``, ``t2``...), which later
turns use in ``moved``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, ValidationError, model_validator

from firmware_host.config.board import EdgeFace
from firmware_host.config.loader import (
    Degrees,
    Millimetres,
    StrictModel,
    load_yaml,
    validation_error,
)
from firmware_host.errors import IllegalMove, InputError
from firmware_host.games.dropit.events import GameStarted, PieceMove
from firmware_host.games.dropit.lineup import Competitor, Variants, check_lineup, deal_colors
from firmware_host.games.dropit.rules.pieces import Color, Pose, Shape

Name = Annotated[str, Field(min_length=1)]


def piece_id(turn: int) -> str:
    """The id of the shape dropped in ``turn``: ``t<turn>``."""
    return f"t{turn}"


class _Posed(StrictModel):
    x: Millimetres
    y: Millimetres
    angle: Degrees = 0.0

    @property
    def pose(self) -> Pose:
        """The pose this entry gives."""
        return Pose(self.x, self.y, self.angle)


class MoveEntry(_Posed):
    """A piece already on the board (id ``t<turn>``) that now rests elsewhere."""

    id: Name


class TurnEntry(_Posed):
    """One drop: who, which shape, where it came to rest, what it moved, joker or not."""

    by: Name
    color: Color = Field(strict=False)
    shape: Shape = Field(strict=False)
    moved: list[MoveEntry] = Field(default_factory=list)
    joker: bool = False


class PlayerEntry(StrictModel):
    """A player: name and, optionally, colours (one each; two each in a two-player game)."""

    name: Name
    colors: list[Annotated[Color, Field(strict=False)]] | None = None


class TeamEntry(PlayerEntry):
    """A team: name, members in their turn order and, optionally, its two colours."""

    members: Annotated[list[Name], Field(min_length=1)]


class VariantsEntry(StrictModel):
    """The variant switches (teams is chosen by writing ``teams`` instead of ``players``)."""

    edges: EdgeFace = Field(default=EdgeFace.COLOR, strict=False)
    jokers: bool = False


class GameFile(StrictModel):
    """The whole game file."""

    version: Literal[1]
    variants: VariantsEntry = Field(default_factory=VariantsEntry)
    players: list[PlayerEntry] | None = None
    teams: list[TeamEntry] | None = None
    turns: list[TurnEntry] = Field(default_factory=list)

    @model_validator(mode="after")
    def _players_or_teams(self) -> GameFile:
        if (self.players is None) == (self.teams is None):
            raise ValueError("give either players or teams (not both, not neither)")
        return self


@dataclass(frozen=True)
class RecordedTurn:
    """One turn of a game file, ready to referee."""

    number: int
    by: str
    color: Color
    shape: Shape
    pose: Pose
    moved: tuple[PieceMove, ...]
    joker: bool

    @property
    def where(self) -> str:
        """How the game file names this turn: ``turns[4] (turn 5)``."""
        return f"turns[{self.number - 1}] (turn {self.number})"


@dataclass(frozen=True)
class GameRecord:
    """A recorded game: its set-up event and its turns."""

    started: GameStarted
    turns: tuple[RecordedTurn, ...]


_TURN_INDEX = re.compile(r"^turns\[(\d+)\]")


def parse_game(data: Any, source: str) -> GameRecord:
    """Check parsed YAML ``data`` (from ``source``) and return the :class:`GameRecord`."""
    if not isinstance(data, dict):
        raise InputError(source, "(top level)", "expected a mapping with version, players, turns")
    try:
        parsed = GameFile.model_validate(data)
    except ValidationError as exc:
        error = validation_error(source, exc)
        where = _TURN_INDEX.sub(lambda m: f"{m[0]} (turn {int(m[1]) + 1})", error.where)
        raise InputError(source, where, error.problem) from None
    teams = parsed.teams is not None
    entries: list[PlayerEntry] = list(parsed.teams or parsed.players or [])
    dealt = deal_colors([entry.colors for entry in entries])
    competitors = tuple(
        Competitor(
            entry.name,
            tuple(entry.members) if isinstance(entry, TeamEntry) else (entry.name,),
            colors,
        )
        for entry, colors in zip(entries, dealt, strict=True)
    )
    try:
        check_lineup(competitors, teams)
    except IllegalMove as exc:
        raise InputError(source, "teams" if teams else "players", str(exc)) from None
    started = GameStarted(
        competitors, teams, Variants(parsed.variants.edges, parsed.variants.jokers)
    )
    turns = tuple(
        RecordedTurn(
            number=i + 1,
            by=entry.by,
            color=entry.color,
            shape=entry.shape,
            pose=entry.pose,
            moved=tuple(PieceMove(m.id, m.pose) for m in entry.moved),
            joker=entry.joker,
        )
        for i, entry in enumerate(parsed.turns)
    )
    return GameRecord(started, turns)


def load_game(path: Path | str) -> GameRecord:
    """Read and check a game file."""
    return parse_game(load_yaml(path), str(path))
