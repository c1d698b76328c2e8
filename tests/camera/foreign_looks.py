"""Looks on the foreign camera's frames, run through ``tabletop camera look`` as an outside
test runs it, and compared with the truth.

The poses come from our simulator's true world (a seeded game, as the camera benchmark
gets its scenes: :func:`simulator.camera_eval.scenes_of`); only the drawing is foreign
(:mod:`tests.camera.foreign_camera`). The command gets every piece's true pose before the
drop moved by Gaussian noise (0.5 mm, 1 degree) as its prior, the dropped piece none
(docs/camera.md), and its verdict is compared with ``tabletop judge --json`` on the
true poses.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from firmware_host.cli import main
from firmware_host.config.board import Board, CircleShape
from firmware_host.config.noise import load_profile
from firmware_host.config.table import Table, load_table
from firmware_host.games.dropit.rules.geometry import turn_period
from firmware_host.games.dropit.rules.pieces import Piece
from simulator.camera_eval import scenes_of
from tests.camera.foreign_camera import Rig, markers_in_frame, render_look

WITHIN_MM = 0.5
"""A piece is located when its outline lies this close to the true one (docs/camera.md)."""
PRIOR_MM, PRIOR_DEG = 0.5, 1.0
"""The model's error on a prior pose (per axis, and its angle)."""


@cache
def table() -> Table:
    """The reference table."""
    return load_table()


@dataclass(frozen=True)
class Case:
    """One foreign look: the game (``seed``) and the drop after which it is taken, the
    camera (px/mm at the aimed point, lean and its direction, roll, distance, aimed
    point, principal point) and the frames of the look."""

    seed: int
    drop: int
    scale: float
    tilt: float
    direction: float
    roll: float
    frames: int = 3
    linear_blur: bool = True
    distance: float = 500.0
    aim: tuple[float, float] = (150.0, 155.0)
    principal: tuple[float, float] = (800.0, 600.0)

    def rig(self) -> Rig:
        """The case's camera."""
        return Rig.aimed(self.scale, self.tilt, self.direction, self.roll, self.distance,
                         self.aim, self.principal)

    def describe(self) -> str:
        """The case as the line of Python that makes it again."""
        return repr(self)


def random_case(rng: np.random.Generator, seed: int) -> Case:
    """A camera anywhere the set-up allows (docs/reference-table.md) after a drop of game ``seed``:
    40-60 cm, leaning up to 12 degrees, rolled up to 4; 2-3.5 px/mm, as much of it as
    keeps every marker in the frame."""
    def draw(low: float, high: float) -> float:
        return round(float(rng.uniform(low, high)), 3)

    case = Case(
        seed=seed,
        drop=int(rng.integers(4, 37)),
        scale=draw(2.0, 3.5),
        tilt=draw(0.0, 12.0),
        direction=draw(0.0, 360.0),
        roll=draw(-4.0, 4.0),
        frames=int(rng.choice([1, 3])),
        distance=draw(400.0, 600.0),
        aim=(draw(130, 170), draw(135, 175)),
        principal=(draw(775, 825), draw(575, 625)),
    )
    return fitted(case)


def fitted(case: Case) -> Case:
    """``case`` with its scale lowered, if need be, until every marker is in the frame."""
    setup = table().camera
    assert setup is not None
    while not markers_in_frame(case.rig(), setup):
        case = Case(**{**case.__dict__, "scale": round(case.scale * 0.98, 3)})
    return case


@cache
def poses(seed: int, drop: int) -> tuple[tuple[Piece, ...], tuple[Piece, ...]]:
    """The pieces before and after drop ``drop`` (1-36) of game ``seed``."""
    *_, last = scenes_of(table(), load_profile("realistic"), drop, seed)
    return last


@dataclass(frozen=True)
class Files:
    """A look's files: its frames, its pieces file, and the truth after the drop."""

    frames: list[str]
    pieces: str
    truth: tuple[Piece, ...]


