"""The state of a game of Drop It, derived from its events.

:class:`GameState` is immutable: :meth:`GameState.apply` returns the next state, or
raises :class:`~firmware_host.errors.IllegalMove` (naming the turn and the rule) and the
old state stays as it was. :func:`replay` folds a whole event sequence; the same events
always give the same state.

Rules and the choices made where the rules are silent:

* turns run clockwise through the players (teams alternate; members take their team's
  turns in order); a drop must be the current player's and use a shape still in the
  current player's or team's supply;
* points are added the moment a drop is judged and are never taken away; later moves of
  the piece change nothing;
* a joker may be spent only on the latest drop, after its verdict and before the next
  drop, only if that drop broke a rule, at most once per drop, and only while the player
  or team has one left; it scores the drop's level plus bonus as if it were valid;
* the game is over when every shape has been dropped (a joker may still be spent on the
  last drop); then each unused joker is worth 3 points, added to the total but never
  moved onto the track, so the track never goes back (see :mod:`.track`);
* the most points win; every tied player or team wins.

>>> from firmware_host.games.dropit.rules.pieces import Color
>>> from firmware_host.games.dropit.lineup import Variants
>>> start = GameStarted(
...     (Competitor("Ann", ("Ann",), (Color.RED,)), Competitor("Ben", ("Ben",), (Color.BLUE,)),
...      Competitor("Cy", ("Cy",), (Color.YELLOW,))), teams=False, variants=Variants())
>>> state = replay([start])
>>> state.current.player, len(state.standing("Ann").supply)
('Ann', 12)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from firmware_host.errors import IllegalMove
from firmware_host.games import event_log
from firmware_host.games.dropit.events import (
    Event,
    GameStarted,
    JokerSpent,
    PiecesMoved,
    Ruling,
    ShapeDropped,
)
from firmware_host.games.dropit.lineup import (
    JOKER_VALUE,
    JOKERS_EACH,
    Competitor,
    check_lineup,
    starting_supplies,
)
from firmware_host.games.dropit.rules.pieces import Color, Piece, Shape
from firmware_host.games.dropit.rules.position import Position
from firmware_host.games.dropit.supply import Supply
from firmware_host.games.dropit.track import TrackState, track_state


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's or team's position in the game: supply, jokers, points scored."""

    competitor: Competitor
    supply: Supply
    jokers_left: int
    scored: int
    turns_taken: int


@dataclass(frozen=True, slots=True)
class Turn:
    """Whose turn it is: the turn number, the player who drops, and for whom."""

    number: int
    player: str
    competitor: Competitor


@dataclass(frozen=True, slots=True)
class Drop:
    """A drop as the game counted it: who, what, the ruling, and whether a joker saved it."""

    turn: int
    player: str
    competitor: str
    piece: Piece
    ruling: Ruling
    joker: bool

    @property
    def points(self) -> int:
        """Points the drop earned (with a joker: level plus bonus though rules were broken)."""
        return self.ruling.full_points if self.joker else self.ruling.points


