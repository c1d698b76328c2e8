"""The examples in the journal, panel and output modules' docstrings run and give what they show."""

import doctest

import pytest

from firmware_host.journal import store
from firmware_host.outputs import gpio_tracks, track_lights
from firmware_host.panel import buttons


@pytest.mark.parametrize("module", [store, buttons, gpio_tracks, track_lights])
def test_docstring_examples(module):
    failures, tried = doctest.testmod(module)
    assert tried > 0
    assert failures == 0
