"""The physics file: shipped values load, bad files get one error naming file and key."""

import pytest

from firmware_host.errors import InputError
from firmware_host.model.params import HOST_PARAMS, load_params


def test_host_params_load_with_units_of_the_file():
    params = load_params()
    assert params.gravity == 9810.0
    assert params.time_step == pytest.approx(1 / 240)
    assert params.friction.piece_piece == 0.4304
    assert params.settle.cap == 10.0
    assert load_params(HOST_PARAMS) == params


def _write(tmp_path, text):
    path = tmp_path / "physics.yaml"
    path.write_text(HOST_PARAMS.read_text().replace(*text))
    return path


@pytest.mark.parametrize(
    ("change", "where", "problem"),
    [
        (("gravity: 9810.0", "gravity: 9810.0\nwind: 3"), "wind", "unknown key"),
        (("piece_wall: 0.5809}", "piece_wall: -0.5}"), "friction.piece_wall", "greater than"),
        (("cap: 10.0}", "cap: 0}"), "settle.cap", "greater than 0"),
        (("time_step: 0.004166666666666667", "time_step: fast"), "time_step", "got 'fast'"),
        (("version: 1", "version: 2"), "version", "got 2"),
    ],
)
def test_bad_physics_file_names_the_key(tmp_path, change, where, problem):
    path = _write(tmp_path, change)
    with pytest.raises(InputError) as caught:
        load_params(path)
    assert caught.value.source == str(path)
    assert caught.value.where == where
    assert problem in caught.value.problem


def test_missing_physics_file_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="file not found"):
        load_params(tmp_path / "none.yaml")
