"""Who plays: 2, 3 or 4 players, or two teams; their colours, supplies, jokers and turn order.

Set-up rules (shared ``rules/``, Drop It), and the choices the rules leave to us:

* **four players**: one colour each (one complete set of nine shapes);
* **three players**: one colour each, plus the unused fourth colour divided among them.
  The rules show the split only in a picture, so we chose (:data:`THREE_PLAYER_SPLIT`):
  in turn order, each player gets one circle of the fourth colour and a pair of one
  shape (the first player both squares, the second both diamonds, the third both
  triangles): twelve shapes each;
* **two players or two teams**: two colours each (eighteen shapes);
* **turns**: clockwise, in the order the players are listed (list first the player who
  most recently had a birthday). Teams alternate turns, and inside a team the members
  take the team's turns in the order they are listed. Every member must get the same
  number of turns, so a team's size must divide its 18 shapes (1, 2, 3, 6 or 9 members);
  other sizes are refused at set-up rather than bent by an uneven rule;
* **jokers** (variant): two per player in a three- or four-player game, one per colour
  (so two as well) for each player or team in a two-player or team game.

Colours may be chosen; where they are not, they are dealt in :data:`DEFAULT_COLORS` order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from firmware_host.config.board import EdgeFace
from firmware_host.errors import IllegalMove
from firmware_host.games.dropit.rules.pieces import Color, Shape
from firmware_host.games.dropit.supply import SHAPES_PER_COLOR, Supply
from firmware_host.i18n import Message, lazy, lazy_n, lazy_p

COLOUR_NAMES: dict[Color, Message] = {
    Color.RED: lazy_p("colour", "red"),
    Color.BLUE: lazy_p("colour", "blue"),
    Color.YELLOW: lazy_p("colour", "yellow"),
    Color.GREEN: lazy_p("colour", "green"),
}
"""Each colour by itself, as a sentence names it ("the colour red")."""

DEFAULT_COLORS: tuple[Color, ...] = (Color.RED, Color.BLUE, Color.YELLOW, Color.GREEN)
"""The order colours are dealt in when a set-up does not choose them."""

THREE_PLAYER_SPLIT: tuple[Mapping[Shape, int], ...] = (
    {Shape.CIRCLE: 1, Shape.SQUARE: 2},
    {Shape.CIRCLE: 1, Shape.DIAMOND: 2},
    {Shape.CIRCLE: 1, Shape.TRIANGLE: 2},
)
"""The fourth colour's nine shapes in a three-player game, for the 1st, 2nd, 3rd player."""

JOKERS_EACH = 2
"""Jokers per player or team when the jokers variant is on (every set-up gives two)."""

JOKER_VALUE = 3
"""Points each unused joker is worth at the end of the game."""


@dataclass(frozen=True, slots=True)
class Variants:
    """The variant switches besides teams: which edge face counts, and jokers."""

    edges: EdgeFace = EdgeFace.COLOR
    jokers: bool = False


@dataclass(frozen=True, slots=True)
class Competitor:
    """A player, or a team, that owns a supply, jokers and one score marker.

    ``members`` names who drops for it: ``(name,)`` for a player, the team's players in
    their turn order for a team. ``colors`` are its own colours (their point tokens).
    """

    name: str
    members: tuple[str, ...]
    colors: tuple[Color, ...]


def colors_each(count: int) -> int:
    """How many colours each of ``count`` players or teams owns (2 for two, else 1)."""
    return 2 if count == 2 else 1


def deal_colors(wanted: Sequence[Sequence[Color] | None]) -> tuple[tuple[Color, ...], ...]:
    """Colours for each player or team: its chosen ones, or the next free default colours.

    Only fills gaps; :func:`check_lineup` judges whether the result is a legal set-up.

    >>> [", ".join(colors) for colors in deal_colors([None, [Color.RED], None])]
    ['blue', 'red', 'yellow']
    """
    each = colors_each(len(wanted))
    chosen = {c for colors in wanted if colors for c in colors}
    free = [c for c in DEFAULT_COLORS if c not in chosen]
    dealt = []
    for colors in wanted:
        if colors:
            dealt.append(tuple(colors))
        else:
            dealt.append(tuple(free[:each]))
            del free[:each]
    return tuple(dealt)


def check_lineup(competitors: Sequence[Competitor], teams: bool) -> None:
    """Refuse a set-up the rules do not allow (IllegalMove naming the rule)."""
    count = len(competitors)
    if teams and count != 2:
        raise IllegalMove(
            lazy("set-up: the teams variant needs exactly 2 teams, got {count}", count=count)
        )
    if not teams and not 2 <= count <= 4:
        raise IllegalMove(
            lazy("set-up: Drop It is for 2, 3 or 4 players, got {count}", count=count)
        )
    names = [c.name for c in competitors] + [m for c in competitors if teams for m in c.members]
    for name in names:
        if not name.strip():
            raise IllegalMove(lazy("set-up: every player and team needs a name"))
        if names.count(name) > 1:
            raise IllegalMove(lazy("set-up: the name {name} is used twice", name=repr(name)))
    each = colors_each(count)
    seen: set[Color] = set()
    for competitor in competitors:
        if len(competitor.colors) != each:
            owns = (
                lazy_n(
                    "set-up: {name} has {count} colour; with {teams} teams each owns {each}",
                    "set-up: {name} has {count} colours; with {teams} teams each owns {each}",
                    len(competitor.colors),
                    name=competitor.name,
                    teams=count,
                    each=each,
                )
                if teams
                else lazy_n(
                    "set-up: {name} has {count} colour; with {players} players each owns {each}",
                    "set-up: {name} has {count} colours; with {players} players each owns {each}",
                    len(competitor.colors),
                    name=competitor.name,
                    players=count,
                    each=each,
                )
            )
            raise IllegalMove(owns)
        for color in competitor.colors:
            if color in seen:
                raise IllegalMove(
                    lazy("set-up: the colour {colour} is given twice", colour=COLOUR_NAMES[color])
                )
            seen.add(color)
        if teams:
            size = len(competitor.members)
            shapes = each * SHAPES_PER_COLOR
            if size == 0 or shapes % size:
                raise IllegalMove(
                    lazy_n(
                        "set-up: team {name} has {count} member, who cannot share its {shapes} "
                        "shapes equally (every member gets the same number of turns): a team "
                        "needs 1, 2, 3, 6 or 9 members",
                        "set-up: team {name} has {count} members, who cannot share its {shapes} "
                        "shapes equally (every member gets the same number of turns): a team "
                        "needs 1, 2, 3, 6 or 9 members",
                        size,
                        name=competitor.name,
                        shapes=shapes,
                    )
                )
        elif competitor.members != (competitor.name,):
            raise IllegalMove(
                lazy("set-up: player {name} cannot have team members", name=competitor.name)
            )


def starting_supplies(competitors: Sequence[Competitor]) -> tuple[Supply, ...]:
    """Each player's or team's shapes at the start (three players share the fourth colour)."""
    supplies = [Supply.complete_sets(*c.colors) for c in competitors]
    if len(competitors) == 3:
        owned = {color for c in competitors for color in c.colors}
        (fourth,) = (color for color in Color if color not in owned)
        supplies = [
            supply + Supply.of({(fourth, shape): n for shape, n in split.items()})
            for supply, split in zip(supplies, THREE_PLAYER_SPLIT, strict=True)
        ]
    return tuple(supplies)
