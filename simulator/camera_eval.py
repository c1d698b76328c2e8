"""How well the camera's eye sees: located poses and verdicts against the true world.

Scenes come from seeded simulated games (:func:`simulator.evaluate.turns`, a new board
every 36 drops): after each drop the virtual camera takes a look, the locator gets every
piece with its prior (its true pose before the drop, moved by the model's error
``prior_mm`` / ``prior_deg``) and the dropped piece without one, and the dropped piece is
refereed at its located pose. Each piece's error is the largest distance between
corresponding points of its located and true outlines, up to the shape's symmetry; each
verdict is compared with ``judge`` on the true poses.

>>> from firmware_host.config.noise import load_profile
>>> from firmware_host.config.table import load_table
>>> tally = evaluate_camera(load_table(), load_profile("clean"), scenes=3, seed=1)
>>> tally.scenes, tally.pieces, tally.within == tally.pieces, tally.wrong
(3, 6, True, 0)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from firmware_host.camera.locate import Known, Located
from firmware_host.camera.markers import BoardNotFound
from firmware_host.camera.sight import Sight
from firmware_host.camera.sources import CameraUnavailable
from firmware_host.camera.verdict import referee_located
from firmware_host.config.board import Board, EdgeFace, PolygonShape
from firmware_host.config.noise import NoiseProfile
from firmware_host.config.table import Table
from firmware_host.games.dropit.rules.geometry import turn_period
from firmware_host.games.dropit.rules.landing import judge
from firmware_host.games.dropit.rules.pieces import Piece, Pose
from firmware_host.games.dropit.rules.position import Position
from firmware_host.model import PhysicsParams, load_params
from firmware_host.model.supply import GAME_DROPS
from simulator.evaluate import turns
from simulator.true_world import TrueWorld
from simulator.virtual_camera import VirtualCamera

WITHIN_MM = 0.5
"""A piece counts as located when its outline lies within this of the true one."""
CALIBRATED_WITHIN_MM = 2.0
"""The sigma calibration counts pieces within this of their true outline: farther off is a
wrong find, not a deviation's tail."""


def sigma_calibration(z_by_shape: dict[str, list[float]]) -> tuple[float, dict[str, float]]:
    """The spread of located minus true x and y over the reported deviations (1.0 is
    honest, more is overconfident), over all pieces (NaN with none) and per shape.

    >>> sigma_calibration({"square": [1.0, -1.0], "circle": [0.5, -0.5]})
    (0.7905694150420949, {'circle': 0.5, 'square': 1.0})
    """
    every = [z for zs in z_by_shape.values() for z in zs]
    overall = float(np.std(every)) if every else math.nan
    return overall, {shape: float(np.std(z)) for shape, z in sorted(z_by_shape.items())}


def outline_error(board: Board, truth: Piece, pose: Pose) -> float:
    """The largest distance (mm) between corresponding points of ``truth``'s outline and
    the same shape's outline at ``pose``, up to the shape's symmetry (a circle: the
    distance of the centres)."""
    period = turn_period(board, truth.shape)
    if period >= 360:
        return math.hypot(truth.pose.x - pose.x, truth.pose.y - pose.y)
    dims = board.shapes.of(truth.shape)
    if not isinstance(dims, PolygonShape):
        raise ValueError(f"{truth.shape} has no corners")
    corners = np.asarray(dims.vertices, float)
    true_points = _placed(corners, truth.pose)
    return min(
        float(np.linalg.norm(_placed(corners, turned) - true_points, axis=1).max())
        for turned in (
            Pose(pose.x, pose.y, pose.angle + k * period) for k in range(round(360 / period))
        )
    )


def _placed(corners: np.ndarray, pose: Pose) -> np.ndarray:
    """A polygon's corners (around its centroid, angle 0) at ``pose``, in the same order."""
    turn = math.radians(pose.angle)
    cos, sin = math.cos(turn), math.sin(turn)
    return corners @ np.array([[cos, sin], [-sin, cos]]) + (pose.x, pose.y)


