"""The simulator's virtual camera: geometry honest to a fraction of a pixel, the rims on
the right side, reproducible looks, the harsh profile's faults, strict configuration, and
``tabletop sim frames``."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest
import yaml

from firmware_host.cli import main
from firmware_host.config.noise import (
    CLEAN_CAMERA,
    NOISE_DIR,
    CameraNoise,
    NoiseProfile,
    load_profile,
)
from firmware_host.config.table import load_table
from firmware_host.errors import InputError
from firmware_host.games.dropit.rules.pieces import Color, Piece, Pose, Shape
from simulator.board_drawing import paint_of
from simulator.camera_render import CameraView, Effects, draw_view, render
from simulator.virtual_camera import CameraUnavailable, LookPlan, VirtualCamera, plan_look

TABLE = load_table()
SETUP = TABLE.camera
SIZE = (1600, 1200)


def square_on(eye: tuple[float, float, float], aim: tuple[float, float] = (150.0, 155.0)
              ) -> CameraView:
    return CameraView.looking_at(SIZE, 1400.0, (800.3, 600.6), eye, (*aim, 0.0))


def perfect(pieces: list[Piece], view: CameraView) -> np.ndarray:
    return render(TABLE.board, SETUP, pieces, view, Effects(), np.random.default_rng(0))


def with_camera(**changes: object) -> NoiseProfile:
    """The clean profile with some camera knobs changed (nested keys as dicts)."""
    camera = dict(CLEAN_CAMERA)
    camera.update(changes)
    return load_profile("clean").model_copy(update={"camera": CameraNoise.model_validate(camera)})


def found_markers(frame: np.ndarray) -> dict[int, np.ndarray]:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), params
    )
    corners, ids, _ = detector.detectMarkers(frame)
    return {} if ids is None else {int(i): c[0] for i, c in zip(ids.ravel(), corners, strict=True)}


def edge_fitted_corners(gray: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The black square's corners from straight lines fitted to its four edges: each edge
    point is where the dark-to-light profile across the edge has risen halfway, by the
    area under the profile (a measure that blur and anti-aliasing leave unbiased)."""
    lines = []
    centre = quad.mean(axis=0)
    for a, b in zip(quad, np.roll(quad, -1, axis=0), strict=True):
        along = (b - a) / np.linalg.norm(b - a)
        normal = np.array([-along[1], along[0]])
        if np.dot(normal, (a + b) / 2 - centre) < 0:
            normal = -normal  # outward: from the black square into the quiet zone
        offsets = np.arange(-4.0, 4.0001, 0.125)
        points = []
        for t in np.linspace(0.25, 0.75, 21):
            base = a + (b - a) * t
            samples = base + offsets[:, None] * normal
            profile = cv2.remap(gray, samples[:, 0].astype(np.float32).reshape(1, -1),
                                samples[:, 1].astype(np.float32).reshape(1, -1),
                                cv2.INTER_LINEAR)[0]
            dark, light = profile[:8].mean(), profile[-8:].mean()
            rise = np.clip((profile - dark) / (light - dark), 0, 1)
            points.append(base + normal * (offsets[-1] - rise.sum() * 0.125))
        vx, vy, x0, y0 = cv2.fitLine(np.array(points, np.float32), cv2.DIST_L2, 0, 0.01, 0.01)
        lines.append((np.array([x0[0], y0[0]]), np.array([vx[0], vy[0]])))
    corners = []
    for i in range(4):
        (p, d), (q, e) = lines[i - 1], lines[i]
        s = np.linalg.solve(np.column_stack([d, -e]), q - p)[0]
        corners.append(p + d * s)
    return np.array(corners)


def test_clean_frame_shows_all_four_markers_where_they_are():
    camera = VirtualCamera(TABLE, load_profile("clean"), seed=11)
    (frame,) = camera.look([], frames=1)
    markers = found_markers(frame)
    assert sorted(markers) == [0, 1, 2, 3]
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY).astype(np.float32)
    for marker_id, detected in markers.items():
        truth = camera.view.project([[x, y, 0.0] for x, y in SETUP.markers.corners(marker_id)])
        # OpenCV's corner refinement is biased ~0.2 px into a square's corner even on an
        # exact image; the marker's own edges place its corners exactly.
        assert np.abs(detected - truth).max() < 0.7
        assert np.linalg.norm(edge_fitted_corners(gray, detected) - truth, axis=1).max() < 0.3


