"""The simulator's virtual camera: frames of the true board, as a café's camera takes them.

A :class:`VirtualCamera` stands where its noise profile's ``camera.pose`` ranges put it
(drawn once from the seed) and renders (:mod:`simulator.camera_render`) only when a look
asks: the scene once per look (twice with a hand in a frame), each frame its own sensor
noise and JPEG. Each look is drawn from ``(seed, look number)`` alone: the table knocked a little
(``nudge``), the light, the café, the glare, and the look's faults:

* **marker covered** - a cup stands in front of one marker, or a hand lies over it, for
  the whole look;
* **hand** - a hand is in front of the pane in one frame of the look;
* **dropped frame** - the look gives one frame fewer (a look of one frame keeps it);
* **unplug** - this look and the next ones, a run of ``unplug.looks``, raise
  :class:`CameraUnavailable`.

The same seed and the same sequence of looks give the same frames.

>>> from firmware_host.config.noise import load_profile
>>> from firmware_host.config.table import load_table
>>> from firmware_host.games.dropit.rules.pieces import Color, Piece, Pose, Shape
>>> camera = VirtualCamera(load_table(), load_profile("clean"), seed=4)
>>> frames = camera.look([Piece("p1", Color.RED, Shape.SQUARE, Pose(150.0, 17.0, 0.0))])
>>> len(frames), frames[0].shape
(3, (1200, 1600, 3))
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from firmware_host.camera.setup import CameraSetup
from firmware_host.camera.sources import CameraUnavailable, FrameSource
from firmware_host.config.board import EdgeFace
from firmware_host.config.noise import CameraFaults, NoiseProfile
from firmware_host.config.table import Table
from firmware_host.errors import InputError
from firmware_host.games.dropit.rules.pieces import Piece
from simulator.camera_render import CameraView, compose, draw_effects, draw_view, expose

__all__ = [
    "CameraUnavailable",
    "LookPlan",
    "VirtualCamera",
    "VirtualCameraSource",
    "plan_look",
]


@dataclass(frozen=True)
class LookPlan:
    """One look's faults: the covered marker (or None), the frame with a hand (or None),
    whether a frame is dropped, and how many looks an unplugging starting here lasts
    (0: none starts)."""

    covered_marker: int | None
    hand_frame: int | None
    dropped_frame: bool
    unplug_looks: int


def plan_look(faults: CameraFaults, marker_ids: list[int], frames: int,
              rng: np.random.Generator) -> LookPlan:
    """Draw one look's faults (each independently, in a fixed order of draws)."""
    cover, hand, drop, unplug = rng.random(4)
    marker = int(rng.choice(marker_ids))
    hand_frame = int(rng.integers(frames))
    run = int(rng.integers(faults.unplug.looks[0], faults.unplug.looks[1] + 1))
    return LookPlan(
        covered_marker=marker if cover < faults.marker_covered else None,
        hand_frame=hand_frame if hand < faults.hand else None,
        dropped_frame=bool(drop < faults.dropped_frame) and frames > 1,
        unplug_looks=run if unplug < faults.unplug.rate else 0,
    )


class VirtualCamera:
    """The camera of ``table`` (its ``camera:`` section) with ``profile``'s camera noise,
    reproducible from ``seed``."""

    def __init__(self, table: Table, profile: NoiseProfile, seed: int) -> None:
        if table.camera is None:
            raise InputError("table", "camera", "this table has no camera (camera: none)")
        self.table = table
        self.setup: CameraSetup = table.camera
        self.noise = profile.camera
        self.seed = seed
        self.looks = 0
        self._unplugged = 0
        self.base_view = draw_view(
            table.board, self.setup, self.noise.pose, np.random.default_rng([seed, 0])
        )
        self.view: CameraView = self.base_view
        """The view of the latest look (the camera as it stands, knocked)."""
        self.plan: LookPlan | None = None
        """The latest look's faults."""

    def look(
        self,
        pieces: Iterable[Piece],
        edges_face: EdgeFace = EdgeFace.COLOR,
        frames: int | None = None,
        number: int | None = None,
    ) -> list[np.ndarray]:
        """Frames (BGR uint8) of ``pieces`` at rest: ``frames`` of them (the set-up's
        ``frames_per_look`` by default), one fewer if one is dropped. ``number`` numbers
        the look (its noise and faults are drawn from it; the next number by default).

        Raises :class:`CameraUnavailable` while the camera is unplugged.
        """
        count = self.setup.frames_per_look if frames is None else frames
        if count < 1:
            raise ValueError(f"a look takes 1 or more frames, not {count}")
        self.looks = self.looks + 1 if number is None else number
        rng = np.random.default_rng([self.seed, 1, self.looks])
        plan = plan_look(self.noise.faults, sorted(self.setup.markers.centres), count, rng)
        self.plan = plan
        if self._unplugged == 0 and plan.unplug_looks:
            self._unplugged = plan.unplug_looks
        if self._unplugged:
            self._unplugged -= 1
            raise CameraUnavailable(
                f"the camera is unplugged (look {self.looks}; no frames until it is back)"
            )
        nudge = self.noise.nudge
        self.view = self.base_view.nudged(rng, nudge.shift, nudge.turn)
        effects = dataclasses.replace(
            draw_effects(self.noise, rng, self.seed, self.table.board),
            covered_marker=plan.covered_marker,
        )
        shown = list(pieces)
        kept = [i for i in range(count) if not (plan.dropped_frame and i == count - 1)]
        board, setup = self.table.board, self.setup
        still = compose(board, setup, shown, self.view, effects, edges_face)
        with_hand = dataclasses.replace(effects, hand=True)
        return [  # the scene with a hand is composed for its frame alone, then let go
            expose(
                compose(board, setup, shown, self.view, with_hand, edges_face)
                if i == plan.hand_frame else still,
                effects,
                np.random.default_rng([self.seed, 2, self.looks, i]),
            )
            for i in kept
        ]


class VirtualCameraSource(FrameSource):
    """The virtual camera as the service's frame source: each grab shows the board that
    ``pieces`` returns (the simulator's true world) as it is then; ``number`` numbers the
    looks."""

    def __init__(
        self,
        camera: VirtualCamera,
        pieces: Callable[[], Iterable[Piece]],
        number: Callable[[], int] | None = None,
    ) -> None:
        super().__init__(camera.setup.size)
        self.camera = camera
        self.pieces = pieces
        self.number = number

    def grab(self, count: int) -> list[np.ndarray]:
        """``count`` frames of the board now (one fewer when the profile drops one), the
        look numbered by ``number`` when given (say, the true world's drops: a resumed
        game then sees the same frames)."""
        number = None if self.number is None else self.number()
        return self.camera.look(self.pieces(), frames=count, number=number)

    def describe(self) -> str:
        """``"the virtual camera"``."""
        return "the virtual camera"
