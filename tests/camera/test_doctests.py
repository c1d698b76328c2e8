"""The examples in the camera's docstrings run as shown."""

from __future__ import annotations

import doctest

import pytest

from firmware_host.camera import artwork, colours, pieces_file, reconcile, setup, sight, twins
from firmware_host.eye import camera_look
from simulator import camera_eval

MODULES = [artwork, colours, pieces_file, reconcile, setup, sight, twins, camera_look, camera_eval]


@pytest.mark.parametrize("module", MODULES, ids=[m.__name__ for m in MODULES])
def test_docstring_examples(module) -> None:
    failures, tried = doctest.testmod(module)
    assert tried > 0 and failures == 0
