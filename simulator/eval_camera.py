"""The camera in ``tabletop sim eval``: the virtual camera shows the true board, the host's
:class:`~firmware_host.camera.sight.Sight` locates the pieces in its frames.

Only the rendering reads the truth (the true final poses of the drop); the host's look
gets the frames and what the host knew before the drop (the model's poses as priors, the
dropped piece's identity), exactly as the service's camera does. Frames are rendered
before the eye settles, so the verdict's latency counts the locating, not the rendering.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from firmware_host.camera.sight import Seen, Sight
from firmware_host.camera.sources import CameraUnavailable
from firmware_host.config.board import EdgeFace
from firmware_host.config.noise import NoiseProfile
from firmware_host.config.table import Table
from firmware_host.eye.camera_look import Camera, CameraLook, known_pieces
from firmware_host.games.dropit.rules.pieces import Color, Piece, Pose, Shape
from firmware_host.model.params import PhysicsParams
from simulator.camera_eval import outline_error
from simulator.evaluate import Tally
from simulator.virtual_camera import VirtualCamera


class EvalCamera:
    """The virtual camera of ``table`` under ``profile`` (seeded) and the host's sight."""

    def __init__(
        self, table: Table, profile: NoiseProfile, params: PhysicsParams, seed: int
    ) -> None:
        if table.camera is None:
            raise ValueError("the table has no camera")
        self.table = table
        self.virtual = VirtualCamera(table, profile, seed)
        self.sight = Sight(table.board, table.camera, params)

    def looker(
        self, believed: Sequence[Piece], piece_id: str, truth: Sequence[Piece]
    ) -> Camera:
        """The host's camera for one drop: frames of the true board ``truth``, rendered
        now, located with ``believed`` (the model's pieces before the drop) as priors and
        ``piece_id`` as the dropped piece."""
        frames: list[np.ndarray] | None = None
        out: CameraUnavailable | None = None
        try:
            frames = self.virtual.look(truth, EdgeFace.COLOR)
        except CameraUnavailable as exc:
            out = exc

        def look(
            identity: tuple[Color, Shape],
            priors: Mapping[str, Pose],
            starts: Mapping[str, Sequence[Pose]],
        ) -> Seen:
            if frames is None:
                assert out is not None
                raise out
            names = [f"look {self.virtual.looks} frame {i}" for i in range(len(frames))]
            known = known_pieces(believed, piece_id, identity, priors, starts)
            return self.sight.see(frames, names, known)

        return look

    def count(self, tally: Tally, look: CameraLook, truth: Sequence[Piece]) -> None:
        """Add what the camera did on one drop (``truth``: the true board after it) to
        ``tally``."""
        if look.seen is None and look.fault is None:
            return  # settled before the camera was asked (a jam, a second piece, ...)
        tally.camera_looks += 1
        if look.seen is None:
            tally.camera_out += 1
            return
        dropped = next(p for p in look.seen.located if p.known.id == look.piece_id)
        if not dropped.seen or dropped.pose is None:
            tally.camera_unseen += 1
        else:
            tally.pose_errors_mm.append(outline_error(self.table.board, truth[-1], dropped.pose))
        tally.camera_judged += look.judged_by == "camera"
