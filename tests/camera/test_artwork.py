"""The printed art's map answers exactly what measuring every line and circle does."""

import numpy as np

from firmware_host.camera.artwork import (
    CELL_MM,
    CLEARANCE_MM,
    INK_REACH_MM,
    Artwork,
    distance_to,
)
from firmware_host.config.board import load_board


def test_near_agrees_with_the_distance_to_every_line_and_circle() -> None:
    board = load_board()
    art = Artwork(board)
    rng = np.random.default_rng(7)
    points = rng.uniform((-70.0, -70.0), (board.width + 70, board.height + 70), (100_000, 2))
    measured = distance_to(points, art._starts, art._ends, art._circles)
    assert np.array_equal(art.near(points), measured < CLEARANCE_MM)
    assert 0 < art.near(points).sum() < len(points)
    inked = art.inked(points, points[:, None, :], 0.0)[:, 0]
    cell = CELL_MM * np.sqrt(0.5)
    assert inked[measured < INK_REACH_MM - cell].all()
    assert not inked[measured > INK_REACH_MM + cell].any()
    assert 0 < inked.sum() < art.near(points).sum()


def test_tinted_is_inside_a_bonus_circle() -> None:
    board = load_board()
    art = Artwork(board)
    rng = np.random.default_rng(8)
    points = rng.uniform((0.0, 0.0), (board.width, board.height), (20_000, 2))
    inside = np.zeros(len(points), bool)
    for c in board.bonus_circles:
        inside |= np.hypot(points[:, 0] - c.x, points[:, 1] - c.y) < c.radius
    ring = distance_to(points, art._starts[:0], art._ends[:0], art._circles)
    clear = ring > CELL_MM * np.sqrt(0.5)
    assert np.array_equal(art.tinted(points)[clear], inside[clear])
    assert 0 < inside.sum() < len(points)


def test_distance_to_segments_and_rings() -> None:
    starts, ends = np.array([[0.0, 0.0]]), np.array([[10.0, 0.0]])
    circles = np.array([[50.0, 0.0, 5.0]])
    points = np.array([[5.0, 3.0], [-4.0, 3.0], [50.0, 1.0], [100.0, 0.0]])
    assert np.allclose(distance_to(points, starts, ends, circles), [3.0, 5.0, 4.0, 45.0])
    assert np.isinf(distance_to(points, starts[:0], ends[:0], circles[:0])).all()
