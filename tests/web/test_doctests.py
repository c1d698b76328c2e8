"""The examples in the web modules' docstrings run and give what they show."""

import doctest
import importlib

import pytest

MODULES = [
    "firmware_host.web.view",
    "firmware_host.web.actions",
    "firmware_host.web.access",
    "firmware_host.web.config",
    "firmware_host.web.table",
    "firmware_host.web.dice_actions",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0
    assert result.failed == 0
