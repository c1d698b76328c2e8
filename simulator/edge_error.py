"""Where the camera's located poses get their error: the edge finder at the true outlines.

A pose is fitted to the offsets the edge finder gives along profiles across a piece's
outline (:mod:`firmware_host.camera.outline`). This module puts those profiles on the
*true* outline of every piece in the virtual camera's frames and measures the offsets
there, which a perfect edge finder would give as 0: each profile's offset is its own
error. The profiles are sorted by what lies just beyond them (see :data:`CONTEXTS`): open
background, another piece at a contact or across a narrow gap, a wall; and whether the
piece's darker rim shows there (its side, seen in perspective, on the sides that face the
camera's foot). Per context: how many profiles found an edge, their median offset (a
shift every side shares moves no centroid) and its spread, and the spread of each side's
mean offset (a side's error moves the pose; errors within a side mostly average out).
Each piece's pose error is the fit's step from the truth on those offsets (the product's
own robust Gauss-Newton step): what the located poses' precision is made of.

>>> from firmware_host.config.noise import load_profile
>>> from firmware_host.config.table import load_table
>>> found = measure(load_table(), load_profile("clean"), scenes=2, seed=1)
>>> found.pieces, sorted(found.rows)
(3, ['open', 'open, rim', 'wall'])
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from firmware_host.camera.artwork import Artwork
from firmware_host.camera.outline import (
    REACH_MM,
    STEP_MM,
    TIGHT_SCALE_MM,
    _gauss_newton_steps,
    outline_points,
    profile_offsets,
    shaded_faces,
)
from firmware_host.camera.scene import LookFrames
from firmware_host.config.board import EdgeFace
from firmware_host.config.noise import NoiseProfile
from firmware_host.config.table import Table
from firmware_host.games.dropit.rules.pieces import Piece, Shape
from simulator.board_drawing import PIECE_THICKNESS, outline_of
from simulator.camera_eval import scenes_of
from simulator.virtual_camera import CameraUnavailable, VirtualCamera

Array = np.ndarray

RIM_MM = 0.2
"""A profile's side shows a rim when the rim is wider than this there (mm on the board)."""
CONTEXTS: tuple[tuple[str, float, float], ...] = (
    ("contact", 0.0, 0.2),
    ("narrow gap", 0.2, 1.5),
    ("gap", 1.5, 4.0),
    ("open", 4.0, math.inf),
)
"""What lies beyond a profile: another piece's outline within ``[low, high)`` mm of its
point (``open``: none within 4 mm, and no wall either)."""
WALL_MM = 4.0
"""A profile this close to a wall or the floor is in the ``wall`` context."""


@dataclass
class ContextRow:
    """One context's profiles: their offsets from the true outline (mm; NaN where the
    edge finder found no edge) and each side's mean offset."""

    offsets: list[float] = field(default_factory=list)
    side_means: list[float] = field(default_factory=list)

    @property
    def found_share(self) -> float:
        """The share of profiles on which the edge finder found an edge."""
        values = np.array(self.offsets)
        return float(np.isfinite(values).mean()) if len(values) else math.nan

    def median(self) -> float:
        """The median offset (mm) of the profiles that found an edge."""
        return _median(self.offsets)

    def spread(self) -> float:
        """The profiles' robust spread (1.4826 MAD, mm)."""
        return _mad(self.offsets)

    def side_spread(self) -> float:
        """The sides' mean offsets' robust spread (1.4826 MAD, mm): what moves poses."""
        return _mad(self.side_means)


@dataclass
class EdgeErrors:
    """The edge finder's offsets at the true outlines, per context (:data:`CONTEXTS` and
    ``wall``, each split by whether a rim shows: ``"open, rim"``), and each piece's pose
    error (mm, x and y) from them."""

    rows: dict[str, ContextRow] = field(default_factory=dict)
    pose_errors: list[tuple[float, float]] = field(default_factory=list)

    @property
    def pieces(self) -> int:
        """How many pieces were measured."""
        return len(self.pose_errors)

    def pose_spread(self) -> tuple[float, float]:
        """The pose errors' robust spread per axis (1.4826 MAD about 0, mm)."""
        errors = np.array(self.pose_errors).reshape(-1, 2)
        if not len(errors):
            return (math.nan, math.nan)
        mad = 1.4826 * np.median(np.abs(errors), axis=0)
        return (float(mad[0]), float(mad[1]))


def measure(table: Table, profile: NoiseProfile, scenes: int, seed: int) -> EdgeErrors:
    """The edge finder's offsets at the true outlines of ``scenes`` seeded scenes."""
    if table.camera is None:
        raise ValueError("the table has no camera")
    camera = VirtualCamera(table, profile, seed)
    artwork = Artwork(table.board)
    found = EdgeErrors()
    for _, after in scenes_of(table, profile, scenes, seed):
        try:
            frames = camera.look(after, EdgeFace.COLOR)
        except CameraUnavailable:
            continue
        look = LookFrames(table.camera.markers, frames, [f"frame {i}" for i in range(len(frames))])
        _measure_scene(table, look, after, camera.view.eye, artwork, found)
    return found


