"""The dropped piece's verdict from located poses, and whether the referee is sure of it.

The verdict is :func:`~firmware_host.rules.landing.judge` on the located poses. The referee
is *sure* when no decision of that verdict (a touch within the tolerance, an edge segment,
a bonus circle, the level line, the top line) changes anywhere within the poses'
uncertainty: the dropped piece is moved :data:`SIGMAS` standard deviations in eight
directions and turned as far both ways, its standard deviation combined with that of the
least certain piece near it, and every such verdict must equal the located one. A piece
near the dropped one that the camera did not see makes the verdict unsure too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from firmware_host.camera.locate import Located
from firmware_host.config.board import Board, EdgeFace
from firmware_host.rules.landing import Verdict, judge
from firmware_host.rules.pieces import Piece, Pose
from firmware_host.rules.position import Position

SIGMAS = 3.0
"""How many standard deviations a decision must stand clear of to be sure."""
NEIGHBOURHOOD_MM = 70.0
"""Pieces whose centres lie this close to the dropped one's count for its uncertainty."""


@dataclass(frozen=True)
class CameraVerdict:
    """The verdict at the located poses and whether it holds within their uncertainty;
    ``doubts`` says, in words, what made it unsure."""

    verdict: Verdict
    sure: bool
    doubts: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        """The keys of ``tabletop judge --json`` plus ``sure``."""
        return {**self.verdict.to_json(), "sure": self.sure}


def _decisions(verdict: Verdict) -> dict[str, object]:
    """What a verdict decided, comparable between poses."""
    return {
        "broken": verdict.broken,
        "level": verdict.level,
        "bonus": tuple(verdict.bonus_circles),
        "touching": sorted(p.id for p in verdict.touching),
        "edges": verdict.edges,
    }


def referee_located(
    board: Board, edges: EdgeFace, located: Sequence[Located], dropped_id: str
) -> CameraVerdict | None:
    """The dropped piece's verdict (None when the camera did not see the dropped piece)."""
    dropped = next(p for p in located if p.known.id == dropped_id)
    if not dropped.seen or dropped.pose is None:
        return None
    at = dropped.pose
    others = [
        (p, p.pose) for p in located if p.known.id != dropped_id and p.pose is not None
    ]
    pieces = tuple(Piece(p.known.id, p.known.color, p.known.shape, pose) for p, pose in others)

    def verdict_at(pose: Pose) -> Verdict:
        piece = Piece(dropped_id, dropped.known.color, dropped.known.shape, pose)
        return judge(board, Position(edges, pieces, piece))

    located_verdict = verdict_at(at)
    doubts: list[str] = []
    near = [p for p, pose in others if math.hypot(pose.x - at.x, pose.y - at.y) < NEIGHBOURHOOD_MM]
    unseen = [p.known.id for p in near if not p.seen]
    if unseen:
        doubts.append(f"the camera did not see {', '.join(unseen)} near the dropped piece")
    sx, sy, sa = dropped.sigma
    worst = max((max(p.sigma[0], p.sigma[1]) for p in near if p.seen), default=0.0)
    sx, sy = math.hypot(sx, worst), math.hypot(sy, worst)
    reference = _decisions(located_verdict)
    moves = [(math.cos(k * math.pi / 4), math.sin(k * math.pi / 4)) for k in range(8)]
    trials = [Pose(at.x + SIGMAS * sx * cx, at.y + SIGMAS * sy * cy, at.angle) for cx, cy in moves]
    if math.isfinite(sa) and sa > 0:
        trials += [Pose(at.x, at.y, at.angle + SIGMAS * sa * s) for s in (-1, 1)]
    for pose in trials:
        changed = _decisions(verdict_at(pose))
        if changed != reference:
            keys = [k for k in reference if reference[k] != changed[k]]
            doubts.append(f"{', '.join(keys)} change within the located pose's uncertainty")
            break
    return CameraVerdict(located_verdict, not doubts, tuple(doubts))
