"""The puzzle sheet as data: the shipped sheet, piece pictures, and errors naming file and key."""

import pytest

from firmware_host.errors import InputError
from firmware_host.games.gotta2.sheet import load_sheet, parse_picture

SHEET = load_sheet()


def test_the_shipped_sheet():
    assert (SHEET.board.rows, SHEET.board.columns) == (8, 8)
    assert [(f.frame, f.bonus, len(f.pieces)) for f in SHEET.frames] == [
        (1, 1, 6),
        (2, 2, 6),
        (3, 3, 5),
        (4, 4, 3),
    ]
    assert [(b.id, b.at, b.size) for b in SHEET.bonus_pieces] == [
        ("B5", 5, 4),
        ("B10", 10, 3),
        ("B15", 15, 6),
    ]
    sizes = {f.frame: {p.size for p in f.pieces} for f in SHEET.frames}
    assert sizes == {1: {5}, 2: {4}, 3: {3}, 4: {1, 2}}
    shapes = [p.shape.cells for p in SHEET.pieces]
    assert len(set(shapes)) == len(shapes)  # no piece is printed twice


def test_double_selection_is_for_frames_3_and_4_from_four_players():
    assert [SHEET.capacity(p, 4) for p in ("1-1", "2-1", "3-1", "4-1")] == [1, 1, 2, 2]
    assert [SHEET.capacity(p, 5) for p in ("1-1", "2-1", "3-1", "4-1")] == [1, 1, 2, 2]
    assert [SHEET.capacity(p, 3) for p in ("1-1", "2-1", "3-1", "4-1")] == [1, 1, 1, 1]


def test_pictures_are_read_as_printed():
    assert parse_picture(["#.", "##"]) == {(0, 0), (1, 0), (1, 1)}
    assert parse_picture([".#", "##"]) == {(0, 1), (1, 0), (1, 1)}  # the mirror is another piece
    for bad, problem in [
        (["#", "##"], "same length"),
        (["#x"], "'x'"),
        (["..", ".."], "no cell"),
        ([".#", ".#"], "empty first row or column"),
        (["#.", "#."], "empty last row or column"),
        (["#.", ".#"], "joined side by side"),
    ]:
        with pytest.raises(ValueError, match=problem):
            parse_picture(bad)


SMALL = """version: 1
board: {rows: 3, columns: 3}
bonus_track: 10
double_selection: {players: 4, frames: [2]}
frames:
  - frame: 1
    bonus: 1
    pieces:
      - {id: "1-1", cells: ["##"]}
  - frame: 2
    bonus: 2
    pieces:
      - {id: "2-1", cells: ["#"]}
bonus_pieces:
  - {id: B3, at: 3, cells: ["#"]}
  - {id: B6, at: 6, cells: ["#"]}
"""


def test_a_small_sheet_loads(tmp_path):
    path = tmp_path / "sheet.yaml"
    path.write_text(SMALL)
    assert [p.id for p in load_sheet(path).pieces] == ["1-1", "2-1"]


@pytest.mark.parametrize(
    ("change", "where", "problem"),
    [
        (('["##"]', '["#x"]'), "frames[0].pieces[0].cells", "'x'"),
        (('["##"]', '["#.#"]'), "frames[0].pieces[0].cells", "joined side by side"),
        (('"2-1"', '"1-1"'), "frames[1].pieces[0].id", "'1-1' is used twice"),
        (('["##"]', '["####"]'), "frames[0].pieces[0].cells", "larger than the board"),
        (("frame: 2", "frame: 3"), "frames[1].frame", "expected 2"),
        (("frames: [2]", "frames: [5]"), "double_selection.frames[0]", "no frame 5"),
        (("at: 6", "at: 2"), "bonus_pieces[1].at", "more than 3"),
        (("at: 6", "at: 11"), "bonus_pieces[1].at", "at most bonus_track (10)"),
        (("bonus_track: 10", "bonus_track: 10\ncolour: red"), "colour", "unknown key"),
        (("rows: 3", "rows: three"), "board.rows", "valid integer"),
    ],
)
def test_bad_sheets_name_the_file_and_key(tmp_path, change, where, problem):
    path = tmp_path / "sheet.yaml"
    path.write_text(SMALL.replace(*change))
    with pytest.raises(InputError) as caught:
        load_sheet(path)
    assert caught.value.source == str(path)
    assert caught.value.where == where
    assert problem in caught.value.problem
