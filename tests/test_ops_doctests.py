"""The examples in the docstrings of the doctor, logs, sd_notify and hub track modules run."""

import doctest

import pytest

from firmware_host import logs
from firmware_host.doctor import configs, gates, inventory, report
from firmware_host.outputs import backends, hub_tracks
from firmware_host.service import notify


@pytest.mark.parametrize(
    "module", [logs, notify, configs, gates, inventory, report, backends, hub_tracks]
)
def test_docstring_examples(module):
    failures, tried = doctest.testmod(module)
    assert tried > 0
    assert failures == 0
