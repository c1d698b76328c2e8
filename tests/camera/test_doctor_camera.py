"""``tabletop doctor`` grabs one frame from the table's camera and reports what it sees."""

from __future__ import annotations

import builtins

import cv2
import pytest

from firmware_host.cli import main
from tests.camera.synthetic import homography, render
from tests.camera.tables import table_file


@pytest.fixture(autouse=True)
def no_hub(monkeypatch):
    monkeypatch.delenv("TABLETOP_HUB_PORT", raising=False)
    monkeypatch.setattr("firmware_host.doctor.examine.find_hub_port", lambda: None)


def doctor(capsys, *args) -> str:
    assert main(["doctor", "--no-leds", *map(str, args)]) == 1  # no hub: always a problem
    return capsys.readouterr().out


def test_the_camera_shows_its_markers_and_scale(board, tmp_path, capsys):
    (tmp_path / "shots").mkdir()
    frame = render(board, h=homography(tilt=0.0004))
    cv2.imwrite(str(tmp_path / "shots" / "1.png"), frame)
    table = table_file(tmp_path, source={"kind": "files", "path": "shots"})
    out = doctor(capsys, "--table", table)
    assert "ok    camera  image file " in out
    assert "markers: found 0, 1, 2, 3" in out
    assert "scale: px per mm: centre 2.8" in out
    assert "1 problem to fix" in out  # only the hub


def test_a_far_camera_is_a_problem(board, tmp_path, capsys):
    (tmp_path / "shots").mkdir()
    cv2.imwrite(str(tmp_path / "shots" / "1.png"), render(board, h=homography(scale=1.6)))
    out = doctor(capsys, "--table", table_file(tmp_path, source={"kind": "files", "path": "shots"}))
    assert "FIX   camera" in out and "below 2 px/mm" in out


def test_a_missing_picamera2_names_the_fix(monkeypatch, capsys):
    real_import = builtins.__import__

    def no_picamera2(name, *args, **kwargs):
        if name == "picamera2":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_picamera2)
    out = doctor(capsys)  # the reference table: the Pi's camera port
    assert "FIX   camera  picamera2 is not importable" in out
    assert "--system-site-packages" in out


def test_a_table_without_a_camera_says_so(tmp_path, capsys):
    out = doctor(capsys, "--table", table_file(tmp_path, camera_none=True))
    assert "ok    camera  no camera (camera: none)" in out


def test_off_line_the_camera_is_skipped(capsys):
    assert main(["doctor", "--no-hub", "--no-leds"]) == 0
    assert "skip  camera  skipped (--no-hub)" in capsys.readouterr().out
    doctor(capsys, "--no-camera")
