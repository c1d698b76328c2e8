"""The table's camera in the service: a frame source and the sight, one look per drop.

:class:`CameraFeed` grabs the set-up's ``frames_per_look`` frames of the settled board
from its :class:`~firmware_host.camera.sources.FrameSource` (the Pi camera, an OpenCV
source, files, or the simulator's virtual camera) and locates the known pieces in them
(:class:`~firmware_host.camera.sight.Sight`). The source is opened at the first look, and
opened again at the next look after it failed (a camera plugged back in). The feed
remembers how its last look went (:attr:`CameraFeed.status`), for the page and the log: a
camera that is out is a fault the referee falls back from, never a crash.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from firmware_host.camera.locate import Known
from firmware_host.camera.sight import Seen, Sight
from firmware_host.camera.sources import CameraUnavailable, FrameSource


class CameraFeed:
    """Looks at the board through the source ``open_source`` opens, with ``sight``,
    ``frames`` frames a look."""

    def __init__(
        self, open_source: Callable[[], FrameSource], sight: Sight, frames: int
    ) -> None:
        self.open_source = open_source
        self.sight = sight
        self.frames = frames
        self.looks = 0
        self.source: FrameSource | None = None
        self.last: tuple[np.ndarray, Seen] | None = None
        """The last look's first frame and what it saw (None after a failed look, and
        once :meth:`take_last` took it)."""
        self.status = "ready"
        """``"ready"`` (no look yet), ``"seeing"`` (the last look found the board), or
        ``"out: "`` and why the last look failed."""

    def look(self, known: Sequence[Known]) -> Seen:
        """Grab one look's frames and locate ``known`` in them; raises what the source or
        the sight raises (:attr:`status` then says it)."""
        self.looks += 1
        try:
            if self.source is None:
                self.source = self.open_source()
            name = self.source.describe()
            frames = self.source.grab(self.frames)
            names = [f"{name}, look {self.looks}, frame {i + 1}" for i in range(len(frames))]
            seen = self.sight.see(frames, names, known)
        except Exception as exc:
            self.last = None
            if isinstance(exc, CameraUnavailable):
                self.close()
            self.status = f"out: {exc}"
            raise
        self.status = "seeing"
        self.last = (frames[0], seen)
        return seen

    def take_last(self) -> tuple[np.ndarray, Seen] | None:
        """The last look's first frame and what it saw, once (None when there is none)."""
        last, self.last = self.last, None
        return last

    def close(self) -> None:
        """Release the camera (it is opened again at the next look)."""
        if self.source is not None:
            self.source.close()
            self.source = None
