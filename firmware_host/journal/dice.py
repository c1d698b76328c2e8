"""Look back at journaled dice games: what ``tabletop games --game KIND`` lists.

Each game is replayed from its events through its
:class:`~firmware_host.games.table_game.TableGame`, so the scores listed are the ones the
rules give, not copies kept beside them. A game whose events do not replay is listed with
the problem instead of scores.
"""

from __future__ import annotations

from typing import Any

from firmware_host.errors import IllegalMove, InputError
from firmware_host.games.table_game import TableGame
from firmware_host.journal.store import Journal


def dice_summaries(journal: Journal, kind: type[TableGame]) -> list[dict[str, Any]]:
    """Every game of ``kind``, newest first: ``{"id", "started", "finished", "events",
    "scores", "winners"}`` (``scores`` in seating order; ``winners`` once it is over), or
    ``{"id", "started", "finished", "events", "problem"}`` for a game that does not replay."""
    listed = []
    for game in journal.games(kind.KIND):
        summary: dict[str, Any] = {
            "id": game.id,
            "started": game.started,
            "finished": game.finished is not None,
            "events": game.events,
        }
        try:
            view = kind.replay([stored.data for stored in journal.events(game.id)]).view()
        except (InputError, IllegalMove) as exc:
            summary["problem"] = str(exc)
        else:
            summary["scores"] = {name: view["scores"][name] for name in view["players"]}
            summary["winners"] = list(view["winners"])
        listed.append(summary)
    return listed