def write_look(case: Case, folder: Path) -> Files:
    """The case's frames (JPEG) and pieces file, written into ``folder``."""
    before, after = poses(case.seed, case.drop)
    rng = np.random.default_rng([case.seed, case.drop, 7])
    frames = []
    for i, data in enumerate(render_look(table(), after, case.rig(), rng, case.frames,
                                          linear_blur=case.linear_blur)):
        path = folder / f"frame{i}.jpg"
        path.write_bytes(data)
        frames.append(str(path))
    prior = {p.id: p.pose for p in before}
    entries: list[dict[str, Any]] = []
    for p in after:
        entry: dict[str, Any] = {"id": p.id, "color": str(p.color), "shape": str(p.shape)}
        if p.id in prior:
            entry.update(x=float(prior[p.id].x + rng.normal(0, PRIOR_MM)),
                         y=float(prior[p.id].y + rng.normal(0, PRIOR_MM)),
                         angle=float(prior[p.id].angle + rng.normal(0, PRIOR_DEG)))
        entries.append(entry)
    pieces = folder / "pieces.yaml"
    pieces.write_text(yaml.safe_dump({"edges": "color", "pieces": entries}))
    return Files(frames, str(pieces), after)


def tabletop(*args: str) -> tuple[int, str, str]:
    """Run the ``tabletop`` command in this process: its status, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(args))
    return status, out.getvalue(), err.getvalue()


def judge_truth(after: tuple[Piece, ...], folder: Path) -> dict[str, Any]:
    """``tabletop judge --json`` on the true poses, the last piece dropped."""

    def entry(p: Piece) -> dict[str, Any]:
        return {"id": p.id, "color": str(p.color), "shape": str(p.shape),
                "x": p.pose.x, "y": p.pose.y, "angle": p.pose.angle}

    dropped = entry(after[-1])
    del dropped["id"]
    position = folder / "truth.yaml"
    position.write_text(yaml.safe_dump(
        {"edges": "color", "pieces": [entry(p) for p in after[:-1]], "dropped": dropped}))
    status, out, err = tabletop("judge", str(position), "--json")
    if status != 0:
        raise RuntimeError(f"judge failed on the true poses: {err}")
    return json.loads(out)


def outline_error(board: Board, truth: Piece, x: float, y: float, angle: float) -> float:
    """The largest distance (mm) between a corner of the true outline and the same corner
    of the located one, up to the shape's symmetry (a circle: its centre's distance)."""
    dims = board.shapes.of(truth.shape)
    if isinstance(dims, CircleShape):
        return math.hypot(truth.pose.x - x, truth.pose.y - y)
    corners = np.asarray(dims.vertices, float)

    def placed(px: float, py: float, deg: float) -> np.ndarray:
        t = math.radians(deg)
        return corners @ np.array([[math.cos(t), math.sin(t)], [-math.sin(t), math.cos(t)]]) \
            + (px, py)

    true = placed(truth.pose.x, truth.pose.y, truth.pose.angle)
    period = turn_period(board, truth.shape)
    return min(
        float(np.linalg.norm(placed(x, y, angle + k * period) - true, axis=1).max())
        for k in range(round(360 / period))
    )


@dataclass(frozen=True)
class Outcome:
    """What the command said of a look, against the truth."""

    errors: dict[str, float | None]  # piece id -> outline error (mm), None when unseen
    markers: list[int]
    verdict: dict[str, Any] | None  # the command's verdict (with ``sure``)
    truth: dict[str, Any]  # judge on the true poses

    @property
    def dropped_error(self) -> float | None:
        """The dropped piece's outline error (None: not seen)."""
        return list(self.errors.values())[-1]

    @property
    def verdict_class(self) -> str:
        """``unseen``, ``unsure``, ``right`` or ``wrong`` (sure and not the truth's)."""
        if self.verdict is None:
            return "unseen"
        if not self.verdict["sure"]:
            return "unsure"
        keys = {k: v for k, v in self.verdict.items() if k != "sure"}
        return "right" if keys == self.truth else "wrong"


def look(case: Case, folder: Path) -> Outcome:
    """Render ``case`` into ``folder``, run ``tabletop camera look`` on it and compare."""
    files = write_look(case, folder)
    dropped = files.truth[-1].id
    status, out, err = tabletop("camera", "look", *files.frames, "--pieces", files.pieces,
                                "--dropped", dropped, "--json")
    if status != 0:
        raise RuntimeError(f"camera look exited {status}: {err.strip()} ({case.describe()})")
    result = json.loads(out)
    board = table().board
    errors: dict[str, float | None] = {}
    for got, truth in zip(result["pieces"], files.truth, strict=True):
        errors[truth.id] = (outline_error(board, truth, got["x"], got["y"], got["angle"])
                            if got["seen"] else None)
    return Outcome(errors, result["markers"], result["verdict"],
                   judge_truth(files.truth, folder))
