"""Shared fixtures: the reference board, as a model and as editable data; the root logger,
put back after each test."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest
import yaml
from hypothesis import settings

from firmware_host.config.board import REFERENCE_BOARD, Board, load_board
from tests import firmware_path

firmware_path.put_on_sys_path()  # the hub firmware's modules import as on the board

# No per-example time limit: timing belongs to benchmarks, and a shared machine under load
# made examples of correct code overrun hypothesis's default 200 ms.
settings.register_profile("tabletop", deadline=None)
settings.load_profile("tabletop")


@pytest.fixture(autouse=True)
def keep_the_root_logger() -> Iterator[None]:
    """A command run in-process (``main(["run", ..., "--log-level", "error"])``) sets up the
    service's logging: the root logger's level and handlers go back as they were after each
    test, or a later test's expected warning is dropped depending on the order tests ran in."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


@pytest.fixture(scope="session")
def board() -> Board:
    return load_board()


@pytest.fixture
def reference_data() -> dict:
    """The reference board as plain YAML data, to edit into a broken or custom board."""
    return yaml.safe_load(REFERENCE_BOARD.read_text())
