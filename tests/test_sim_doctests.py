"""The examples in the simulator's and the drop collector's docstrings run as shown."""

from __future__ import annotations

import doctest

import pytest

from firmware_host.link import finding, inventory
from firmware_host.sensors import collector
from simulator import (
    calibrate,
    camera_bound,
    edge_error,
    firmware,
    hub,
    play,
    players,
    scene,
)

MODULES = [
    collector, inventory, finding, calibrate, camera_bound, edge_error, firmware, hub, play,
    players, scene,
]


@pytest.mark.parametrize("module", MODULES, ids=[m.__name__ for m in MODULES])
def test_docstring_examples(module) -> None:
    failures, tried = doctest.testmod(module)
    assert tried > 0 and failures == 0
