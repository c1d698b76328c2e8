"""The camera on a foreign renderer's frames: does the locator generalise?

Renders seeded scenes with ``tests/camera/foreign_camera.py`` (a renderer written from
the reference set-up's description alone, docs/reference-table.md: a 3D pinhole camera
anywhere the set-up allows, pieces as prisms with a shaded rim, the pane's print, a
café, glare, blur, noise, JPEG), runs ``tabletop camera
look --json`` on each as an outside test would (``tests/camera/foreign_looks.py``) and
compares with the truth. Prints, overall and per bucket of px/mm (at the aimed point) and
tilt: pieces within 0.5 mm of their true outline, unseen pieces, the dropped piece's
verdicts (sure and right / sure and wrong / unsure / not seen), looks that missed a
marker or failed; then the worst errors with the scene that reproduces each.

Options: ``--scenes N`` (80), ``--seed S`` (1), ``--blur linear|srgb|both`` (linear: the
lens blurs in linear light, as a real one does; srgb: blurred on the sRGB values, as our
own renderers do), ``--calibration`` (also locate each look's files in-process, which
the command does not print the deviations of, and print the sigma calibration: the
spread of located minus true x and y over the reported deviations, pieces within 2 mm,
for all pieces and per shape; 1.0 is honest, more is overconfident).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

import cv2
import numpy as np

from firmware_host.camera.images import read_frame
from firmware_host.camera.pieces_file import load_pieces
from firmware_host.camera.sight import Sight
from firmware_host.model import load_params
from simulator.camera_eval import CALIBRATED_WITHIN_MM, sigma_calibration
from tests.camera.foreign_looks import (
    WITHIN_MM,
    Case,
    Outcome,
    look,
    outline_error,
    poses,
    random_case,
    table,
)


def bucket(case: Case) -> tuple[str, str]:
    """The case's px/mm and tilt buckets."""
    scale = "2.0-2.5" if case.scale < 2.5 else "2.5-3.0" if case.scale < 3.0 else "3.0-3.5"
    tilt = "0-4" if case.tilt < 4 else "4-8" if case.tilt < 8 else "8-12"
    return f"{scale} px/mm", f"tilt {tilt}"


class Tally:
    """The counts of a group of looks."""

    def __init__(self) -> None:
        self.looks = self.pieces = self.within = self.unseen = self.marker_missed = 0
        self.failed = 0
        self.verdicts: Counter[str] = Counter()

    def add(self, outcome: Outcome) -> None:
        """Count one look."""
        self.looks += 1
        for error in outcome.errors.values():
            self.pieces += 1
            if error is None:
                self.unseen += 1
            else:
                self.within += error <= WITHIN_MM
        self.marker_missed += len(outcome.markers) < 4
        self.verdicts[outcome.verdict_class] += 1

    def line(self) -> str:
        """The counts in one line."""
        share = 100 * self.within / max(self.pieces, 1)
        v = self.verdicts
        return (f"{self.looks} looks, {self.pieces} pieces: {share:.2f} % within 0.5 mm, "
                f"{self.unseen} unseen; dropped piece: {v['right']} sure and right, "
                f"{v['wrong']} sure and WRONG, {v['unsure']} unsure, {v['unseen']} not seen; "
                f"{self.marker_missed} looks missed a marker, {self.failed} failed")


class Deviations:
    """Located minus true x and y over the reported deviations, per shape, from looks
    located in-process on the files the command read."""

    def __init__(self) -> None:
        reference = table()
        assert reference.camera is not None
        self.setup = reference.camera
        self.board = reference.board
        self.sight = Sight(reference.board, reference.camera, load_params())
        self.by_shape: defaultdict[str, list[float]] = defaultdict(list)

    def add(self, case: Case, folder: Path) -> None:
        """Locate the look written into ``folder`` and keep its pieces' ratios."""
        _, truth = poses(case.seed, case.drop)
        paths = [str(p) for p in sorted(folder.glob("frame*.jpg"))]
        frames = [read_frame(path, self.setup.size) for path in paths]
        known = load_pieces(str(folder / "pieces.yaml")).pieces
        for true, found in zip(truth, self.sight.see(frames, paths, known).located,
                               strict=True):
            if not found.seen or found.pose is None:
                continue
            at = found.pose
            if outline_error(self.board, true, at.x, at.y, at.angle) > CALIBRATED_WITHIN_MM:
                continue
            sx, sy, _ = found.sigma
            self.by_shape[str(true.shape)] += [(found.pose.x - true.pose.x) / sx,
                                               (found.pose.y - true.pose.y) / sy]

    def line(self) -> str:
        """The calibration, all pieces and per shape."""
        overall, by_shape = sigma_calibration(self.by_shape)
        shapes = ", ".join(f"{shape} {z:.2f}" for shape, z in by_shape.items())
        return f"sigma calibration {overall:.2f} ({shapes})"


def run(scenes: int, seed: int, linear_blur: bool, calibration: bool = False) -> None:
    """Render, look and print the figures of ``scenes`` scenes (with ``calibration``,
    the sigma calibration of the same looks located in-process)."""
    deviations = Deviations() if calibration else None
    rng = np.random.default_rng(seed)
    total, groups = Tally(), defaultdict(Tally)
    worst: list[tuple[float, str, str]] = []
    wrong: list[str] = []
    start = time.process_time()
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(scenes):
            case = random_case(rng, seed=1000 * seed + i)
            case = Case(**{**case.__dict__, "linear_blur": linear_blur})
            folder = Path(tmp) / f"scene{i}"
            folder.mkdir()
            keys = bucket(case)
            try:
                outcome = look(case, folder)
            except RuntimeError as error:
                for tally in (total, *(groups[k] for k in keys)):
                    tally.failed += 1
                print(f"  failed: {error}")
                continue
            for tally in (total, *(groups[k] for k in keys)):
                tally.add(outcome)
            if deviations is not None:
                deviations.add(case, folder)
            for piece_id, error in outcome.errors.items():
                shown = "unseen" if error is None else f"{error:.2f} mm"
                if error is None or error > WITHIN_MM:
                    worst.append((np.inf if error is None else error, shown,
                                  f"{piece_id} of {case.describe()}"))
            if outcome.verdict_class == "wrong":
                wrong.append(f"{case.describe()}: {outcome.verdict} against {outcome.truth}")
    blur = "linear light" if linear_blur else "sRGB values"
    print(f"blur in {blur}, seed {seed}: {total.line()} "
          f"({time.process_time() - start:.0f} s CPU)")
    if deviations is not None:
        print(f"  {deviations.line()}")
    for key in sorted(groups):
        print(f"  {key}: {groups[key].line()}")
    print("  worst pieces (error, piece of scene):")
    for _, shown, where in sorted(worst, reverse=True)[:12]:
        print(f"    {shown}: {where}")
    for line in wrong:
        print(f"  sure and wrong: {line}")


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks camera_foreign")
    parser.add_argument("--scenes", type=int, default=80)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--blur", choices=("linear", "srgb", "both"), default="both")
    parser.add_argument("--calibration", action="store_true",
                        help="also print the sigma calibration (locates each look again)")
    args = parser.parse_args(sys.argv[1:])
    cv2.setNumThreads(1)
    for linear in {"linear": (True,), "srgb": (False,), "both": (True, False)}[args.blur]:
        run(args.scenes, args.seed, linear, args.calibration)
