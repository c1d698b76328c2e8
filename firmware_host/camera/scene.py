"""The frames of one look, each tied to the board and brought to a common colour scale.

A :class:`LookFrames` holds the frames of one still scene (after a drop settled). Each
frame's board is found from its markers (:mod:`firmware_host.camera.markers`), and its
colours are normalised by the markers' own black squares and white quiet zones, so a
café's light, the exposure and the camera's white balance cancel out: in normalised
colour, the markers' black is 0 and their white 255 in every channel.

Colours are then sampled at board points (mm), each point through each frame's own
homography, and combined over the frames by the median: a hand or a glint in one frame
of three does not reach the result.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

from firmware_host.camera.markers import BoardNotFound, BoardView, MarkerFinder
from firmware_host.camera.setup import MarkerLayout
from firmware_host.i18n import Text, lazy, said

Array = np.ndarray

REMAP_ROW = 4096
"""Samples per row of the maps handed to ``cv2.remap``."""

STILL_PX = 0.5
"""Frames whose boards agree to within this many pixels are of a still camera."""

MIN_CONTRAST = 40.0
"""Least difference (0-255) between a marker's white and black in every channel: below it
the frame is too dark, too bright or too washed out to read colours from."""


@dataclass(frozen=True)
class Levels:
    """A frame's black and white levels per channel (BGR, 0-255), from the markers."""

    black: Array
    white: Array

    def normalise(self, colours: Array) -> Array:
        """Raw BGR values (..., 3) to normalised ones (black 0, white 255), float32; 8-bit
        values are looked up in a table of the same figures (:attr:`table`)."""
        if colours.dtype == np.uint8:
            looked_up: Array = cv2.LUT(colours.reshape(-1, 1, 3), self.table).reshape(colours.shape)
            return looked_up
        normalised: Array = (np.asarray(colours, np.float32) - self.black) * (
            255.0 / (self.white - self.black)
        )
        return normalised

    @cached_property
    def table(self) -> Array:
        """Every 8-bit value's normalised value per channel (256 x 1 x 3, for ``cv2.LUT``)."""
        return self.normalise(np.arange(256, dtype=np.float32).reshape(256, 1, 1))


@dataclass(frozen=True)
class BoardFrame:
    """One frame with its board view and colour levels."""

    image: Array
    view: BoardView
    levels: Levels


