"""``tabletop camera look`` on frames of a foreign renderer, as an outside test runs it.

The frames come from :mod:`tests.camera.foreign_camera`, which shares nothing with the
renderers the locator was developed on. The camera's bar is every piece within 0.5 mm of
its outline on real-looking frames, the board found from its markers at any position,
roll and tilt the set-up allows. On these frames the bar is not met for every piece (about
94 % lie within 0.5 mm, docs/camera.md, "On a second renderer's frames"): these tests hold
what is met (every marker found, no piece placed far off, no sure verdict wrong) and the
share within 0.5 mm over the six looks, so that a change that loses ground fails.

The set-up's 3.5 px/mm cannot show all four markers in a 1200 px high frame (they span
396 mm with their quiet zones: 2.99 px/mm at most, square on); the largest scale here is
the largest that keeps them in the frame (:func:`fitted`), with the camera leaning 12
degrees from below so that the floor, where the pieces lie, comes nearer (3.1-3.2 px/mm
there).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.camera.foreign_camera import SIZE, cafe, to_srgb
from tests.camera.foreign_looks import (
    WITHIN_MM,
    Case,
    Outcome,
    fitted,
    look,
    table,
    write_look,
)

CASES = [
    Case(seed=21, drop=14, scale=2.0, tilt=0.0, direction=0.0, roll=0.0, frames=3),
    Case(seed=22, drop=24, scale=2.0, tilt=12.0, direction=200.0, roll=3.0, frames=1),
    Case(seed=23, drop=30, scale=2.75, tilt=6.0, direction=45.0, roll=-3.0, frames=3),
    Case(seed=24, drop=18, scale=2.75, tilt=12.0, direction=130.0, roll=3.0, frames=1,
         distance=420.0, aim=(140.0, 150.0)),
    fitted(Case(seed=25, drop=33, scale=3.5, tilt=12.0, direction=-90.0, roll=-3.0,
                frames=3, distance=560.0)),
    fitted(Case(seed=26, drop=9, scale=3.5, tilt=6.0, direction=300.0, roll=2.0, frames=1,
                distance=600.0, principal=(815.0, 590.0))),
]


FAR_MM = 1.5
"""No seen piece lies farther than this from its outline (a swap, a half fit on another
piece, a knocked piece's fit stopped on the way: each was tens of millimetres or several
off before the locator's fixes)."""
SHARE_WITHIN = 0.9
"""At least this share of the six looks' pieces lies within :data:`WITHIN_MM`."""


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> list[Outcome]:
    """What the command said of each case."""
    return [look(case, tmp_path_factory.mktemp("look")) for case in CASES]


@pytest.mark.parametrize("index", range(len(CASES)),
                         ids=[f"{c.scale:.2f}px-tilt{c.tilt:g}" for c in CASES])
def test_the_board_is_found_and_no_piece_is_placed_far_off(
    outcomes: list[Outcome], index: int
) -> None:
    case, outcome = CASES[index], outcomes[index]
    assert outcome.markers == [0, 1, 2, 3], case
    far = {i: e for i, e in outcome.errors.items() if e is not None and e > FAR_MM}
    assert not far, f"pieces off by more than {FAR_MM} mm: {far} in {case}"
    seen = [e for e in outcome.errors.values() if e is not None]
    assert len(seen) >= 0.9 * len(outcome.errors), f"unseen: {outcome.errors} in {case}"
    if outcome.verdict is not None and outcome.verdict["sure"]:
        assert outcome.verdict_class == "right", (outcome.verdict, outcome.truth, case)


def test_most_pieces_lie_within_half_a_millimetre(outcomes: list[Outcome]) -> None:
    errors = [e for outcome in outcomes for e in outcome.errors.values()]
    within = sum(e is not None and e <= WITHIN_MM for e in errors)
    assert within >= SHARE_WITHIN * len(errors), f"{within} of {len(errors)} within {WITHIN_MM} mm"


def test_the_renderer_is_seeded(tmp_path: Path) -> None:
    folders = [tmp_path / "a", tmp_path / "b"]
    for folder in folders:
        folder.mkdir()
    first, second = (write_look(CASES[1], folder) for folder in folders)
    for a, b in zip(first.frames, second.frames, strict=True):
        assert Path(a).read_bytes() == Path(b).read_bytes()


def _tabletop(*args: str) -> subprocess.CompletedProcess[str]:
    """``tabletop`` as its own process, the way an outside test calls it."""
    return subprocess.run([sys.executable, "-m", "firmware_host", *args],
                          capture_output=True, text=True, timeout=120, check=False)


def test_an_unreadable_frame_or_one_without_markers_exits_2_naming_the_file(
    tmp_path: Path,
) -> None:
    files = write_look(CASES[0], tmp_path)
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(Path(files.frames[0]).read_bytes()[:5000])  # a cut-off transfer
    empty = tmp_path / "cafe.jpg"  # the café alone: the camera knocked off the board
    view = to_srgb(cafe(np.random.default_rng(3), [table().camera.colors.of("red")]))
    cv2.imwrite(str(empty), np.clip(view, 0, 255).astype(np.uint8))
    assert cv2.imread(str(empty)).shape == (SIZE[1], SIZE[0], 3)
    for bad in (broken, empty):
        done = _tabletop("camera", "look", files.frames[0], str(bad), "--pieces", files.pieces,
                         "--json")
        assert done.returncode == 2, (bad, done.stderr)
        assert done.stdout == ""
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and str(bad) in lines[0], done.stderr
