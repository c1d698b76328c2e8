"""Calibrating the host's physics against a board: the procedure, played on the true world.

No model matches a real board, and the host's ``config/physics/host.yaml`` starts from
guesses. A café calibrates it once per board (docs/eye.md, "Calibrating the host's
physics"): a **calibration session** lets pieces go from a release jig (known x, angle and
height) onto the board, a game's worth at a time, and after each drop the staff confirm
the board (the poses the model is re-synced to, as after any staff call). Each record is
the board before, the release and the board after (:class:`Record`). :func:`fit` then
moves the friction, bounce, pane-drag and rolling-resistance values until the host's
model, dropping each record's release onto its board before, comes closest to the board
after (:func:`pose_error`): a coordinate search on a log scale, from the current values.

Here :func:`session` plays that session on the simulator's true world (the café's
board): the jig's release is the true world's actual release, the confirmed board its
true poses. That is the only place truth enters, and only as the staff's confirmation;
the eye itself never reads it. ``python -m simulator.calibrate`` prints the fitted values
for ``config/physics/host.yaml``.

>>> from firmware_host.config.noise import load_profile
>>> from firmware_host.config.table import load_table
>>> from firmware_host.model import load_params
>>> table = load_table()
>>> records = session(table, load_profile("realistic"), drops=4, seed=3)
>>> [len(r.after) - len(r.before) for r in records]
[1, 1, 1, 1]
>>> pose_error(table.board, load_params(), records) >= 0.0
True
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from firmware_host.config.board import Board
from firmware_host.config.noise import NoiseProfile, load_profile
from firmware_host.config.table import Table, load_table
from firmware_host.games.dropit.rules.pieces import Piece
from firmware_host.model import Drop, PhysicsParams, World, load_params
from firmware_host.model.space import reach
from firmware_host.model.supply import GAME_DROPS, supply_piece
from simulator.true_world import TrueWorld

MISS_CAP_MM = 40.0
"""A piece predicted further than this from where it was confirmed counts this much: one
chaotic landing must not outweigh the rest."""

ANGLE_MM_PER_DEGREE = 0.3
"""An angle error counts this many mm per degree (about a piece's radius in radians)."""

KNOBS: tuple[tuple[str, str | None], ...] = (
    ("friction", "piece_piece"),
    ("friction", "piece_wall"),
    ("elasticity", "piece_piece"),
    ("elasticity", "piece_wall"),
    ("pane_drag", "linear"),
    ("pane_drag", "angular"),
    ("rolling_resistance", None),
)
"""The values :func:`fit` moves: (section, key) in the physics file."""


@dataclass(frozen=True, slots=True)
class Record:
    """One calibration drop: the board confirmed before, the jig's release, the board
    confirmed after (the dropped piece last)."""

    before: tuple[Piece, ...]
    drop: Drop
    after: tuple[Piece, ...]


def session(table: Table, profile: NoiseProfile, drops: int, seed: int) -> list[Record]:
    """A calibration session of ``drops`` jig drops on the true world (games of
    :data:`~firmware_host.model.supply.GAME_DROPS`, the supply's pieces, x and angle drawn
    from ``seed``), each with the board confirmed before and after."""
    world = TrueWorld(table, profile, seed)
    rng = random.Random(f"{seed}:jig")
    records = []
    for k in range(drops):
        if k % GAME_DROPS == 0 and k:
            world.clear()
        color, shape = supply_piece(k % GAME_DROPS)
        angle = rng.uniform(0.0, 360.0)
        left, _, right, _ = reach(table.board, shape, math.radians(angle))
        x = rng.uniform(-left, table.board.width - right)
        before = world.pieces
        true = world.drop(color, shape, x, angle, f"p{k % GAME_DROPS + 1}")
        records.append(Record(before, true.actual, true.pieces))
    return records


def pose_error(board: Board, params: PhysicsParams, records: Sequence[Record]) -> float:
    """How far (mm per piece, averaged over every record's pieces) the model with
    ``params`` puts the pieces from where they were confirmed after each drop."""
    total, count = 0.0, 0
    for record in records:
        world = World.at_rest(board, params, record.before)
        world.drop(record.drop, record.after[-1].id)
        for got, want in zip(world.pieces, record.after, strict=True):
            turn = abs((got.pose.angle - want.pose.angle + 180.0) % 360.0 - 180.0)
            miss = math.hypot(got.pose.x - want.pose.x, got.pose.y - want.pose.y)
            total += min(MISS_CAP_MM, miss + ANGLE_MM_PER_DEGREE * turn)
            count += 1
    return total / max(1, count)


def _get(params: PhysicsParams, knob: tuple[str, str | None]) -> float:
    section, key = knob
    value = getattr(params, section)
    return float(value if key is None else getattr(value, key))


def _set(params: PhysicsParams, knob: tuple[str, str | None], value: float) -> PhysicsParams:
    section, key = knob
    if key is None:
        return params.model_copy(update={section: value})
    part = getattr(params, section)
    if section == "elasticity":
        value = min(value, 1.0)
    return params.model_copy(update={section: part.model_copy(update={key: value})})


def fit(
    board: Board,
    start: PhysicsParams,
    records: Sequence[Record],
    knobs: Sequence[tuple[str, str | None]] = KNOBS,
    step: float = 0.3,
    rounds: int = 3,
    report: Callable[[str], None] | None = None,
) -> PhysicsParams:
    """The physics closest to ``records`` (:func:`pose_error`), from ``start``: each of
    ``knobs`` in turn is multiplied or divided by ``exp(step)`` while that lowers the
    error; the step halves every round."""
    best, error = start, pose_error(board, start, records)
    for _ in range(rounds):
        for knob in knobs:
            for direction in (1.0, -1.0):
                while True:
                    value = _get(best, knob) * math.exp(direction * step)
                    trial = _set(best, knob, value)
                    trial_error = pose_error(board, trial, records)
                    if trial_error >= error:
                        break
                    best, error = trial, trial_error
                    if report is not None:
                        report(f"{knob[0]}.{knob[1] or ''} = {value:.4g}: {error:.3f} mm")
        step /= 2
    return best


def main(argv: Sequence[str]) -> None:
    """``python -m simulator.calibrate [DROPS] [SEED]``: play a realistic calibration
    session and print the fitted values next to the host's current ones."""
    drops = int(argv[0]) if argv else 2 * GAME_DROPS
    seed = int(argv[1]) if len(argv) > 1 else 7
    table, start = load_table(), load_params()
    records = session(table, load_profile("realistic"), drops, seed)
    print(f"{drops} jig drops, seed {seed}: {pose_error(table.board, start, records):.3f} mm")
    fitted = fit(table.board, start, records, report=print)
    for knob in KNOBS:
        name = f"{knob[0]}.{knob[1]}" if knob[1] else knob[0]
        print(f"{name:<24} {_get(start, knob):9.4g} -> {_get(fitted, knob):9.4g}")


if __name__ == "__main__":
    main(sys.argv[1:])