def marker_levels(layout: MarkerLayout, frame: Array, view: BoardView) -> Levels:
    """Black and white levels of ``frame`` read from the markers ``view`` found.

    Black: the middle of each marker's border cells (a sixth of the side inside its edge);
    white: the middle of its quiet zone.
    """
    half = layout.size / 2
    inner = half - layout.size / 12
    outer = half + max(layout.quiet_zone, 1.0) / 2
    # per ring, 9 points along each pair of opposite sides (8 tenths of the side), for
    # every marker at once: along the x sides, then along the y sides
    along = np.repeat(np.linspace(-1.0, 1.0, 9), 2)
    across = np.tile([-1.0, 1.0], 9)
    centres = np.array([layout.centres[m] for m in view.markers], float)
    cx, cy = centres[:, 0, None], centres[:, 1, None]
    rings = []
    for r in (inner, outer):
        ring = np.empty((len(centres), 2 * len(along), 2))
        ring[:, : len(along), 0] = cx + along * r * 0.8
        ring[:, : len(along), 1] = cy + across * r
        ring[:, len(along) :, 0] = cx + across * r
        ring[:, len(along) :, 1] = cy + along * r * 0.8
        rings.append(ring.reshape(-1, 2))
    # every point sampled at once, then split into the blacks and the whites
    colours = sample(frame, view.to_image(np.vstack(rings)))
    black = np.median(colours[: len(colours) // 2], axis=0)
    white = np.median(colours[len(colours) // 2 :], axis=0)
    return Levels(black.astype(np.float32), white.astype(np.float32))


def sample(image: Array, points_px: Array, levels: Levels | None = None) -> Array:
    """Bilinear samples of ``image`` (BGR) at image points (N x 2, px): N x 3 float32,
    normalised by ``levels`` when given.

    Points outside the image read as NaN.
    """
    pts = np.asarray(points_px).reshape(-1, 2)
    count = len(pts)
    rows = -(-count // REMAP_ROW)  # OpenCV's remap takes maps under 32767 px a side
    grid = np.empty((rows * REMAP_ROW, 2), np.float32)
    grid[:count] = pts
    grid[count:] = -10.0
    # OpenCV's stubs want a map2; with a two-channel map1 there is none (None), as remap allows
    raw = cv2.remap(  # type: ignore[call-overload]  # map2 None: see above
        image, grid.reshape(rows, REMAP_ROW, 2), None, cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
    ).reshape(-1, 3)[:count]
    out = raw.astype(np.float32) if levels is None else levels.normalise(raw)
    h, w = image.shape[:2]
    # x and y against their bounds along the map's long rows, a point's two answers read
    # as one 16-bit number (numpy compares along a 2-long axis slowly)
    across = grid.reshape(rows, 2 * REMAP_ROW)
    off = across < 0
    off |= across > np.tile(np.array([w - 1, h - 1], np.float32), REMAP_ROW)
    out[off.view(np.uint16).ravel()[:count] != 0] = np.nan
    return out


class LookFrames:
    """The usable frames of one look and what they say, sampled at board points.

    ``frames`` are BGR images of the same still scene. Frames in which no marker is found
    are left out and named in :attr:`unusable`; with none left, :class:`BoardNotFound`.
    """

    def __init__(self, layout: MarkerLayout, frames: Sequence[Array], names: Sequence[str]) -> None:
        finder = MarkerFinder(layout)
        self.layout = layout
        self.frames: list[BoardFrame] = []
        self.unusable: list[tuple[str, Text]] = []
        previous: dict[int, Array] = {}
        for frame, name in zip(frames, names, strict=True):
            try:
                found = finder.detect_near(frame, previous) if previous else finder.detect(frame)
                view = finder.view(found)
                previous = found
            except BoardNotFound as exc:
                self.unusable.append((name, said(exc)))
                continue
            levels = marker_levels(layout, frame, view)
            if float(np.min(levels.white - levels.black)) < MIN_CONTRAST:
                self.unusable.append(
                    (name, lazy("the markers show too little contrast (exposure)"))
                )
                continue
            self.frames.append(BoardFrame(frame, view, levels))
        if not self.frames:
            name, why = self.unusable[0] if self.unusable else ("", lazy("no frames"))
            raise BoardNotFound(lazy("{frame}: {why}", frame=name, why=why) if name else why)
        self.sampled = self.frames
        if len(self.frames) > 1 and self.still:
            self.sampled = [_combined(finder, self.frames)]

    @property
    def still(self) -> bool:
        """Whether every frame puts the board's corners within :data:`STILL_PX` of where
        the first frame does (the camera did not move during the look)."""
        corners = np.array([(0.0, 0.0), (300.0, 0.0), (300.0, 300.0), (0.0, 300.0)])
        first = self.frames[0].view.to_image(corners)
        return all(
            float(np.abs(f.view.to_image(corners) - first).max()) < STILL_PX
            for f in self.frames[1:]
        )

    def spread_at(self, points_mm: Array) -> Array:
        """How far off each board point (N x 2, mm) may lie for the markers' sake (mm, one
        standard deviation, the worst of the frames; see
        :meth:`~firmware_host.camera.markers.BoardView.spread_at`)."""
        spread: Array = np.max(
            [f.view.spread_at(self.layout, points_mm) for f in self.sampled], axis=0
        )
        return spread

    @property
    def markers(self) -> tuple[int, ...]:
        """Every marker id found in any usable frame, ascending."""
        return tuple(sorted({m for f in self.frames for m in f.view.markers}))

    def colours(self, points_mm: Array) -> Array:
        """Normalised BGR colours at board points (N x 2, mm): N x 3, median over frames
        (NaN where no frame sees the point)."""
        pts = np.asarray(points_mm, np.float64).reshape(-1, 2)
        stack = [sample(f.image, f.view.to_image(pts), f.levels) for f in self.sampled]
        return median_of(stack)

    def rectified(self, x0: float, y0: float, x1: float, y1: float, scale: float) -> Array:
        """The board between ``(x0, y0)`` and ``(x1, y1)`` mm as a top-down image at
        ``scale`` px/mm (row 0 at ``y1``), normalised colours (float32), median over frames."""
        width = round((x1 - x0) * scale)
        height = round((y1 - y0) * scale)
        # pixel (u, v) of the rectified image is board point (x0 + (u + .5)/s, y1 - (v + .5)/s)
        to_board = np.array(
            [[1 / scale, 0, x0 + 0.5 / scale], [0, -1 / scale, y1 - 0.5 / scale], [0, 0, 1]]
        )
        stack = []
        for f in self.sampled:
            warp = f.view.homography @ to_board
            img = cv2.warpPerspective(
                f.image,
                warp,
                (width, height),
                flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                borderMode=cv2.BORDER_REPLICATE,
            )
            stack.append(f.levels.normalise(img))
        return median_of(stack)


def _combined(finder: MarkerFinder, frames: Sequence[BoardFrame]) -> BoardFrame:
    """One frame standing for the still frames of a look: the pixel-wise median (a hand
    or a glint in one frame of three is gone), the board from every marker's corners
    averaged over the frames that found it, the mean colour levels."""
    image = pixel_median([f.image for f in frames])
    corners: dict[int, list[Array]] = {}
    for f in frames:
        for marker_id, quad in f.view.corners_px.items():
            corners.setdefault(marker_id, []).append(quad)
    view = finder.view({m: np.mean(quads, axis=0) for m, quads in corners.items()})
    black = np.mean([f.levels.black for f in frames], axis=0)
    white = np.mean([f.levels.white for f in frames], axis=0)
    return BoardFrame(image, view, Levels(black, white))


def pixel_median(images: Sequence[Array]) -> Array:
    """The pixel-wise median of equally shaped 8-bit images (of an even count, the mean of
    the middle two, rounded down): the images sorted pixel by pixel by an odd-even
    transposition network of whole-image minima and maxima, half a millisecond each for a
    1600 x 1200 frame, where numpy's median over a stack of two such frames takes most of
    a second. Of an odd count the middle image is the median as it is (averaging two
    images costs ten times the sorting). Of three, the median alone: four minima and
    maxima, two of them written in place, where the network sorts all three with six new
    images.

    >>> frames = [np.full((1, 2), v, np.uint8) for v in (9, 3, 200, 4)]
    >>> pixel_median(frames).tolist(), pixel_median(frames[:3]).tolist()
    ([[6, 6]], [[9, 9]])
    """
    ordered = list(images)
    count = len(ordered)
    if count == 3:
        a, b, c = ordered
        least, most = cv2.min(a, b), cv2.max(a, b)
        cv2.min(most, c, dst=most)
        middle: Array = cv2.max(least, most, dst=least)
        return middle
    for step in range(count):
        for i in range(step % 2, count - 1, 2):
            a, b = ordered[i], ordered[i + 1]
            ordered[i], ordered[i + 1] = cv2.min(a, b), cv2.max(a, b)
    low, high = ordered[(count - 1) // 2], ordered[count // 2]
    if count % 2:
        return low
    median: Array = (low >> 1) + (high >> 1) + (low & high & 1)
    return median


def median_of(stack: Sequence[Array]) -> Array:
    """The element-wise median of equally shaped arrays, ignoring NaN (NaN where all are)."""
    if len(stack) == 1:
        return stack[0]
    if len(stack) == 2:  # numpy's nanmedian of two 300 x 300 colour images: 200 ms
        a, b = stack
        return np.where(np.isnan(a), b, np.where(np.isnan(b), a, (a + b) / 2))
    if len(stack) == 3:
        a, b, c = stack
        middle: Array = np.maximum(np.minimum(a, b), np.minimum(np.maximum(a, b), c))
        gaps = np.isnan(middle)
        if gaps.any():
            with np.errstate(invalid="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                middle[gaps] = np.nanmean(np.stack([a[gaps], b[gaps], c[gaps]]), axis=0)
        return middle
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        median: Array = np.nanmedian(np.stack(stack), axis=0)
        return median