def edge_columns(with_piece: np.ndarray, without: np.ndarray, row: int, paint: np.ndarray,
                 near: float) -> float:
    """Where, along ``row``, a face's left edge lies (px), from each pixel's coverage
    (how far it moved from the background toward the paint)."""
    left = int(near) - 5
    span = slice(left, left + 11)
    channel = int(np.argmax(np.abs(paint - without[row, span].mean(axis=0))))
    seen = with_piece[row, span, channel].astype(float)
    behind = without[row, span, channel].astype(float)
    covered = np.clip((seen - behind) / (paint[channel] - behind), 0, 1)
    return left + 10 + 0.5 - covered.sum()


@pytest.mark.parametrize("angle", [0.0, 4.0])
def test_a_faces_edge_lies_within_a_fifth_of_a_pixel(angle):
    view = square_on((150.0, 155.0, 500.0))
    piece = Piece("e1", Color.BLUE, Shape.SQUARE, Pose(151.37, 60.0, angle))
    with_piece, without = perfect([piece], view), perfect([], view)
    paint = paint_of(SETUP.colors, piece, 0)
    left_wall = np.array(
        [[x, y] for x, y in TABLE.board.shapes.square.vertices if x < 0 and y < 0]
        + [[x, y] for x, y in TABLE.board.shapes.square.vertices if x < 0 and y > 0]
    )
    turn = np.radians(angle)
    rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    (bx, by), (tx, ty) = left_wall @ rot.T + [piece.pose.x, piece.pose.y]
    errors = []
    for f in np.linspace(0.2, 0.8, 7):
        (u0, v0), (u1, v1) = view.project([[bx, by, 0.0], [tx, ty, 0.0]])
        row = round(v0 + (v1 - v0) * f)
        true_u = u0 + (u1 - u0) * (row - v0) / (v1 - v0)
        errors.append(edge_columns(with_piece, without, row, paint, true_u) - true_u)
    assert np.abs(errors).max() < 0.2


def test_face_keeps_its_colour_and_the_rim_leans_toward_the_cameras_foot():
    # A camera 12 degrees off square-on, its foot far to the left of and above the pieces.
    eye = np.array([150.0, 155.0, 0.0]) + 520 * np.array(
        [-np.sin(np.radians(12)), 0.0, np.cos(np.radians(12))]
    ) + [0.0, 60.0, 0.0]
    view = square_on(tuple(eye))
    near = Piece("a", Color.BLUE, Shape.SQUARE, Pose(120.0, 60.0, 0.0))
    far = Piece("b", Color.YELLOW, Shape.SQUARE, Pose(154.0, 60.0, 0.0))  # touching, right
    frame = perfect([near, far], view)
    alone = perfect([far], view)
    for piece in (near, far):
        (u, v), = view.project([[piece.pose.x, piece.pose.y, 0.0]])
        patch = frame[round(v) - 8 : round(v) + 9, round(u) - 8 : round(u) + 9].reshape(-1, 3)
        assert np.abs(patch - paint_of(SETUP.colors, piece, 0)).max() < 3

    # The rim of the far piece: where its frame differs from the frame without it,
    # outside its face; it shows toward the camera's foot, darker than the face.
    face = np.zeros(frame.shape[:2], np.uint8)
    corners = np.array([[137.0, 43.0], [171.0, 43.0], [171.0, 77.0], [137.0, 77.0]])
    cv2.fillPoly(face, [np.round(view.project(np.column_stack([corners, np.zeros(4)])) * 16)
                        .astype(np.int32)], 255, cv2.LINE_8, 4)
    empty = perfect([], view)
    changed = np.abs(alone.astype(int) - empty.astype(int)).sum(axis=2) > 30
    ys, xs = np.nonzero(changed & (cv2.dilate(face, np.ones((5, 5), np.uint8)) == 0))
    assert len(xs) > 50
    (fu, fv), = view.project([[far.pose.x, far.pose.y, 0.0]])
    (footu, footv), = view.project([[*view.foot, 0.0]])
    assert np.dot([xs.mean() - fu, ys.mean() - fv], [footu - fu, footv - fv]) > 0
    paint = paint_of(SETUP.colors, far, 0)
    strongest = int(np.argmax(paint))
    assert 0.4 < np.median(alone[ys, xs, strongest] / paint[strongest]) < 0.75

    # The far piece's rim falls on the near piece's face, which still shows all of it.
    (back_u, _), (front_u, _) = view.project([[137.0, 60.0, -8.0], [137.0, 60.0, 0.0]])
    assert back_u < front_u - 1
    near_alone = perfect([near], view)
    inner = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillPoly(inner, [np.round(view.project(np.column_stack([corners - [34.0, 0.0],
                                                                np.zeros(4)])) * 16)
                         .astype(np.int32)], 255, cv2.LINE_8, 4)
    inner = cv2.erode(inner, np.ones((3, 3), np.uint8)) > 0
    assert np.array_equal(frame[inner], near_alone[inner])


