"""Shared fixtures: the reference board, as a model and as editable data."""

from __future__ import annotations

import pytest
import yaml

from firmware_host.config.board import REFERENCE_BOARD, Board, load_board
from tests import firmware_path

firmware_path.put_on_sys_path()  # the hub firmware's modules import as on the board


@pytest.fixture(scope="session")
def board() -> Board:
    return load_board()


@pytest.fixture
def reference_data() -> dict:
    """The reference board as plain YAML data, to edit into a broken or custom board."""
    return yaml.safe_load(REFERENCE_BOARD.read_text())
