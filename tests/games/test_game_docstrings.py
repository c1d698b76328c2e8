"""The examples in the game modules' docstrings run and give what they show."""

import doctest
import importlib

import pytest

MODULES = [
    "firmware_host.games.event_json",
    "firmware_host.games.clack.discs",
    "firmware_host.games.clack.events",
    "firmware_host.games.clack.engine",
    "firmware_host.games.clack.arbiter",
    "firmware_host.games.clack.dice",
    "firmware_host.games.puzzlesheet.sheet",
    "firmware_host.games.puzzlesheet.events",
    "firmware_host.games.puzzlesheet.engine",
    "firmware_host.games.puzzlesheet.rectangle",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0
    assert result.failed == 0
