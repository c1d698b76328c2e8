"""The table file: the reference table loads, and every impossible sensor layout is refused
with one error naming the file and the key."""

from __future__ import annotations

import copy
import itertools

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_host.config.board import Side
from firmware_host.config.table import REFERENCE_TABLE, load_table
from firmware_host.errors import InputError
from tests.builders import write_yaml


@pytest.fixture
def table_data() -> dict:
    return yaml.safe_load(REFERENCE_TABLE.read_text())


def write_table(tmp_path, data: dict):
    """A table file in a copy of config/'s layout, so its relative board path resolves."""
    (tmp_path / "tables").mkdir(exist_ok=True)
    (tmp_path / "boards").mkdir(exist_ok=True)
    board = REFERENCE_TABLE.parent.parent / "boards" / "reference.yaml"
    (tmp_path / "boards" / "reference.yaml").write_text(board.read_text())
    return write_yaml(tmp_path / "tables" / "table.yaml", data)


def test_reference_table_places_every_sensor_as_the_brief_says():
    table = load_table()
    assert table.board.name == "reference"
    beams = table.entry_beams
    assert all(b - a == pytest.approx(10.0) for a, b in itertools.pairwise(beams))
    assert beams[0] > 0 and beams[-1] < table.board.width
    assert table.entry_row > table.board.height
    assert all(table.board.height < h < table.entry_row for h in table.top_gate_heights)
    heights = table.curtain_heights
    assert heights[0] > 0 and heights[-1] < table.board.height
    strip = table.config.edge_strip
    for side in Side:
        spans = strip.spans(side)
        assert len(spans) == 30
        assert spans[-1][1] <= 300.0
        assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans))
    assert table.config.piece_reader.present
    assert (table.config.dice.count, table.config.dice.faces) == (6, 6)


BROKEN = [
    ("unknown key", lambda d: d.update(lasers=3), "lasers", "unknown key"),
    ("no version", lambda d: d.pop("version"), "version", "required key is missing"),
    (
        "entry beam past the right wall",
        lambda d: d["entry_gate"].update(count=31),
        "entry_gate",
        "inside the opening",
    ),
    (
        "entry beam on the left wall",
        lambda d: d["entry_gate"].update(first=0.0),
        "entry_gate",
        "inside the opening",
    ),
    ("zero pitch", lambda d: d["entry_gate"].update(pitch=0), "entry_gate.pitch", "greater than 0"),
    (
        "top gate above the entry row",
        lambda d: d["top_gate"].update(heights=[1.0, 45.0]),
        "top_gate.heights",
        "below the entry gate",
    ),
    (
        "top gate beams out of order",
        lambda d: d["top_gate"].update(heights=[3.0, 2.0]),
        "top_gate.heights[1]",
        "must increase",
    ),
    (
        "curtain longer than the side",
        lambda d: d["curtain"].update(count=61),
        "curtain",
        "longer than the side edge",
    ),
    (
        "elements overlap",
        lambda d: d["edge_strip"].update(length=11.0),
        "edge_strip.length",
        "overlap",
    ),
    (
        "edge strip longer than the bottom",
        lambda d: d["edge_strip"]["count"].update(bottom=31),
        "edge_strip.count.bottom",
        "longer than the bottom edge",
    ),
    (
        "threshold of zero",
        lambda d: d["edge_strip"].update(threshold=0),
        "edge_strip.threshold",
        "greater than 0",
    ),
    ("one-faced dice", lambda d: d["dice"].update(faces=1), "dice.faces", "greater than or equal"),
    ("more faces than the protocol", lambda d: d["dice"].update(faces=7), "dice.faces", "6"),
    ("jam before quiet", lambda d: d["settle"].update(jam=0.2), "settle", "longer than quiet"),
    (
        "reader as a word",
        lambda d: d["piece_reader"].update(present="yes"),
        "piece_reader.present",
        "valid boolean",
    ),
]


@pytest.mark.parametrize(("name", "edit", "where", "problem"), BROKEN, ids=[b[0] for b in BROKEN])
def test_impossible_tables_are_refused_naming_the_key(
    tmp_path, table_data, name, edit, where, problem
):
    edit(table_data)
    path = write_table(tmp_path, table_data)
    with pytest.raises(InputError) as caught:
        load_table(path)
    assert caught.value.source == str(path)
    assert caught.value.where == where
    assert problem in caught.value.problem


def test_a_missing_board_file_is_named(tmp_path, table_data):
    table_data["board"] = "../boards/nowhere.yaml"
    path = write_table(tmp_path, table_data)
    with pytest.raises(InputError, match=r"board: no board file '../boards/nowhere.yaml'"):
        load_table(path)


def test_a_narrower_board_refuses_the_reference_gate(tmp_path, table_data):
    path = write_table(tmp_path, table_data)
    board = yaml.safe_load((tmp_path / "boards" / "reference.yaml").read_text())
    board["width"] = 250.0
    for line in board["levels"]:
        line["top"] = [[x * 250 / 300, y] for x, y in line["top"]]
    for face in board["edges"].values():
        for segment in face:
            if segment["side"] == "bottom":
                segment["from"], segment["to"] = (
                    segment["from"] * 250 / 300,
                    segment["to"] * 250 / 300,
                )
    board["bonus_circles"] = []
    write_yaml(tmp_path / "boards" / "reference.yaml", board)
    with pytest.raises(InputError) as caught:
        load_table(path)
    assert caught.value.where == "entry_gate"


VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 400), st.floats(-5, 400), st.text(max_size=3)
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_any_edited_value_loads_or_gives_one_input_error(tmp_path, table_data, data):
    edited = copy.deepcopy(table_data)
    section = data.draw(
        st.sampled_from(["entry_gate", "top_gate", "curtain", "edge_strip", "dice"])
    )
    key = data.draw(st.sampled_from(sorted(edited[section])))
    edited[section][key] = data.draw(VALUES)
    path = write_table(tmp_path, edited)
    try:
        table = load_table(path)
    except InputError as exc:
        assert exc.source == str(path) and exc.where and exc.problem
    else:  # whatever loads keeps every sensor inside its place
        assert table.entry_beams[0] > 0 and table.entry_beams[-1] < table.board.width
        assert table.curtain_heights[-1] < table.board.height
        assert table.top_gate_heights[-1] < table.entry_row


def test_the_table_speaks_english_unless_its_file_names_a_language(tmp_path, table_data):
    assert load_table().config.language == "en"
    assert load_table(write_table(tmp_path, {**table_data, "language": "de"})).config.language == (
        "de"
    )


@pytest.mark.parametrize(
    ("language", "problem"),
    [
        ("fr", "expected one of de, en (a language with a catalogue)"),
        ("DE", "expected one of de, en (a language with a catalogue)"),
        (1, "input should be a valid string, got 1"),
    ],
)
def test_a_language_without_a_catalogue_is_refused(tmp_path, table_data, language, problem):
    path = write_table(tmp_path, {**table_data, "language": language})
    with pytest.raises(InputError) as caught:
        load_table(path)
    assert str(caught.value) == f"{path}: language: {problem}"
