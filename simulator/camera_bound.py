"""What a camera of a given precision lets the referee do: how many drops it must ask about.

The camera's own figures (``python -m benchmarks camera``) mix two things: how precisely it
locates the pieces, and how often a drop lands so close to a rule's line (a touch within
the board's tolerance, an edge segment, a bonus circle, the level line) that no camera of
that precision could decide it. This module measures the second on its own, for an ideal
camera: every piece seen, its whole outline found, located at its true pose moved by
Gaussian noise of ``sigma`` mm on each axis (and :data:`DEGREES_PER_MM` times that in
angle, the ratio the real camera's fits show), with exactly that deviation and no board
share. The referee's rule (:func:`~firmware_host.camera.verdict.referee_located`, the
dropped piece and each neighbour moved ``sigmas`` deviations) then decides or is unsure,
and a decided verdict is compared with
:func:`~firmware_host.games.dropit.rules.landing.judge` on the true poses. The scenes
are the camera evaluation's (:func:`simulator.camera_eval.scenes_of`).

>>> from firmware_host.config.noise import load_profile
>>> from firmware_host.config.table import load_table
>>> rows = measure(load_table(), load_profile("clean"), scenes=3, seed=1,
...                sigmas_mm=(0.05,), rules=(3.0,))
>>> [(row.sigma_mm, row.sigmas, row.scenes) for row in rows]
[(0.05, 3.0, 3)]
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from firmware_host.camera.locate import Known, Located
from firmware_host.camera.verdict import referee_located
from firmware_host.config.board import EdgeFace
from firmware_host.config.noise import NoiseProfile
from firmware_host.config.table import Table
from firmware_host.games.dropit.rules.landing import judge
from firmware_host.games.dropit.rules.pieces import Piece, Pose
from firmware_host.games.dropit.rules.position import Position
from firmware_host.model import load_params
from simulator.camera_eval import scenes_of

DEGREES_PER_MM = 1.6
"""An outline fit's angle deviation (degrees) per mm of its position deviation: the median
ratio of the real camera's fits on realistic frames (1.3-2.3 from the 10th to the 90th
percentile)."""

SIGMAS_MM = (0.02, 0.03, 0.05, 0.08, 0.12)
"""The precisions measured by default (mm, one standard deviation per axis); the camera
of today locates pieces at about 0.08."""

RULES = (2.0, 2.5, 3.0)
"""The referee's rules measured by default: how many deviations a decision must stand
clear of (the referee uses :data:`~firmware_host.camera.verdict.SIGMAS`)."""


@dataclass(frozen=True)
class BoundRow:
    """One precision and rule: of ``scenes`` drops, how many the referee was unsure of and
    how many it decided wrongly."""

    sigma_mm: float
    sigmas: float
    scenes: int
    unsure: int
    wrong: int

    @property
    def unsure_share(self) -> float:
        """The share of drops the referee would ask about."""
        return self.unsure / self.scenes if self.scenes else 0.0

    @property
    def wrong_share(self) -> float:
        """The share of drops the referee decided wrongly."""
        return self.wrong / self.scenes if self.scenes else 0.0


def located_with_noise(
    pieces: Sequence[Piece], sigma_mm: float, rng: random.Random
) -> list[Located]:
    """``pieces`` as the ideal camera of precision ``sigma_mm`` locates them."""
    sigma_deg = DEGREES_PER_MM * sigma_mm
    return [
        Located(
            Known(p.id, p.color, p.shape),
            Pose(
                p.pose.x + rng.gauss(0.0, sigma_mm),
                p.pose.y + rng.gauss(0.0, sigma_mm),
                p.pose.angle + rng.gauss(0.0, sigma_deg),
            ),
            seen=True,
            sigma=(sigma_mm, sigma_mm, sigma_deg),
            found=1.0,
            rms_mm=0.0,
        )
        for p in pieces
    ]


def measure(
    table: Table,
    profile: NoiseProfile,
    scenes: int,
    seed: int,
    sigmas_mm: Sequence[float] = SIGMAS_MM,
    rules: Sequence[float] = RULES,
) -> list[BoundRow]:
    """For each precision and rule, the ideal camera's unsure and wrong drops over
    ``scenes`` seeded scenes (one noise draw per scene and precision, the same for every
    rule, from ``seed``)."""
    physics = load_params()
    unsure = {(s, k): 0 for s in sigmas_mm for k in rules}
    wrong = dict(unsure)
    count = 0
    for _, after in scenes_of(table, profile, scenes, seed):
        count += 1
        dropped = after[-1]
        truth = judge(table.board, Position(EdgeFace.COLOR, after[:-1], dropped)).to_json()
        for sigma in sigmas_mm:
            rng = random.Random(f"{seed}:{count}:{sigma}")
            located = located_with_noise(after, sigma, rng)
            for k in rules:
                verdict = referee_located(
                    table.board, EdgeFace.COLOR, located, dropped.id, sigmas=k,
                    physics=physics,
                )
                if verdict is None or not verdict.sure:
                    unsure[sigma, k] += 1
                elif verdict.verdict.to_json() != truth:
                    wrong[sigma, k] += 1
    return [
        BoundRow(s, k, count, unsure[s, k], wrong[s, k]) for s in sigmas_mm for k in rules
    ]
