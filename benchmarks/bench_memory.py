"""How much memory the service takes with the camera: peak RSS of whole processes.

Two figures, each a fresh child process measured by the kernel (``os.wait4``'s maximum
resident set size):

- the service on the simulator playing a whole game of 36 drops with the camera
  (``tabletop run --sim --autoplay``, the page off): the virtual camera renders its
  frames in that process, so this is the product plus the simulator's renderer;
- ``tabletop camera look`` on a full board (36 pieces, the reference camera's 3 frames of
  1600x1200, written as PNG files first, realistic noise): the camera's part of the
  product alone, no renderer imported.

The target is the service with the camera under 200 MB (a Raspberry Pi 4 has 1-8 GB).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import cv2
import yaml

from firmware_host.config.board import EdgeFace
from firmware_host.config.noise import load_profile
from firmware_host.config.table import load_table
from simulator.camera_eval import scenes_of
from simulator.virtual_camera import VirtualCamera


def main() -> None:
    """Print the two peaks."""
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        game = [
            "run", "--sim", "--autoplay", "--speed", "50", "--http", "off",
            "--journal", str(work / "journal.sqlite3"), "--seed", "1",
        ]
        print(f"the service on the simulator, a whole game with the camera: {peak_mb(game):.0f} MB")
        look = [*full_board(work), "--json"]
        print(f"tabletop camera look, a full board (36 pieces, 3 frames): {peak_mb(look):.0f} MB")


def peak_mb(args: list[str]) -> float:
    """The peak RSS (MB) of ``python -m firmware_host ARGS`` run to its end."""
    child = subprocess.Popen(
        [sys.executable, "-m", "firmware_host", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert child.stderr is not None
    errors = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(args[:2])} failed: {errors.decode()[-500:]}")
    return usage.ru_maxrss / 1024


def full_board(folder: Path) -> list[str]:
    """A game's last board (36 pieces) as the reference camera sees it, written to
    ``folder`` as 3 PNG frames and a pieces file: the arguments of ``camera look``."""
    table = load_table()
    *_, (_, after) = scenes_of(table, load_profile("realistic"), 36, 2)
    frames = VirtualCamera(table, load_profile("realistic"), 2).look(after, EdgeFace.COLOR)
    names = []
    for i, frame in enumerate(frames):
        names.append(str(folder / f"frame{i}.png"))
        cv2.imwrite(names[-1], frame)
    pieces = {
        "edges": "color",
        "pieces": [
            {"id": p.id, "color": p.color.value, "shape": p.shape.value,
             "x": p.pose.x, "y": p.pose.y, "angle": p.pose.angle}
            for p in after
        ],
    }
    (folder / "pieces.yaml").write_text(yaml.safe_dump(pieces))
    return ["camera", "look", *names, "--pieces", str(folder / "pieces.yaml"),
            "--dropped", after[-1].id]
