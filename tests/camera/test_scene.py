"""A look's colour levels: 8-bit values go through a table of the same figures."""

import warnings

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.camera.scene import Levels, median_of, pixel_median, sample


def test_eight_bit_colours_are_normalised_as_floats_are() -> None:
    levels = Levels(np.array([12, 20, 31], np.float32), np.array([201, 230, 250], np.float32))
    image = np.random.default_rng(3).integers(0, 256, (40, 30, 3)).astype(np.uint8)
    assert np.array_equal(levels.normalise(image), levels.normalise(image.astype(np.float32)))
    assert levels.normalise(image).shape == image.shape
    assert np.allclose(levels.normalise(np.array([[12, 20, 31], [201, 230, 250]], np.uint8)),
                       [[0, 0, 0], [255, 255, 255]], atol=1e-3)


def test_samples_are_normalised_and_points_outside_read_nan() -> None:
    levels = Levels(np.zeros(3, np.float32), np.full(3, 127.5, np.float32))
    image = np.full((20, 20, 3), 100, np.uint8)
    out = sample(image, np.array([(5.0, 5.0), (-1.0, 3.0), (10.5, 19.0)]), levels)
    assert np.allclose(out[[0, 2]], 200.0) and np.isnan(out[1]).all()


@given(
    count=st.integers(1, 10),
    seed=st.integers(0, 2**32 - 1),
)
def test_the_pixel_median_is_numpys_median_rounded_down(count, seed):
    rng = np.random.default_rng(seed)
    images = [rng.integers(0, 256, (7, 9, 3), dtype=np.uint8) for _ in range(count)]
    expected = np.floor(np.median(np.stack(images).astype(float), axis=0))
    assert np.array_equal(pixel_median(images), expected.astype(np.uint8))


@given(count=st.integers(1, 5), seed=st.integers(0, 2**32 - 1))
def test_median_of_is_numpys_nanmedian(count, seed):
    rng = np.random.default_rng(seed)
    stack = [rng.random((6, 3)).astype(np.float32) for _ in range(count)]
    for array in stack:
        array[rng.random((6, 3)) < 0.3] = np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN columns
        expected = np.nanmedian(np.stack(stack), axis=0)
    assert np.allclose(median_of(stack), expected, equal_nan=True, rtol=1e-6, atol=0)