def test_the_same_seed_gives_the_same_frames():
    pieces = [Piece("p1", Color.RED, Shape.TRIANGLE, Pose(100.0, 17.3, 0.0)),
              Piece("p2", Color.GREEN, Shape.CIRCLE, Pose(200.0, 18.0, 0.0))]
    profile = load_profile("realistic")
    first = VirtualCamera(TABLE, profile, seed=5).look(pieces, frames=2)
    again = VirtualCamera(TABLE, profile, seed=5).look(pieces, frames=2)
    other = VirtualCamera(TABLE, profile, seed=6).look(pieces, frames=1)
    assert len(first) == 2
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert not np.array_equal(first[0], first[1])  # the sensor's noise differs per frame
    assert not np.array_equal(first[0], other[0])


def test_the_harsh_profile_has_every_fault():
    faults = load_profile("harsh").camera.faults
    rng = np.random.default_rng(0)
    plans = [plan_look(faults, [0, 1, 2, 3], 3, rng) for _ in range(400)]
    assert any(p.covered_marker is not None for p in plans)
    assert any(p.hand_frame is not None for p in plans)
    assert any(p.dropped_frame for p in plans)
    assert any(p.unplug_looks >= 2 for p in plans)
    clean = load_profile("clean").camera.faults
    assert all(plan_look(clean, [0, 1, 2, 3], 3, rng) == LookPlan(None, None, False, 0)
               for _ in range(50))


def faulty(**faults: object) -> NoiseProfile:
    chosen = {"marker_covered": 0.0, "hand": 0.0, "dropped_frame": 0.0,
              "unplug": {"rate": 0.0, "looks": [1, 1]}}
    chosen.update(faults)
    return with_camera(faults=chosen)


def test_a_covered_marker_is_not_found():
    camera = VirtualCamera(TABLE, faulty(marker_covered=1.0), seed=2)
    (frame,) = camera.look([], frames=1)
    covered = camera.plan.covered_marker
    assert covered is not None
    assert sorted(found_markers(frame)) == sorted({0, 1, 2, 3} - {covered})


@pytest.mark.parametrize(("marker_id", "look_seed"), [(1, 1), (2, 2)], ids=["hand", "cup"])
def test_a_cup_or_a_hand_hides_the_marker_it_covers(marker_id, look_seed):
    view = square_on((170.0, 140.0, 500.0))
    frame = render(TABLE.board, SETUP, [], view,
                   Effects(covered_marker=marker_id, look_seed=look_seed),
                   np.random.default_rng(0))
    assert sorted(found_markers(frame)) == sorted({0, 1, 2, 3} - {marker_id})


def test_a_hand_shows_in_one_frame_only():
    camera = VirtualCamera(TABLE, faulty(hand=1.0), seed=3)
    frames = camera.look([], frames=2)
    hand = camera.plan.hand_frame
    assert hand is not None
    calm = VirtualCamera(TABLE, faulty(), seed=3).look([], frames=2)
    changed = [np.mean(np.abs(f.astype(int) - c.astype(int)).max(axis=2) > 40)
               for f, c in zip(frames, calm, strict=True)]
    assert changed[hand] > 0.02
    assert changed[1 - hand] < 0.001


def test_a_dropped_frame_gives_one_frame_fewer():
    camera = VirtualCamera(TABLE, faulty(dropped_frame=1.0), seed=4)
    assert len(camera.look([], frames=2)) == 1
    assert len(camera.look([], frames=1)) == 1  # a look keeps its only frame


