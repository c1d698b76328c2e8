"""``tabletop table``: every sensor's position, and one clear line for a bad table file."""

from __future__ import annotations

import json

import yaml

from firmware_host.cli import EXIT_BAD_INPUT, main
from firmware_host.config.table import REFERENCE_TABLE
from tests.builders import write_yaml


def test_json_lists_every_sensor_position_in_bit_order(capsys):
    assert main(["table", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["board"] == "reference"
    assert data["entry_gate"]["y"] == 340.0
    assert data["entry_gate"]["x"][:2] == [5.0, 15.0] and len(data["entry_gate"]["x"]) == 30
    assert data["top_gate"]["y"] == [301.0]
    assert data["curtain"]["y"][0] == 2.5 and len(data["curtain"]["y"]) == 60
    assert data["edge_strip"]["bottom"][1] == [10.5, 19.5]
    assert set(data["edge_strip"]) == {"threshold", "left", "bottom", "right"}
    assert data["dice"] == {"count": 6, "faces": 6}


def test_summary_names_each_sensor(capsys):
    assert main(["table"]) == 0
    out = capsys.readouterr().out
    assert "entry gate: 30 beams at x = 5 .. 295 every 10, row at y = 340" in out
    assert "edge strip bottom: 30 elements of 9 mm every 10, from 0.5 to 299.5" in out


def test_a_bad_table_file_is_one_line_and_status_2(tmp_path, capsys):
    data = yaml.safe_load(REFERENCE_TABLE.read_text())
    data["board"] = str(REFERENCE_TABLE.parent.parent / "boards" / "reference.yaml")
    data["curtain"]["pitch"] = 6.0
    path = write_yaml(tmp_path / "table.yaml", data)
    assert main(["table", "--table", str(path)]) == EXIT_BAD_INPUT
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip().splitlines() == [
        f"tabletop table: {path}: curtain: beams run up to y=356.5: the strip is longer than "
        "the side edge (beams must lie below the top edge, y < 300)"
    ]
