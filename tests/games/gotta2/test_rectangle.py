"""The largest complete rectangle: hand-checked boards and a brute-force reference."""

from hypothesis import given
from hypothesis import strategies as st

from firmware_host.games.gotta2.rectangle import largest_rectangle


def board(*rows):
    return {(r, c) for r, row in enumerate(rows) for c, mark in enumerate(row) if mark == "#"}


def test_an_empty_board_has_no_rectangle():
    found = largest_rectangle(set(), 4, 5)
    assert (found.rows, found.columns, found.area) == (0, 0, 0)


def test_a_full_board_is_its_own_rectangle():
    found = largest_rectangle(board("###", "###"), 2, 3)
    assert (found.top, found.left, found.rows, found.columns) == (0, 0, 2, 3)


def test_hand_checked_boards():
    # A 3 x 4 block with a notch, beside a long thin bar: the block without the notch wins.
    cells = board(
        "#....#",
        "####.#",
        "####.#",
        "###..#",
        ".....#",
    )
    found = largest_rectangle(cells, 5, 6)
    assert found.area == 9 and (found.rows, found.columns) == (3, 3)
    assert (found.top, found.left) == (1, 0)
    # The bar (5 x 1) loses to a 2 x 3 block.
    cells = board("#.....", "#.###.", "#.###.", "#.....", "#.....")
    found = largest_rectangle(cells, 5, 6)
    assert (found.rows, found.columns, found.top, found.left) == (2, 3, 1, 2)
    # A plus sign: the best is a bar of 3 (1 x 3 across is found before 3 x 1 down).
    found = largest_rectangle(board(".#.", "###", ".#."), 3, 3)
    assert (found.rows, found.columns, found.top, found.left) == (1, 3, 1, 0)
    # A checkerboard: single cells only.
    assert largest_rectangle(board("#.#.", ".#.#", "#.#."), 3, 4).area == 1
    # A staircase: 3 x 2 and 2 x 3 tie at 6 (the taller is found first); both beat 4 x 1.
    found = largest_rectangle(board("#...", "##..", "###.", "####"), 4, 4)
    assert (found.rows, found.columns, found.top, found.left) == (3, 2, 1, 0)


def brute_force(cells, rows, columns):
    best = 0
    for top in range(rows):
        for left in range(columns):
            for bottom in range(top, rows):
                for right in range(left, columns):
                    if all(
                        (r, c) in cells
                        for r in range(top, bottom + 1)
                        for c in range(left, right + 1)
                    ):
                        best = max(best, (bottom - top + 1) * (right - left + 1))
    return best


@st.composite
def boards(draw):
    rows = draw(st.integers(1, 7))
    columns = draw(st.integers(1, 7))
    flags = draw(st.lists(st.booleans(), min_size=rows * columns, max_size=rows * columns))
    cells = {(i // columns, i % columns) for i, on in enumerate(flags) if on}
    return cells, rows, columns


@given(boards())
def test_the_largest_rectangle_agrees_with_brute_force(case):
    cells, rows, columns = case
    found = largest_rectangle(cells, rows, columns)
    assert found.area == brute_force(cells, rows, columns)
    assert found.cells() <= cells
    assert len(found.cells()) == found.area
