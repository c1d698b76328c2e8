"""What every device sees of a dice game: the game's view and the table's own state.

The dice games' controller (:class:`~firmware_host.service.dice_controller.DiceController`)
makes it; the page (:mod:`firmware_host.web`) serves it, as
:class:`~firmware_host.games.dropit.view.DropItView` is Drop It's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from firmware_host.games.table_game import TableGame
from firmware_host.i18n import Say, Text, lazy


@dataclass(frozen=True)
class DiceView:
    """What every device sees: the game's view and the table's own state."""

    game_id: str
    data: dict[str, Any]
    link: Text
    link_up: bool
    virtual_dice: bool
    rolling: tuple[int, ...]
    game: TableGame | None = None
    """The game the view is of: it says its words in each reader's language."""

    @property
    def players(self) -> tuple[str, ...]:
        """The game's players (the seats a phone may join)."""
        return tuple(self.data["players"])

    @property
    def waiting_for(self) -> tuple[str, ...]:
        """The players who may send a move now."""
        return tuple(self.data["waiting_for"])

    @property
    def roll(self) -> dict[str, Any] | None:
        """The throw the game waits for (``{"dice", "by"}``), or ``None``."""
        roll: dict[str, Any] | None = self.data["roll"]
        return roll

    @property
    def status(self) -> str:
        """The game's state in one line (systemd's status)."""
        status: str = self.data["status"]
        if not self.link_up:
            status = f"paused: {self.link} -- {status}"
        return status

    def to_json(self, say: Say = str) -> dict[str, Any]:
        """The game's view (``docs/dice-games.md``) with ``id`` and ``table``: the link
        (``"link"`` in words, ``"link_up"``), ``"virtual_dice"`` and the dice ``"rolling"``;
        the game's words said by ``say`` (English by default)."""
        data = self.data if self.game is None or say is str else self.game.view(say)
        table = {
            "link": say(self.link),
            "link_up": self.link_up,
            "virtual_dice": self.virtual_dice,
            "rolling": list(self.rolling),
        }
        return {"id": self.game_id} | data | {"table": table}

    def staff_json(self, say: Say = str) -> dict[str, Any]:
        """What the staff view shows of this game and offers for the next, as Drop It's
        view gives it (:meth:`firmware_host.games.dropit.view.DropItView.staff_json`): the
        players only, no re-sync."""
        data = self.data if self.game is None or say is str else self.game.view(say)
        title, status = data["title"], data["status"]
        game = self.game_id
        line = lazy("{title} (game {game}): over", title=title, game=game)
        if not data["over"]:
            line = lazy("{title} (game {game}): {status}", title=title, game=game, status=status)
        return {
            "game": self.game_id,
            "status": say(line),
            "ops": ["abort", "new"],
            "fields": ["players"],
            "setup": {
                "players": [{"name": name, "colors": []} for name in self.players],
                "teams": None,
                "settings": None,
            },
        }
