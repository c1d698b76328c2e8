"""The board's homography from its markers: the found edges' common offset taken out."""

import math

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.camera.markers import MarkerFinder, edge_offset
from firmware_host.config.table import load_table
from tests.camera.foreign_camera import Rig, render_look
from tests.camera.foreign_looks import Case, poses

LAYOUT = load_table().camera.markers
DROP_ZONE = np.array([(x, y) for x in (0.0, 150.0, 300.0) for y in (0.0, 150.0, 300.0)])


def seen_corners(homography: np.ndarray, ids: list[int], offset: float) -> dict[int, np.ndarray]:
    """Each marker's corners as an edge finder whose edges lie ``offset`` px outside the
    true ones finds them: every image edge of the marker moved out along its own normal,
    the corners where the moved edges meet (exact under perspective)."""
    found = {}
    for i in ids:
        quad = cv2.perspectiveTransform(
            np.asarray(LAYOUT.corners(i), float).reshape(-1, 1, 2), homography
        ).reshape(4, 2)
        centre = quad.mean(axis=0)
        lines = []
        for k in range(4):
            a, b = quad[k], quad[(k + 1) % 4]
            along = (b - a) / np.linalg.norm(b - a)
            normal = np.array([along[1], -along[0]])
            if np.dot(normal, a - centre) < 0:
                normal = -normal
            lines.append((a + offset * normal, along))
        corners = []
        for k in range(4):
            (p, d), (q, e) = lines[k - 1], lines[k]
            t = np.linalg.solve(np.array([d, -e]).T, q - p)[0]
            corners.append(p + t * d)
        found[i] = np.array(corners)
    return found


@settings(max_examples=60, deadline=None)
@given(
    offset=st.floats(-1.5, 1.5),
    scale=st.floats(2.0, 3.5),
    tilt=st.floats(0.0, 12.0),
    direction=st.floats(0.0, 360.0),
    roll=st.floats(-4.0, 4.0),
    hidden=st.sampled_from([(), (0,), (2,), (1, 3)]),
)
def test_the_edges_common_offset_is_found_and_taken_out(
    offset: float, scale: float, tilt: float, direction: float, roll: float,
    hidden: tuple[int, ...],
) -> None:
    rig = Rig.aimed(scale=scale, tilt=tilt, direction=direction, roll=roll, distance=500.0)
    homography = rig.homography()
    ids = [i for i in sorted(LAYOUT.centres) if i not in hidden]
    found = seen_corners(homography, ids, offset)
    board = np.array([c for i in ids for c in LAYOUT.corners(i)], float)
    assert math.isclose(edge_offset(board, found, ids), offset, abs_tol=0.03)
    view = MarkerFinder(LAYOUT).view(found)
    assert view.residual_px < 0.03
    truth = cv2.perspectiveTransform(DROP_ZONE.reshape(-1, 1, 2), homography)
    placed = cv2.perspectiveTransform(DROP_ZONE.reshape(-1, 1, 2), view.homography)
    assert np.abs(placed - truth).max() < 0.1


def test_a_single_marker_cannot_tell_its_edges_offset_from_its_size() -> None:
    rig = Rig.aimed(scale=2.5, tilt=6.0, direction=30.0, roll=1.0, distance=500.0)
    found = seen_corners(rig.homography(), [1], 0.8)
    assert edge_offset(np.asarray(LAYOUT.corners(1), float), found, [1]) == 0.0


def test_a_lens_blurring_in_linear_light_leaves_the_board_sure() -> None:
    # a second renderer's lens blurs in linear light, which shrinks every black marker by
    # a fraction of a pixel: before the offset was taken out the corners disagreed with
    # the homography by 0.6-1.2 px and every point of the board was worth 0.15-0.3 mm
    case = Case(seed=21, drop=14, scale=2.4, tilt=6.0, direction=45.0, roll=-2.0, frames=1)
    _, after = poses(case.seed, case.drop)
    data = render_look(load_table(), after, case.rig(), np.random.default_rng(3), 1,
                       linear_blur=True)[0]
    finder = MarkerFinder(LAYOUT)
    view = finder.find(cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR))
    assert view.markers == (0, 1, 2, 3)
    assert view.edge_offset_px < -0.2  # the black squares came out small
    assert view.residual_px < 0.3
    assert view.spread_at(LAYOUT, DROP_ZONE).max() < 0.06
    truth = cv2.perspectiveTransform(DROP_ZONE.reshape(-1, 1, 2), case.rig().homography())
    placed = cv2.perspectiveTransform(DROP_ZONE.reshape(-1, 1, 2), view.homography)
    assert np.abs(placed - truth).max() < 0.2
