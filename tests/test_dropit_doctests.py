"""The examples in the Drop It game modules' docstrings run and give what they show."""

import doctest

import pytest

from firmware_host.games.dropit import events, lineup, state, supply, track


@pytest.mark.parametrize("module", [events, lineup, state, supply, track])
def test_docstring_examples(module):
    failures, tried = doctest.testmod(module)
    assert tried > 0
    assert failures == 0