def test_an_unplugged_camera_is_out_for_a_run_of_looks():
    camera = VirtualCamera(TABLE, faulty(unplug={"rate": 1.0, "looks": [3, 3]}), seed=5)
    for _ in range(3):
        with pytest.raises(CameraUnavailable, match="unplugged"):
            camera.look([], frames=1)
    assert camera.plan is not None and camera.plan.unplug_looks == 3


def write_profile(tmp_path, camera_changes):
    data = yaml.safe_load((NOISE_DIR / "realistic.yaml").read_text())
    for path, value in camera_changes.items():
        where = data["camera"]
        *parents, last = path.split(".")
        for key in parents:
            where = where[key]
        where[last] = value
    path = tmp_path / "profile.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


@pytest.mark.parametrize(("key", "value"), [
    ("jpeg_quality", [90, 50]),
    ("faults.hand", 1.5),
    ("pose.tilt", 45.0),
    ("glare.spots", [3, 1]),
    ("exposure", [0.0, 1.0]),
    ("flash", True),
])
def test_bad_camera_values_are_refused_naming_the_key(tmp_path, key, value):
    with pytest.raises(InputError, match=rf"camera\.{key.split('.')[0]}"):
        load_profile(write_profile(tmp_path, {key: value}))


def test_a_profile_without_a_camera_section_gets_the_clean_camera(tmp_path):
    data = yaml.safe_load((NOISE_DIR / "realistic.yaml").read_text())
    del data["camera"]
    path = tmp_path / "old.yaml"
    path.write_text(yaml.safe_dump(data))
    assert load_profile(path).camera == load_profile("clean").camera


def test_impossible_pose_ranges_and_a_table_without_camera_are_refused():
    pose = with_camera(pose={**CLEAN_CAMERA["pose"], "px_per_mm": [6.0, 6.0]}).camera.pose
    with pytest.raises(ValueError, match="never fit"):
        draw_view(TABLE.board, SETUP, pose, np.random.default_rng(0))
    blind = dataclasses.replace(TABLE, config=TABLE.config.model_copy(update={"camera": "none"}))
    with pytest.raises(InputError, match="no camera"):
        VirtualCamera(blind, load_profile("clean"), seed=1)


def test_sim_frames_writes_frames_priors_and_truth(tmp_path, capsys):
    out = tmp_path / "frames"
    assert main(["sim", "frames", "--scenes", "2", "--seed", "3", "--noise", "clean",
                 "--out", str(out)]) == 0
    scene = out / "scene0002"
    assert sorted(p.name for p in scene.iterdir()) == [
        "frame0.png", "frame1.png", "frame2.png", "pieces.yaml", "truth.yaml"]
    pieces = yaml.safe_load((scene / "pieces.yaml").read_text())
    truth = yaml.safe_load((scene / "truth.yaml").read_text())
    first = yaml.safe_load((out / "scene0001" / "truth.yaml").read_text())
    assert pieces["edges"] == "color"
    assert pieces["pieces"][0] == first["pieces"][0]  # the prior: where it lay before
    assert set(pieces["pieces"][1]) == {"id", "color", "shape"}  # dropped: no pose
    assert truth["dropped"] == pieces["pieces"][1]["id"] == "p2"
    assert [p["id"] for p in truth["pieces"]] == ["p1", "p2"]
    assert 2.0 <= truth["camera"]["px_per_mm"] <= 3.5
    frame = cv2.imread(str(scene / "frame0.png"))
    assert frame.shape == (1200, 1600, 3)
    rvec = np.array(truth["camera"]["rvec"])
    tvec = np.array(truth["camera"]["tvec"])
    f, (cx, cy) = truth["camera"]["focal"], truth["camera"]["principal"]
    projected, _ = cv2.projectPoints(np.array([[150.0, 150.0, 0.0]]), rvec, tvec,
                                     np.array([[f, 0, cx], [0, f, cy], [0, 0, 1]]), None)
    assert 0 < projected[0, 0, 0] < 1600 and 0 < projected[0, 0, 1] < 1200


@pytest.mark.parametrize("argv", [
    ["--scenes", "0", "--out", "x"],
    ["--scenes", "two", "--out", "x"],
    ["--scenes", "1"],
    ["--scenes", "1", "--out", "x", "--noise", "no-such-profile"],
    ["--scenes", "1", "--out", "x", "--format", "gif"],
])
def test_sim_frames_refuses_bad_arguments_in_one_line(argv, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["sim", "frames", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("tabletop sim frames: ")
