"""``tabletop camera check``: markers, scale, residual, focus, exposure, colours, verdict."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import cv2
import numpy as np
import pytest

from firmware_host.camera.calibration import save_calibration
from firmware_host.cli import main
from firmware_host.games.dropit.rules.pieces import Color
from tests.camera.synthetic import homography, render
from tests.camera.tables import table_file

TILTED = homography(tilt=0.0004)


@pytest.fixture(scope="module")
def frames(board, tmp_path_factory):
    """Frame files by name: a good one and one of each fault."""
    folder = tmp_path_factory.mktemp("check")
    good = render(board, h=TILTED)
    images = {
        "good": good,
        "blurred": cv2.GaussianBlur(good, (0, 0), 2.0),
        "dark": (good * 0.35).astype(np.uint8),
        "clipped": cv2.convertScaleAbs(good, alpha=1.3),
        "far": render(board, h=homography(scale=1.6)),
        "three_markers": render(board, h=TILTED, markers=[0, 1, 2]),
        "blank": np.full_like(good, 200),
    }
    paths = {}
    for name, image in images.items():
        paths[name] = folder / f"{name}.png"
        cv2.imwrite(str(paths[name]), image)
    return paths


def check(capsys, *args):
    status = main(["camera", "check", *map(str, args)])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_a_good_frame_is_ready(frames, capsys):
    status, out, _ = check(capsys, "--frames", frames["good"])
    assert status == 0
    assert "ok    markers   found 0, 1, 2, 3" in out
    assert "marker edges" in out and "blurred" not in out
    assert out.rstrip().endswith("camera ready")


def test_json_gives_the_measures(frames, capsys):
    status, out, _ = check(capsys, "--frames", frames["good"], "--json")
    data = json.loads(out)
    assert status == 0 and data["ready"] is True
    assert data["markers"] == {"found": [0, 1, 2, 3], "missing": []}
    scale = data["px_per_mm"]
    assert 2.7 < scale["centre"] < 2.9 and scale["top-left"] < scale["bottom-left"]
    assert data["residual_px"] < 0.5 and data["edge_px"] < 2.0
    assert data["black"] == pytest.approx([25, 25, 25], abs=3)
    assert data["white"] == pytest.approx([225, 225, 225], abs=3)


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("blurred", "(blurred)"),
        ("dark", "too dark"),
        ("clipped", "white is clipped"),
        ("far", "below 2 px/mm"),
        ("three_markers", "found 0, 1, 2; missing 3"),
        ("blank", "no board marker found in"),
    ],
)
def test_each_fault_is_named_and_not_ready(frames, capsys, name, says):
    status, out, _ = check(capsys, "--frames", frames[name])
    assert status == 1
    assert says in out
    assert out.rstrip().splitlines()[-1].startswith("camera not ready: ")


def test_the_snapshot_outlines_markers_and_the_drop_zone(frames, tmp_path, capsys):
    out_png = tmp_path / "snap.png"
    status, _, _ = check(capsys, "--frames", frames["good"], "--snapshot", out_png)
    assert status == 0
    snap = cv2.imread(str(out_png))
    frame = cv2.imread(str(frames["good"]))
    assert snap.shape == frame.shape
    u, v, w = TILTED @ np.array([150.0, 0.0, 1.0])  # the middle of the drop zone's bottom
    x, y = round(u / w), round(v / w)
    assert np.any(np.all(snap[y - 2 : y + 3, x] == (255, 80, 0), axis=1))
    assert not np.any(np.all(frame[y - 2 : y + 3, x] == (255, 80, 0), axis=1))
    assert np.any(np.all(snap == (0, 200, 0), axis=2))  # a marker's outline


def test_a_calibration_is_shown_against_nominal(frames, tmp_path, capsys):
    colours = {c: (10.0, 20.0, 30.0) for c in Color}
    save_calibration(tmp_path / "cal.yaml", colours, 3, datetime(2026, 1, 1, tzinfo=UTC))
    table = table_file(tmp_path, calibration="cal.yaml")
    status, out, _ = check(capsys, "--table", table, "--frames", frames["good"])
    assert status == 0
    assert "blue: calibrated (10, 20, 30), nominal (35, 85, 185)" in out


def test_the_tables_own_source_gives_the_frames(frames, tmp_path, capsys):
    (tmp_path / "shots").mkdir()
    cv2.imwrite(str(tmp_path / "shots" / "a.png"), cv2.imread(str(frames["good"])))
    table = table_file(tmp_path, source={"kind": "files", "path": "shots"})
    status, out, _ = check(capsys, "--table", table)
    assert status == 0 and "camera ready" in out


def test_bad_input_is_one_line_with_status_2(tmp_path, capsys):
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"junk")
    status, out, err = check(capsys, "--frames", broken)
    assert status == 2 and out == ""
    assert err.strip() == f"tabletop camera check: {broken}: not a readable PNG or JPEG image"
    status, _, err = check(capsys, "--table", table_file(tmp_path, camera_none=True))
    assert status == 2 and "this table has no camera" in err


def test_a_german_table_is_checked_in_german(frames, tmp_path, capsys):
    table = table_file(tmp_path)
    table.write_text(table.read_text().replace("language: en", "language: de"))
    status, out, _ = check(capsys, "--table", table, "--frames", frames["three_markers"])
    assert status == 1
    assert "FEHLER   Marker      gefunden: 0, 1, 2; es fehlen: 3" in out
    assert "zu tun: jeden Marker sichtbar machen" in out
    assert "px pro mm: Mitte 2,8" in out  # numbers as German writes them
    assert out.rstrip().splitlines()[-1].startswith("Kamera nicht bereit: Marker: ")
    status, out, _ = check(capsys, "--table", table, "--frames", frames["good"], "--json")
    assert json.loads(out)["findings"][0]["what"] == "gefunden: 0, 1, 2, 3"