@dataclass(frozen=True, slots=True)
class Score:
    """A player's or team's score: on the track, in unused jokers, in total."""

    name: str
    scored: int
    track: TrackState
    jokers_left: int
    unused_joker_points: int

    @property
    def total(self) -> int:
        """Points scored plus unused-joker points (the latter only once the game is over)."""
        return self.scored + self.unused_joker_points

    def to_json(self) -> dict[str, Any]:
        """``{"name", "scored", "track", "jokers_left", "unused_joker_points", "total"}``."""
        return {
            "name": self.name,
            "scored": self.scored,
            "track": self.track.to_json(),
            "jokers_left": self.jokers_left,
            "unused_joker_points": self.unused_joker_points,
            "total": self.total,
        }


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything the events so far say: standings, the pieces on the board, the drops."""

    started: GameStarted
    standings: tuple[Standing, ...]
    board: tuple[Piece, ...]
    drops: tuple[Drop, ...]

    @classmethod
    def start(cls, event: GameStarted) -> GameState:
        """The state right after ``event``; IllegalMove if the set-up breaks the rules."""
        check_lineup(event.competitors, event.teams)
        jokers = JOKERS_EACH if event.variants.jokers else 0
        standings = tuple(
            Standing(competitor, supply, jokers, 0, 0)
            for competitor, supply in zip(
                event.competitors, starting_supplies(event.competitors), strict=True
            )
        )
        return cls(event, standings, (), ())

    @property
    def next_turn(self) -> int:
        """The number of the next drop (turns count from 1)."""
        return len(self.drops) + 1

    @property
    def over(self) -> bool:
        """True once every shape has been dropped."""
        return all(len(s.supply) == 0 for s in self.standings)

    @property
    def shapes_left(self) -> int:
        """Shapes still to drop, all players together."""
        return sum(len(s.supply) for s in self.standings)

    @property
    def current(self) -> Turn | None:
        """Whose turn it is (None once the game is over)."""
        if self.over:
            return None
        standing = self.standings[len(self.drops) % len(self.standings)]
        members = standing.competitor.members
        player = members[standing.turns_taken % len(members)]
        return Turn(self.next_turn, player, standing.competitor)

    def standing(self, name: str) -> Standing:
        """The standing of the player or team called ``name`` (KeyError if none)."""
        for standing in self.standings:
            if standing.competitor.name == name:
                return standing
        raise KeyError(name)

    def scores(self) -> tuple[Score, ...]:
        """Every player's or team's score, in turn order."""
        return tuple(
            Score(
                name=s.competitor.name,
                scored=s.scored,
                track=track_state(s.scored, s.competitor.colors),
                jokers_left=s.jokers_left,
                unused_joker_points=JOKER_VALUE * s.jokers_left if self.over else 0,
            )
            for s in self.standings
        )

    def winners(self) -> tuple[str, ...]:
        """The players or teams with the most points, all of them on a tie (none until over)."""
        if not self.over:
            return ()
        scores = self.scores()
        best = max(score.total for score in scores)
        return tuple(score.name for score in scores if score.total == best)

    def landing(self, piece: Piece) -> Position:
        """The position to judge when ``piece`` lands: every piece on the board, as it lies."""
        return Position(self.started.variants.edges, self.board, piece)

    def check_drop(self, player: str, color: Color, shape: Shape) -> Turn:
        """The turn ``player`` may drop a ``color`` ``shape`` in; IllegalMove if not allowed."""
        turn = self.current
        if turn is None:
            raise IllegalMove(
                f"turn {self.next_turn}: the game is over (every shape has been dropped)"
            )
        if player != turn.player:
            order = (
                f"team {turn.competitor.name} drops; teams alternate"
                if self.started.teams
                else "players drop in clockwise order"
            )
            raise IllegalMove(
                f"turn {turn.number}: it is {turn.player}'s turn, not {player}'s ({order})"
            )
        supply = self.standing(turn.competitor.name).supply
        if supply.count(color, shape) == 0:
            raise IllegalMove(
                f"turn {turn.number}: {turn.competitor.name} has no {color} {shape} in the "
                f"supply (a drop uses one of your own shapes; left: {supply.describe()})"
            )
        return turn

    def apply(self, event: Event) -> GameState:
        """The state after ``event``; IllegalMove (this state unchanged) if it breaks a rule."""
        if isinstance(event, ShapeDropped):
            return self._dropped(event)
        if isinstance(event, JokerSpent):
            return self._joker(event)
        if isinstance(event, PiecesMoved):
            return self._moved(event)
        raise IllegalMove(f"turn {self.next_turn}: the game has already started")

    def _dropped(self, event: ShapeDropped) -> GameState:
        piece = event.piece
        if event.turn != self.next_turn:
            raise IllegalMove(
                f"turn {event.turn}: out of sequence, the next drop is turn {self.next_turn}"
            )
        turn = self.check_drop(event.by, piece.color, piece.shape)
        if any(p.id == piece.id for p in self.board):
            raise IllegalMove(
                f"turn {turn.number}: a piece with id {piece.id!r} is already on the board"
            )
        drop = Drop(turn.number, event.by, turn.competitor.name, piece, event.ruling, False)
        standings = tuple(
            replace(
                s,
                supply=s.supply.take(piece.color, piece.shape),
                scored=s.scored + drop.points,
                turns_taken=s.turns_taken + 1,
            )
            if s.competitor.name == turn.competitor.name
            else s
            for s in self.standings
        )
        return replace(
            self, standings=standings, board=(*self.board, piece), drops=(*self.drops, drop)
        )

    def _joker(self, event: JokerSpent) -> GameState:
        where = f"turn {event.turn}"
        if not self.started.variants.jokers:
            raise IllegalMove(f"{where}: jokers are not in play (the jokers variant is off)")
        if not self.drops:
            raise IllegalMove(f"{where}: no shape has been dropped yet")
        drop = self.drops[-1]
        if event.turn != drop.turn:
            raise IllegalMove(
                f"{where}: a joker can only be spent right after the drop's verdict, "
                f"before the next turn (the latest drop is turn {drop.turn})"
            )
        if drop.joker:
            raise IllegalMove(f"{where}: a joker has already been spent on this drop")
        if drop.ruling.valid:
            raise IllegalMove(
                f"{where}: a joker can only be spent on a drop that broke a landing rule; "
                f"the {drop.piece.describe()} broke none"
            )
        standing = self.standing(drop.competitor)
        if standing.jokers_left == 0:
            raise IllegalMove(
                f"{where}: {drop.competitor} has no joker left (each joker is spent only once)"
            )
        saved = replace(drop, joker=True)
        standings = tuple(
            replace(
                s,
                jokers_left=s.jokers_left - 1,
                scored=s.scored + saved.points,
            )
            if s is standing
            else s
            for s in self.standings
        )
        return replace(self, standings=standings, drops=(*self.drops[:-1], saved))

    def _moved(self, event: PiecesMoved) -> GameState:
        poses = {}
        for move in event.moves:
            if not any(p.id == move.id for p in self.board):
                raise IllegalMove(
                    f"turn {self.next_turn}: no piece with id {move.id!r} is on the board"
                )
            if move.id in poses:
                raise IllegalMove(f"turn {self.next_turn}: piece {move.id!r} moved twice at once")
            poses[move.id] = move.pose
        board = tuple(replace(p, pose=poses.get(p.id, p.pose)) for p in self.board)
        return replace(self, board=board)


def replay(events: Iterable[Event]) -> GameState:
    """The state after ``events``, the first of which must be :class:`GameStarted`."""
    return event_log.replay(GameStarted, GameState.start, events, "Drop It")
