"""Telling the pieces' colours apart in normalised camera colours.

A café's light is not even: a face lies in a brighter or darker part of the frame than the
markers that normalised it, a glint pales it. So a colour is judged by its *chroma* (the
colour less its grey part: hue and saturation) and only loosely by its brightness: a
pixel is of a piece colour when its chroma points the way of that colour's chroma more
than of any other (cosine at least :data:`MIN_COSINE`), it is at least :data:`MIN_CHROMA`
as saturated, and its brightness lies within :data:`BRIGHTNESS` of the colour's. A fitted
face's colour (:meth:`PieceColours.matches`) has no upper bound on its brightness: a glare
on the pane adds white light, which brightens a face and leaves its chroma as it was.

>>> colours = PieceColours({Color.RED: (205, 45, 50), Color.BLUE: (35, 85, 185),
...                         Color.YELLOW: (240, 200, 40), Color.GREEN: (40, 150, 70)})
>>> colours.classify(np.array([[60, 50, 250], [250, 250, 250], [60, 170, 60]])).tolist()
[0, -1, 3]
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from firmware_host.games.dropit.rules.pieces import Color

Array = np.ndarray

MIN_COSINE = 0.85
"""How closely a pixel's chroma must point the way of its colour's."""
MIN_CHROMA = 0.35
"""A pixel's chroma must be at least this share of its colour's (greys are no colour)."""
BRIGHTNESS = (0.4, 2.3)
"""A pixel's brightness (mean of its channels) over its colour's: the range that counts."""
FACE_BRIGHTNESS = (0.4, float("inf"))
"""The same for a fitted face's colour: a face under a glare, brighter than the markers'
white, is still its colour (on 150 harsh scenes, seed 1, pieces unseen 199 -> 124)."""
FULL_CHROMA = 0.8
"""A face shows its colour at full strength when its chroma is at least this share of the
colour's (faces of the virtual camera's realistic frames: all of them; a glare pales a
face below it, and so would a café's wall of a near hue taken for a face)."""
LIKE_COSINE = 0.97
"""How closely a pixel's chroma must point the way of a face's to be like it."""
LIKE_CHROMA = (0.5, 1.6)
"""A pixel like a face has a chroma between these shares of the face's (a glint pales a
face, its hue stays)."""


class PieceColours:
    """The piece colours (sRGB, 0-255) as a look compares pixels with them (BGR)."""

    def __init__(self, rgb: Mapping[Color, tuple[float, float, float]]) -> None:
        self.colors = tuple(rgb)
        self.bgr = np.array([rgb[c][::-1] for c in self.colors], np.float32)
        self._brightness = self.bgr.mean(axis=1)
        chroma = self.bgr - self._brightness[:, None]
        self._strength = np.linalg.norm(chroma, axis=1)
        self._direction = chroma / self._strength[:, None]

    def of(self, color: Color) -> Array:
        """One colour as BGR."""
        bgr: Array = self.bgr[self.colors.index(color)]
        return bgr

    def classify(
        self, pixels: Array, brightness_range: tuple[float, float] = BRIGHTNESS
    ) -> Array:
        """The index in :attr:`colors` of each pixel's colour (..., 3 BGR), -1 for none:
        an array shaped like ``pixels`` less its last axis; ``brightness_range`` is the
        pixel's brightness over its colour's that counts."""
        flat = np.asarray(pixels, np.float32).reshape(-1, 3)
        chroma, brightness, strength = _chroma(flat)
        # colours x pixels: numpy is slow along a short last axis
        cosines = _dot(chroma, self._direction.T[:, :, None]) / np.maximum(strength, 1e-6)
        best = cosines.argmax(axis=0)
        cosine = cosines.max(axis=0)  # the best one's (NaN for a NaN pixel, as its every one)
        ratio = brightness / self._brightness[best]
        ok = (
            (cosine >= MIN_COSINE)
            & (strength >= MIN_CHROMA * self._strength[best])
            & (ratio >= brightness_range[0])
            & (ratio <= brightness_range[1])
        )
        return np.where(ok, best, -1).reshape(np.asarray(pixels).shape[:-1])

    def like(self, pixels: Array, face: Array) -> Array:
        """Whether each pixel (..., 3 BGR) is like ``face``, a colour the look showed: its
        chroma points the same way (cosine at least :data:`LIKE_COSINE`) and is about as
        strong (:data:`LIKE_CHROMA`), whatever its brightness (a face in brighter light, or
        paled by a glint, is still like itself; a café's wall of a near hue is not)."""
        flat = np.asarray(pixels, np.float32).reshape(-1, 3)
        chroma, _, strength = _chroma(flat)
        own = np.asarray(face, np.float32) - float(np.mean(face))
        own_strength = max(float(np.linalg.norm(own)), 1e-6)
        cosine = _dot(chroma, own) / np.maximum(strength, 1e-6) / own_strength
        ratio = strength / own_strength
        ok: Array = (cosine >= LIKE_COSINE) & (ratio >= LIKE_CHROMA[0]) & (ratio <= LIKE_CHROMA[1])
        return ok.reshape(np.asarray(pixels).shape[:-1])

    def at_full_strength(self, face: Array, color: Color) -> bool:
        """Whether a face's colour (BGR) is as saturated as ``color``'s
        (:data:`FULL_CHROMA`).

        >>> blue = PieceColours({Color.BLUE: (35, 85, 185), Color.RED: (205, 45, 50)})
        >>> blue.at_full_strength(np.array([190.0, 84.0, 32.0]), Color.BLUE)
        True
        >>> blue.at_full_strength(np.array([192.5, 153.9, 113.6]), Color.BLUE)  # paled
        False
        """
        index = self.colors.index(color)
        _, _, strength = _chroma(np.asarray(face, np.float32).reshape(1, 3))
        return bool(strength[0] >= FULL_CHROMA * self._strength[index])

    def matches(self, face: Array, color: Color) -> bool:
        """Whether a fitted face's colour (BGR) is ``color`` (however bright:
        :data:`FACE_BRIGHTNESS`).

        >>> red = PieceColours({Color.RED: (205, 45, 50), Color.BLUE: (35, 85, 185)})
        >>> red.matches(np.array([235.0, 191.0, 394.0]), Color.RED)  # under a glare
        True
        >>> red.matches(np.array([250.0, 250.0, 260.0]), Color.RED)  # a white glint
        False
        """
        found = self.classify(np.asarray(face).reshape(1, 3), FACE_BRIGHTNESS)
        return int(found[0]) == self.colors.index(color)


def _chroma(flat: Array) -> tuple[tuple[Array, Array, Array], Array, Array]:
    """Pixels' (N x 3) chroma (the colour less its grey part: its three channels, N each),
    brightness and chroma's strength (N each), channel by channel (numpy reduces and
    broadcasts along a 3-long axis slowly)."""
    brightness = (flat[:, 0] + flat[:, 1] + flat[:, 2]) / 3
    chroma = (flat[:, 0] - brightness, flat[:, 1] - brightness, flat[:, 2] - brightness)
    strength = np.sqrt(chroma[0] ** 2 + chroma[1] ** 2 + chroma[2] ** 2)
    return chroma, brightness, strength


def _dot(chroma: tuple[Array, Array, Array], directions: Array) -> Array:
    """Each pixel's ``chroma`` (three channels, N each) dotted with ``directions`` (3, or
    3 x K x 1 for K directions: K x N), summed channel by channel: numpy would hand a long
    product to several BLAS threads that mostly wait for each other."""
    product: Array = (
        chroma[0] * directions[0] + chroma[1] * directions[1] + chroma[2] * directions[2]
    )
    return product
