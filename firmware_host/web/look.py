"""The last look, for the staff view: the kept frame of the latest verdict and what it shows.

On a table with a camera the service keeps the frame each Drop It verdict came from, the
located outlines drawn over it (:mod:`firmware_host.camera.kept`). Staff see the latest
one on the staff view (``/staff``), to check a disputed drop. A :class:`LastLook` says
which turn and piece the latest verdict was about, whether its frame was kept, and how the
camera is doing now; its :meth:`LastLook.state` is what the staff view shows:

* ``"no camera"`` -- the table has no camera;
* ``"no look yet"`` -- nothing has been judged in this game yet;
* ``"camera out"`` -- the latest verdict was judged without the camera (no frame kept);
* ``"look"`` -- :attr:`LastLook.frame` is the kept frame of the latest verdict.

>>> LastLook(camera="ok", game_id="3").state
'no look yet'
>>> LastLook(camera="none", game_id="3").state
'no camera'
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_host.i18n import Say, Text

NO_CAMERA = "none"
"""``LastLook.camera`` on a table without a camera."""
CAMERA_OK = "ok"
"""``LastLook.camera`` while the camera sees."""


@dataclass(frozen=True, slots=True)
class LastLook:
    """The latest verdict's look: ``camera`` is ``"none"``, ``"ok"`` or what keeps the
    camera out now; ``turn``, ``player`` and ``piece`` (in words) name the latest verdict
    (None before the first); ``frame`` is its kept frame (None: judged without the camera)."""

    camera: Text
    game_id: str
    turn: int | None = None
    player: str | None = None
    piece: str | None = None
    frame: Path | None = None

    @property
    def state(self) -> str:
        """``"no camera"``, ``"no look yet"``, ``"camera out"`` or ``"look"``."""
        if self.camera == NO_CAMERA:
            return "no camera"
        if self.turn is None:
            return "no look yet"
        if self.frame is None or not self.frame.is_file():
            return "camera out"
        return "look"

    def to_json(self, say: Say = str) -> dict[str, Any]:
        """``{"state", "camera", "game", "turn", "player", "piece", "image"}``; ``image`` is
        the frame's address (``/api/staff/look.jpg``) when there is one, else None; what
        keeps the camera out said with ``say`` (English by default)."""
        state = self.state
        return {
            "state": state,
            "camera": say(self.camera),
            "game": self.game_id,
            "turn": self.turn,
            "player": self.player,
            "piece": self.piece,
            "image": f"/api/staff/look.jpg?game={self.game_id}&turn={self.turn}"
            if state == "look"
            else None,
        }
