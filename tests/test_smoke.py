"""The worked example of the rules, end to end through the command line."""

import json
from pathlib import Path

from firmware_host.cli import main

ROOT = Path(__file__).resolve().parents[1]


def test_worked_example_scores_seven(capsys):
    status = main(["judge", str(ROOT / "examples/positions/worked_example.yaml"), "--json"])
    verdict = json.loads(capsys.readouterr().out)
    assert status == 0
    assert verdict == {
        "valid": True,
        "broken": [],
        "level": 5,
        "bonus": 2,
        "points": 7,
        "touching": [{"id": "p1", "color": "red", "shape": "triangle"}],
        "edges": [{"side": "left", "symbol": "yellow"}],
    }
