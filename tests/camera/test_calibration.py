"""Piece-colour calibration: the file format, the effective colours, ``camera calibrate``."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import cv2
import numpy as np
import pytest
import yaml

from firmware_host.camera.calibration import effective_colors, load_calibration, save_calibration
from firmware_host.camera.setup import REFERENCE_CAMERA, CameraSetup
from firmware_host.cli import main
from firmware_host.errors import InputError
from firmware_host.games.dropit.rules.pieces import Color, Pose, Shape
from tests.camera.synthetic import BLACK, WHITE, render

CAFE = {  # a café's light: every colour off its nominal value
    Color.RED: (180, 60, 40),
    Color.BLUE: (50, 70, 200),
    Color.YELLOW: (225, 190, 70),
    Color.GREEN: (60, 160, 60),
}
PIECES = [
    ("r1", Color.RED, Shape.SQUARE, Pose(60, 40, 10)),
    ("r2", Color.RED, Shape.CIRCLE, Pose(60, 120, 0)),
    ("b1", Color.BLUE, Shape.CIRCLE, Pose(120, 40, 0)),
    ("y1", Color.YELLOW, Shape.TRIANGLE, Pose(180, 40, 0)),
    ("g1", Color.GREEN, Shape.DIAMOND, Pose(240, 60, 0)),
]


def normalised(rgb: tuple[int, int, int]) -> np.ndarray:
    return (np.array(rgb, float) - BLACK) * 255 / (WHITE - BLACK)


@pytest.fixture(scope="module")
def frame_file(board, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("frames") / "still.png"
    frame = render(board, [(CAFE[c], shape, pose) for _, c, shape, pose in PIECES])
    cv2.imwrite(str(path), frame)
    return path


def pieces_file(folder: Path, pieces=PIECES, moved: dict[str, Pose] | None = None) -> Path:
    entries = []
    for pid, color, shape, pose in pieces:
        pose = (moved or {}).get(pid, pose)
        entries.append({"id": pid, "color": str(color), "shape": str(shape),
                        "x": pose.x, "y": pose.y, "angle": pose.angle})
    path = folder / "pieces.yaml"
    path.write_text(yaml.safe_dump({"edges": "color", "pieces": entries}))
    return path


def test_calibrate_measures_each_colour_and_writes_the_file(frame_file, tmp_path, capsys):
    out = tmp_path / "colours.yaml"
    status = main(["camera", "calibrate", str(frame_file), "--pieces",
                   str(pieces_file(tmp_path)), "--out", str(out)])
    assert status == 0, capsys.readouterr().err
    calibration = load_calibration(out)
    assert calibration.frames == 1
    for color in Color:
        assert np.allclose(calibration.of(color), normalised(CAFE[color]), atol=4), color
    assert "red" in capsys.readouterr().out


def test_a_wrong_pose_is_refused_naming_the_piece(frame_file, tmp_path, capsys):
    out = tmp_path / "colours.yaml"
    moved = {"b1": Pose(130, 40, 0)}
    status = main(["camera", "calibrate", str(frame_file), "--pieces",
                   str(pieces_file(tmp_path, moved=moved)), "--out", str(out)])
    err = capsys.readouterr().err
    assert status == 2
    assert "blue: the samples scatter" in err and "piece b1" in err
    assert not out.exists()


def test_a_colour_without_a_piece_is_refused(frame_file, tmp_path, capsys):
    no_green = [p for p in PIECES if p[1] != Color.GREEN]
    status = main(["camera", "calibrate", str(frame_file), "--pieces",
                   str(pieces_file(tmp_path, no_green)), "--out", str(tmp_path / "c.yaml")])
    assert status == 2
    assert "green: no green piece" in capsys.readouterr().err


def test_a_frame_without_the_board_is_one_line(board, tmp_path, capsys):
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((1200, 1600, 3), 200, np.uint8))
    status = main(["camera", "calibrate", str(blank), "--pieces", str(pieces_file(tmp_path)),
                   "--out", str(tmp_path / "c.yaml")])
    err = capsys.readouterr().err
    assert status == 2 and "blank.png" in err and len(err.strip().splitlines()) == 1


def test_effective_colours_are_the_calibrations_or_the_nominal_ones(tmp_path):
    nominal = CameraSetup.model_validate(REFERENCE_CAMERA)
    assert effective_colors(nominal, tmp_path)[Color.BLUE] == (35.0, 85.0, 185.0)
    measured = {c: tuple(float(v) for v in normalised(CAFE[c])) for c in Color}
    save_calibration(tmp_path / "cal.yaml", measured, 3, datetime(2026, 11, 25, tzinfo=UTC))
    calibrated = CameraSetup.model_validate({**REFERENCE_CAMERA, "calibration": "cal.yaml"})
    colors = effective_colors(calibrated, tmp_path)
    assert np.allclose(colors[Color.YELLOW], normalised(CAFE[Color.YELLOW]), atol=0.05)


def test_a_broken_calibration_file_names_the_file_and_key(tmp_path):
    path = tmp_path / "cal.yaml"
    data = {"version": 1, "made": "2026-11-25T10:00:00+00:00", "frames": 3,
            "colors": {"red": [1, 2, 3], "blue": [1, 2, 3], "yellow": [1, 2, 999],
                       "green": [1, 2, 3]}}
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(InputError) as error:
        load_calibration(path)
    assert error.value.source == str(path) and error.value.where == "colors.yellow[2]"
    del data["colors"]["green"]
    data["colors"]["yellow"] = [1, 2, 3]
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(InputError, match=r"colors\.green: required key is missing"):
        load_calibration(path)