def _measure_scene(
    table: Table,
    look: LookFrames,
    pieces: Sequence[Piece],
    eye: Array,
    artwork: Artwork,
    found: EdgeErrors,
) -> None:
    """Add one look's profiles and pose errors to ``found``."""
    board = table.board
    offsets = np.arange(-REACH_MM, REACH_MM + STEP_MM / 2, STEP_MM)
    _, shades = shaded_faces(look, board, [(p.shape, p.pose) for p in pieces], artwork)
    outlines = [outline_of(board, p.shape, p.pose) for p in pieces]
    for index, piece in enumerate(pieces):
        outline = outline_points(board, piece.shape, piece.pose)
        residuals = profile_offsets(
            look, artwork, outline.points, outline.normals,
            np.repeat(shades[index][None], len(outline.points), axis=0), offsets,
        )
        usable = ~artwork.near(outline.points)  # profiles at the pane's print are left out
        beyond = _beyond(outline.points, [o for k, o in enumerate(outlines) if k != index])
        wall = np.minimum.reduce(
            [outline.points[:, 1], outline.points[:, 0], board.width - outline.points[:, 0]]
        )
        toward_foot = eye[:2] - outline.points
        rim = np.einsum("ij,ij->i", toward_foot, outline.normals) * (
            PIECE_THICKNESS / (eye[2] + PIECE_THICKNESS)
        )
        contexts = _contexts(beyond, wall, rim)
        sides = _sides(outline.normals, piece.shape)
        for name in set(contexts[usable]):
            row = found.rows.setdefault(name, ContextRow())
            mine = (contexts == name) & usable
            row.offsets += residuals[mine].tolist()
            for side in set(sides[mine].tolist()):
                on_side = mine & (sides == side) & np.isfinite(residuals)
                if on_side.sum() >= 6:
                    row.side_means.append(float(residuals[on_side].mean()))
        jacobian = np.c_[outline.normals, outline.levers]
        circle = np.array([piece.shape is Shape.CIRCLE])
        _, steps = _gauss_newton_steps(
            np.where(usable, residuals, np.nan), jacobian, np.zeros(len(residuals), np.int64),
            circle, TIGHT_SCALE_MM,
        )
        if np.isfinite(steps[0, 0]):
            found.pose_errors.append((float(steps[0, 0]), float(steps[0, 1])))


def _beyond(points: Array, others: Sequence[Array]) -> Array:
    """Each point's distance (mm) to the nearest of the ``others`` outlines (polygons)."""
    nearest = np.full(len(points), np.inf)
    for polygon in others:
        low, high = polygon.min(axis=0) - 5.0, polygon.max(axis=0) + 5.0
        close = np.all((points >= low) & (points <= high), axis=1)
        if not close.any():
            continue
        a, b = polygon, np.roll(polygon, -1, axis=0)
        edge = b - a
        rel = points[close, None, :] - a[None]
        t = np.clip(np.einsum("pkc,kc->pk", rel, edge) / np.einsum("kc,kc->k", edge, edge), 0, 1)
        gap = np.linalg.norm(rel - t[..., None] * edge[None], axis=2).min(axis=1)
        nearest[close] = np.minimum(nearest[close], gap)
    return nearest


def _contexts(beyond: Array, wall: Array, rim: Array) -> Array:
    """Each profile's context name (:data:`CONTEXTS`, or ``wall``), with ``, rim`` where
    its side shows a rim."""
    names = np.full(len(beyond), "open", dtype=object)
    for name, low, high in CONTEXTS:
        names[(beyond >= low) & (beyond < high)] = name
    names[(wall < WALL_MM) & (beyond >= CONTEXTS[-1][1])] = "wall"
    return np.where(rim > RIM_MM, names + ", rim", names)


def _sides(normals: Array, shape: Shape) -> Array:
    """Which side each profile lies on: a polygon's sides by their normals, a circle's by
    eighths of its turn."""
    turn = np.degrees(np.arctan2(normals[:, 1], normals[:, 0]))
    if shape is Shape.CIRCLE:
        return np.floor(turn / 45.0).astype(int)
    return np.round(turn).astype(int)


def _median(values: Sequence[float]) -> float:
    finite = np.array(values)[np.isfinite(values)]
    return float(np.median(finite)) if len(finite) else math.nan


def _mad(values: Sequence[float]) -> float:
    finite = np.array(values)[np.isfinite(values)]
    if not len(finite):
        return math.nan
    return float(1.4826 * np.median(np.abs(finite - np.median(finite))))