@dataclass
class CameraTally:
    """The counts and figures of a camera evaluation."""

    scenes: int = 0
    pieces: int = 0
    within: int = 0
    unseen: int = 0
    errors_mm: list[float] = field(default_factory=list)
    z_by_shape: dict[str, list[float]] = field(default_factory=dict)
    """Located minus true x and y over the reported deviations, per shape."""
    verdicts: int = 0
    sure_right: int = 0
    wrong: int = 0
    unsure: int = 0
    no_verdict: int = 0
    failed_looks: int = 0
    look_ms: list[float] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The figures as one JSON object."""
        overall, by_shape = sigma_calibration(self.z_by_shape)
        errors = np.array(self.errors_mm or [math.nan])
        return {
            "scenes": self.scenes,
            "pieces": self.pieces,
            "within_0_5_mm": self.within,
            "within_share": self.within / max(self.pieces, 1),
            "unseen": self.unseen,
            "error_mm_p50": float(np.median(errors)),
            "error_mm_p99": float(np.percentile(errors, 99)),
            "sigma_calibration": overall,
            "sigma_calibration_by_shape": by_shape,
            "verdicts": self.verdicts,
            "sure_right": self.sure_right,
            "wrong": self.wrong,
            "unsure": self.unsure,
            "no_verdict": self.no_verdict,
            "failed_looks": self.failed_looks,
            "look_ms_p50": float(np.median(self.look_ms)) if self.look_ms else math.nan,
            "look_ms_p95": float(np.percentile(self.look_ms, 95)) if self.look_ms else math.nan,
        }


def scenes_of(
    table: Table, profile: NoiseProfile, scenes: int, seed: int
) -> Iterator[tuple[tuple[Piece, ...], tuple[Piece, ...]]]:
    """Each drop's pieces before and after it (the dropped one last), from ``seed``."""
    world = TrueWorld(table, profile, seed)
    for number, color, shape, x, angle in turns(table, scenes, seed):
        if (number - 1) % GAME_DROPS == 0 and number > 1:
            world.clear()
        before = world.pieces
        world.drop(color, shape, x, angle, f"p{number}")
        yield before, world.pieces


def evaluate_camera(
    table: Table,
    profile: NoiseProfile,
    scenes: int,
    seed: int,
    prior_mm: float = 0.5,
    prior_deg: float = 1.0,
) -> CameraTally:
    """Locate and referee ``scenes`` seeded scenes; see the module's docstring."""
    setup = table.camera
    if setup is None:
        raise ValueError("the table has no camera")
    camera = VirtualCamera(table, profile, seed)
    params = load_params()
    sight = Sight(table.board, setup, params)
    rng = random.Random(f"{seed}:priors")
    tally = CameraTally()
    for before, after in scenes_of(table, profile, scenes, seed):
        tally.scenes += 1
        prior = {
            p.id: Pose(
                p.pose.x + rng.gauss(0, prior_mm),
                p.pose.y + rng.gauss(0, prior_mm),
                p.pose.angle + rng.gauss(0, prior_deg),
            )
            for p in before
        }
        known = [Known(p.id, p.color, p.shape, prior.get(p.id)) for p in after]
        try:
            frames = camera.look(after, EdgeFace.COLOR)
            start = time.process_time()  # CPU time: others' load does not count
            seen = sight.see(frames, [f"frame{i}" for i in range(len(frames))], known)
            tally.look_ms.append((time.process_time() - start) * 1000)
        except (CameraUnavailable, BoardNotFound):
            tally.failed_looks += 1
            continue
        _count(tally, table.board, params, after, list(seen.located), seen.held_wrong)
    return tally


def _count(
    tally: CameraTally,
    board: Board,
    params: PhysicsParams,
    after: tuple[Piece, ...],
    located: list[Located],
    held_wrong: tuple[str, ...],
) -> None:
    """Add one scene's pieces and verdict to ``tally``."""
    for truth, found in zip(after, located, strict=True):
        tally.pieces += 1
        if not found.seen or found.pose is None:
            tally.unseen += 1
            continue
        error = outline_error(board, truth, found.pose)
        tally.errors_mm.append(error)
        tally.within += error <= WITHIN_MM
        sx, sy, _ = found.sigma
        if error <= CALIBRATED_WITHIN_MM and sx > 0 and sy > 0:
            dx, dy = found.pose.x - truth.pose.x, found.pose.y - truth.pose.y
            tally.z_by_shape.setdefault(str(truth.shape), []).extend((dx / sx, dy / sy))
    dropped = after[-1]
    verdict = referee_located(
        board, EdgeFace.COLOR, located, dropped.id, held_wrong, physics=params
    )
    truth_verdict = judge(board, Position(EdgeFace.COLOR, after[:-1], dropped))
    tally.verdicts += 1
    if verdict is None:
        tally.no_verdict += 1
    elif not verdict.sure:
        tally.unsure += 1
    elif verdict.verdict.to_json() == truth_verdict.to_json():
        tally.sure_right += 1
    else:
        tally.wrong += 1
