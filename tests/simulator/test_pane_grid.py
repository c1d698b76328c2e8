"""The pane grid's forward model (a what-if sensor for the perfect-eye bound): on a hand-placed
square, and against pymunk's own point queries on random poses (hypothesis)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from firmware_host.config.board import load_board
from firmware_host.games.dropit.rules.geometry import piece_shape
from firmware_host.games.dropit.rules.pieces import Color, Piece, Pose, Shape
from simulator.pane_grid import PaneGrid

BOARD = load_board()
GRID = PaneGrid(BOARD)


def cut_points(pieces: list[Piece]) -> set[tuple[float, float]]:
    return {GRID.point(i) for i in GRID.snapshot(pieces).indices()}


def test_the_grid_covers_the_drop_zone_every_10_mm():
    assert (GRID.columns, GRID.rows) == (30, 30)
    assert GRID.snapshot([]).length == 900
    assert GRID.point(0) == (5.0, 5.0)
    assert GRID.point(29) == (295.0, 5.0)
    assert GRID.point(30) == (5.0, 15.0)
    assert GRID.point(899) == (295.0, 295.0)


def test_a_square_cuts_exactly_the_points_it_covers_edges_included():
    # side 34 centred on (150, 50): x 133..167, y 33..67
    square = Piece("p1", Color.RED, Shape.SQUARE, Pose(150.0, 50.0, 0.0))
    assert cut_points([square]) == {
        (x, y) for x in (135.0, 145.0, 155.0, 165.0) for y in (35.0, 45.0, 55.0, 65.0)
    }
    # moved so that its left and bottom edges lie on grid lines: those points are covered
    on_lines = Piece("p1", Color.RED, Shape.SQUARE, Pose(132.0, 52.0, 0.0))
    assert cut_points([on_lines]) == {
        (x, y) for x in (115.0, 125.0, 135.0, 145.0) for y in (35.0, 45.0, 55.0, 65.0)
    }


def test_two_pieces_cut_the_union_of_their_points_and_a_piece_above_the_top_only_inside():
    low = Piece("p1", Color.RED, Shape.SQUARE, Pose(17.0, 17.0, 0.0))
    high = Piece("p2", Color.BLUE, Shape.SQUARE, Pose(283.0, 300.0, 0.0))
    assert cut_points([low, high]) == cut_points([low]) | cut_points([high])
    assert {y for _, y in cut_points([high])} == {285.0, 295.0}


@given(
    shape=st.sampled_from(list(Shape)),
    x=st.floats(20.0, 280.0),
    y=st.floats(20.0, 280.0),
    angle=st.floats(0.0, 360.0),
)
def test_a_beam_is_cut_exactly_when_its_point_lies_inside_the_piece(shape, x, y, angle):
    """Against pymunk's signed distance to the outline: a point inside is cut, one outside
    (even by a hair, let alone 1 mm) is not; only points on the outline may go either way."""
    piece = Piece("p1", Color.GREEN, shape, Pose(x, y, angle))
    outline = piece_shape(BOARD, shape, piece.pose)
    cut = GRID.snapshot([piece])
    for beam in range(cut.length):
        distance = outline.point_query(GRID.point(beam)).distance
        if cut[beam]:
            assert distance <= 1e-6, GRID.point(beam)
        else:
            assert distance >= -1e-6, GRID.point(beam)
    assert cut.count() >= 1  # every shape is wide enough to cover a point of a 10 mm grid
