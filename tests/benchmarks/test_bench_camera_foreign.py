"""The second renderer's benchmark locates each look again to tell how honest the
reported deviations are there (the command does not print them)."""

from pathlib import Path

from benchmarks.bench_camera_foreign import Deviations
from tests.camera.foreign_looks import Case, poses, write_look


def test_the_calibration_counts_x_and_y_of_every_piece_found_under_its_shape(
    tmp_path: Path,
) -> None:
    case = Case(seed=23, drop=12, scale=2.75, tilt=6.0, direction=45.0, roll=-3.0, frames=1)
    write_look(case, tmp_path)
    deviations = Deviations()
    deviations.add(case, tmp_path)

    _, truth = poses(case.seed, case.drop)
    counted = sum(len(z) for z in deviations.by_shape.values())
    assert 0 < counted <= 2 * len(truth) and counted % 2 == 0
    assert set(deviations.by_shape) <= {str(p.shape) for p in truth}
    assert deviations.line().startswith("sigma calibration ")
