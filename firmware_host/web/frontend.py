"""What the page server needs to know of a game: its page, its actions and its view message.

The server (:mod:`firmware_host.web.server`) is the same for every game: it serves
:attr:`Frontend.page`, reads each untrusted message with :attr:`Frontend.parse`, refuses
with :attr:`Frontend.check` what the view does not allow the acting seat, and sends each
view as :attr:`Frontend.render` draws it. :data:`DROP_IT` is Drop It's; :data:`DICE_GAMES`
serves every dice game (each a :class:`~firmware_host.games.table_game.TableGame`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any, Generic, TypeVar

from firmware_host.games.dropit.actions import SeatAction, check_action, parse_action
from firmware_host.games.dropit.svg import board_svg
from firmware_host.games.dropit.view import DropItView
from firmware_host.i18n import Say
from firmware_host.web.actions import Join, SeatMessage, Staff
from firmware_host.web.dice_actions import DiceAction, check_dice_action, parse_dice_action
from firmware_host.web.dice_view import DiceView
from firmware_host.web.game_feed import PageView

STATIC = Path(__file__).parent / "static"
"""The files every game's page shares (``live.js``, ``style.css``, the staff view), and the
dice games' page."""

ActionT = TypeVar("ActionT", bound=SeatMessage)
ViewT = TypeVar("ViewT", bound=PageView)


def package_file(package: str, name: str) -> Path:
    """The file ``name`` of ``package`` as installed (a folder on disk, as the page server's
    static files are)."""
    return Path(str(files(package).joinpath(name)))


@dataclass(frozen=True)
class Frontend(Generic[ActionT, ViewT]):
    """A game's page (its HTML file), action reader, action check and view renderer
    (the view message's game-specific keys: ``{"view": ...}`` and any more, with the view's
    words said by the reader's ``Say``), for the game's seat actions ``ActionT`` and views
    ``ViewT`` (its :class:`~firmware_host.web.game_feed.GameFeed`'s)."""

    page: Path
    parse: Callable[[str | bytes], Join | Staff | ActionT]
    check: Callable[[ActionT, ViewT, str], None]
    render: Callable[[ViewT, Say], dict[str, Any]]


DROP_IT: Frontend[SeatAction, DropItView] = Frontend(
    page=package_file("firmware_host.games.dropit", "page/dropit.html"),
    parse=parse_action,
    check=check_action,
    render=lambda view, say: {
        "view": view.to_json(say),
        "svg": board_svg(view),
        "staff": view.staff_json(say),
    },
)
"""Drop It's scoreboard (the ``page/`` folder of its package): the board as SVG beside the
view."""

DICE_GAMES: Frontend[DiceAction, DiceView] = Frontend(
    page=STATIC / "dice.html",
    parse=parse_dice_action,
    check=check_dice_action,
    render=lambda view, say: {"view": view.to_json(say), "staff": view.staff_json(say)},
)
"""The dice games' page: the view; each game's module (``/static/games/KIND.js``, from the
``page/`` folder of the game's package) draws it."""
