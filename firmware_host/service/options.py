"""What ``tabletop run`` was asked for: :class:`Options`, read by the service and each play."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from firmware_host.config.board import EdgeFace
from firmware_host.games.registry import DEFAULT_GAME

THINK_SECONDS = 3.0
"""How long a simulated player takes between selecting and dropping (clock seconds)."""

DEFAULT_PLAYERS = ("Ann", "Ben", "Cleo", "Dev")
"""The players of a game nobody set up (four, as autoplay shows a newcomer)."""


@dataclass
class Options:
    """What ``tabletop run`` was asked for (see ``docs/service.md``)."""

    journal: Path
    port: str | None = None
    sim: bool = True
    autoplay: bool = False
    speed: float = 1.0
    http: bool = True
    page_host: str | None = None
    page_port: int | None = None
    seed: int = 1
    noise: str = "realistic"
    players: Sequence[str] = DEFAULT_PLAYERS
    jokers: bool = True
    edges: EdgeFace = EdgeFace.COLOR
    table: str | None = None
    panel: str | None = None
    web: str | None = None
    think: float = THINK_SECONDS
    autoplay_answers: bool = True
    game: str = DEFAULT_GAME
    variant: str | None = None
