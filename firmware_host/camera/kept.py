"""The frames verdicts came from, kept so that a disputed drop can be checked later.

After every drop the camera judged, the service keeps the look's first frame with the
located outlines drawn over it (:func:`outlined`) as a JPEG in a folder beside the journal
(:func:`frames_folder`): ``game-<game id>-turn-<turn>.jpg``, the game id as ``tabletop
games`` lists it and the turn as the journal numbers it, so the journal's turn names its
frame. Only the newest :data:`KEEP` files stay (:class:`FrameKeeper`): the folder never
grows past about 100 frames (a 1600x1200 JPEG is 150-400 kB).

>>> frames_folder(Path("/var/lib/tabletop/journal.sqlite3"))
PosixPath('/var/lib/tabletop/journal-frames')
>>> frame_path(Path("/var/lib/tabletop/journal-frames"), 4, 17).name
'game-4-turn-17.jpg'
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from firmware_host.camera.markers import BoardNotFound, MarkerFinder
from firmware_host.camera.outline import outline_points
from firmware_host.camera.setup import MarkerLayout
from firmware_host.camera.sight import Seen
from firmware_host.config.board import Board
from firmware_host.games.dropit.rules.pieces import Color

KEEP = 100
"""How many frames the folder keeps (the newest)."""
JPEG_QUALITY = 85

OUTLINE_BGR: dict[Color, tuple[int, int, int]] = {
    Color.RED: (80, 80, 255),
    Color.BLUE: (255, 160, 60),
    Color.YELLOW: (60, 230, 255),
    Color.GREEN: (90, 230, 90),
}
"""Each colour's outline, lighter than the piece so the line shows on its face."""
UNSEEN_BGR = (200, 200, 200)


def frames_folder(journal: Path) -> Path:
    """The folder of kept frames beside the journal file ``journal``."""
    return journal.with_name(f"{journal.stem}-frames")


def frame_path(folder: Path, game_id: int, turn: int) -> Path:
    """The kept frame of ``turn`` of game ``game_id`` in ``folder``."""
    return folder / f"game-{game_id}-turn-{turn}.jpg"


def outlined(layout: MarkerLayout, board: Board, frame: np.ndarray, seen: Seen) -> np.ndarray:
    """A copy of ``frame`` with every located piece's outline drawn in its colour, labelled
    with its id (an unseen piece grey at the pose the model had, the dropped one too)."""
    image = frame.copy()
    try:
        view = MarkerFinder(layout).view(MarkerFinder(layout).detect(frame))
    except BoardNotFound:
        return image
    for piece in seen.located:
        if piece.pose is None:
            continue
        colour = OUTLINE_BGR[piece.known.color] if piece.seen else UNSEEN_BGR
        points = outline_points(board, piece.known.shape, piece.pose).points
        pixels = np.round(view.to_image(points)).astype(np.int32)
        cv2.polylines(image, [pixels], True, colour, 2, cv2.LINE_AA)
        u, v = view.to_image(np.array([[piece.pose.x, piece.pose.y]]))[0]
        cv2.putText(image, piece.known.id, (round(u) - 12, round(v) + 5),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.5, colour, 1, cv2.LINE_AA)
    return image


class FrameKeeper:
    """Keeps outlined frames in ``folder`` for ``board`` seen through markers ``layout``,
    the newest ``keep`` of them."""

    def __init__(self, folder: Path, board: Board, layout: MarkerLayout, keep: int = KEEP) -> None:
        if keep < 1:
            raise ValueError(f"keep at least 1 frame, not {keep}")
        self.folder = folder
        self.board = board
        self.layout = layout
        self.keep = keep

    def save(self, game_id: int, turn: int, frame: np.ndarray, seen: Seen) -> Path:
        """Write the outlined ``frame`` of ``turn`` of game ``game_id``; drop the oldest
        files beyond :attr:`keep`. Returns the file's path."""
        self.folder.mkdir(parents=True, exist_ok=True)
        path = frame_path(self.folder, game_id, turn)
        image = outlined(self.layout, self.board, frame, seen)
        if not cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY]):
            raise OSError(f"{path}: the frame could not be written")
        kept = sorted(self.folder.glob("game-*-turn-*.jpg"), key=lambda p: p.stat().st_mtime_ns)
        for old in kept[: max(0, len(kept) - self.keep)]:
            old.unlink(missing_ok=True)
        return path
