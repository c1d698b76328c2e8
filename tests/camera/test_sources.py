"""The frame sources: files in name order, a video through OpenCV, picamera2's absence."""

from __future__ import annotations

import builtins
from pathlib import Path

import cv2
import numpy as np
import pytest

from firmware_host.camera.setup import REFERENCE_CAMERA, CameraSetup
from firmware_host.camera.sources import (
    BadFrame,
    CameraUnavailable,
    FileSource,
    OpenCVSource,
    checked_frame,
    open_source,
)
from firmware_host.errors import TabletopError

SIZE = (320, 240)


def frame(value: int, size: tuple[int, int] = SIZE) -> np.ndarray:
    return np.full((size[1], size[0], 3), value, np.uint8)


def write(folder: Path, name: str, value: int, size: tuple[int, int] = SIZE) -> Path:
    path = folder / name
    assert cv2.imwrite(str(path), frame(value, size))
    return path


def test_a_folder_is_taken_in_name_order_and_cycles(tmp_path):
    for name, value in (("b.png", 20), ("a.png", 10), ("c.jpg", 30)):
        write(tmp_path, name, value)
    (tmp_path / "notes.txt").write_text("not an image")
    with FileSource.folder(SIZE, tmp_path, cycle=True) as source:
        values = [int(f[0, 0, 0]) for f in source.grab(4)]
    assert values[:3] == [10, 20, pytest.approx(30, abs=2)]
    assert values[3] == 10


def test_files_without_cycling_end_with_a_clear_error(tmp_path):
    files = [write(tmp_path, "x.png", 1), write(tmp_path, "y.png", 2)]
    source = FileSource(SIZE, files)
    assert len(source.grab(2)) == 2
    with pytest.raises(CameraUnavailable, match="all 2 files were taken"):
        source.grab(1)


def test_a_frame_of_the_wrong_size_is_named(tmp_path):
    path = write(tmp_path, "small.png", 5, (200, 160))
    with pytest.raises(BadFrame, match=r"small\.png: 200x160 px, but .* 320x240"):
        FileSource(SIZE, [path]).grab(1)


def test_an_unreadable_file_is_named(tmp_path):
    path = tmp_path / "broken.png"
    path.write_bytes(b"not a png")
    with pytest.raises(BadFrame, match=r"broken\.png: not a readable PNG or JPEG"):
        FileSource(SIZE, [path]).grab(1)


def test_an_empty_folder_says_so(tmp_path):
    with pytest.raises(CameraUnavailable, match="no PNG or JPEG files"):
        FileSource.folder(SIZE, tmp_path)


def test_frames_must_be_three_channel_uint8():
    with pytest.raises(BadFrame, match="cam: expected 3-channel 8-bit colour, got 1 channel"):
        checked_frame(np.zeros((240, 320), np.uint8), SIZE, "cam")
    with pytest.raises(BadFrame, match="float32"):
        checked_frame(np.zeros((240, 320, 3), np.float32), SIZE, "cam")


def test_opencv_reads_a_video_file(tmp_path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5.0, SIZE)
    for value in (40, 120, 200):
        writer.write(frame(value))
    writer.release()
    with OpenCVSource(SIZE, str(path)) as source:
        grabbed = source.grab(3)
        assert [round(float(f.mean()) / 10) for f in grabbed] == [4, 12, 20]
        with pytest.raises(CameraUnavailable, match=r"clip\.avi: no frame could be read"):
            source.grab(1)


def test_opencv_names_a_source_it_cannot_open(tmp_path):
    missing = tmp_path / "nothing.avi"
    with pytest.raises(CameraUnavailable, match=r"OpenCV source .*nothing\.avi: cannot open"):
        OpenCVSource(SIZE, str(missing))


def test_picamera2_missing_names_the_fix(monkeypatch):
    real_import = builtins.__import__

    def no_picamera2(name, *args, **kwargs):
        if name == "picamera2":
            raise ImportError("No module named 'picamera2'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_picamera2)
    setup = CameraSetup.model_validate(REFERENCE_CAMERA)
    with pytest.raises(CameraUnavailable) as error:
        open_source(setup, Path("."))
    assert "python3-picamera2" in str(error.value)
    assert "--system-site-packages" in str(error.value)
    assert isinstance(error.value, TabletopError)


def test_the_factory_opens_a_files_source_relative_to_the_table(tmp_path):
    (tmp_path / "shots").mkdir()
    write(tmp_path / "shots", "1.png", 7)
    setup = CameraSetup.model_validate(
        {**REFERENCE_CAMERA, "source": {"kind": "files", "path": "shots"}, "resolution": [320, 240]}
    )
    with open_source(setup, tmp_path) as source:
        assert source.grab(2)[1][0, 0, 0] == 7  # cycles


def test_the_virtual_camera_comes_from_the_caller():
    setup = CameraSetup.model_validate({**REFERENCE_CAMERA, "source": {"kind": "virtual"}})
    with pytest.raises(CameraUnavailable, match="--sim"):
        open_source(setup, Path("."))
    stand_in = FileSource(SIZE, ["any.png"])
    assert open_source(setup, Path("."), virtual=stand_in) is stand_in
