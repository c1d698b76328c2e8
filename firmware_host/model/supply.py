"""Random drops from a four-player supply: what ``tabletop simulate`` plays.

A game uses the whole supply of four players, 36 shapes: each colour has 3 circles,
2 squares, 2 diamonds and 2 triangles. The order is fixed: the players take turns in
colour order red, blue, yellow, green, and each drops its shapes in the order circle,
square, diamond, triangle, circle, square, diamond, triangle, circle. So drop ``k``
(from 0) of a game is ``COLORS[k % 4]`` ``SHAPES[k // 4]``.

Each drop's angle (uniform in [0, 360) degrees) and then x (uniform over the positions
where the turned piece fits between the walls) come from ``random.Random(seed)``, in that
order. The piece is let go at rest, its lowest point :data:`RELEASE_GAP_MM` above the top
edge or above the highest piece, whichever is higher (a player drops from above the pile).
After 36 drops the board is emptied and a new game starts.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from dataclasses import dataclass

from firmware_host.config.board import Board
from firmware_host.games.dropit.rules.pieces import Color, Piece, Shape
from firmware_host.model.params import PhysicsParams
from firmware_host.model.space import reach
from firmware_host.model.world import Drop, DropResult, World

COLORS = (Color.RED, Color.BLUE, Color.YELLOW, Color.GREEN)
"""The players' colours, in turn order."""

SHAPES = (
    Shape.CIRCLE,
    Shape.SQUARE,
    Shape.DIAMOND,
    Shape.TRIANGLE,
    Shape.CIRCLE,
    Shape.SQUARE,
    Shape.DIAMOND,
    Shape.TRIANGLE,
    Shape.CIRCLE,
)
"""Each player's shapes, in the order dropped."""

GAME_DROPS = len(COLORS) * len(SHAPES)
"""Drops in one game (36): then the board is emptied."""

RELEASE_GAP_MM = 10.0
"""How far above the top edge (or the highest piece) a piece's lowest point is let go."""


def supply_piece(k: int) -> tuple[Color, Shape]:
    """The colour and shape of drop ``k`` (from 0) of a game.

    >>> [f"{color} {shape}" for color, shape in map(supply_piece, (0, 5, 35))]
    ['red circle', 'blue square', 'green circle']
    """
    k %= GAME_DROPS
    return COLORS[k % len(COLORS)], SHAPES[k // len(COLORS)]


def random_drop(world: World, color: Color, shape: Shape, rng: random.Random) -> Drop:
    """A drop of ``color`` ``shape`` into ``world`` at a random angle and x, from above all."""
    angle = rng.uniform(0.0, 360.0)
    left, bottom, right, _ = reach(world.board, shape, math.radians(angle))
    x = rng.uniform(-left, world.board.width - right)
    y = max(world.board.height, world.top()) + RELEASE_GAP_MM - bottom
    return Drop(color, shape, x, y, angle)


@dataclass(frozen=True)
class SimulatedDrop:
    """One drop of :func:`play`: the drop, its result and every piece after it settled."""

    number: int
    game: int
    drop: Drop
    result: DropResult
    pieces: tuple[Piece, ...]


def play(board: Board, params: PhysicsParams, drops: int, seed: int) -> Iterator[SimulatedDrop]:
    """Drop ``drops`` pieces from the supply (a new board each game), reproducibly from ``seed``.

    Piece ids are ``p<n>``, n counting every drop from 1.
    """
    rng = random.Random(seed)
    world = World(board, params)
    for number in range(1, drops + 1):
        k = (number - 1) % GAME_DROPS
        if k == 0:
            world = World(board, params)
        drop = random_drop(world, *supply_piece(k), rng)
        result = world.drop(drop, f"p{number}")
        yield SimulatedDrop(number, (number - 1) // GAME_DROPS + 1, drop, result, world.pieces)
