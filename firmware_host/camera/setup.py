"""The table file's ``camera:`` section: where frames come from and what the camera sees.

A table without a camera says ``camera: none`` (or leaves the section out). The reference
table's section::

    camera:
      source: {kind: picamera2}       # picamera2 | opencv | files | virtual (below)
      resolution: [1600, 1200]        # width, height of the frames the look works from (px)
      frames_per_look: 3              # frames of one still scene combined in a look
      exposure: {mode: auto}          # or {mode: manual, exposure_us: 8000, gain: 1.5}
      markers:                        # the four ArUco markers on the stand
        dictionary: DICT_4X4_50
        size: 24.0                    # the black square's side (mm)
        quiet_zone: 6.0               # white margin around it (mm)
        centres: {0: [-25, -25], 1: [325, -25], 2: [325, 335], 3: [-25, 335]}
      colors:                         # the painted pieces' colours (sRGB 0-255)
        red: [205, 45, 50]
        blue: [35, 85, 185]
        yellow: [240, 200, 40]
        green: [40, 150, 70]
      calibration: null               # or a file `tabletop camera calibrate` wrote (relative
                                      # to the table file): a café's own piece colours

Sources: ``{kind: picamera2}`` (the Pi's camera port, optional ``camera: N``);
``{kind: opencv, device: 0}`` or ``{kind: opencv, url: "rtsp://..."}`` (anything OpenCV's
``VideoCapture`` opens: a USB camera, a video file, a stream); ``{kind: files, path: DIR}``
(image files, oldest first, relative to the table file); ``{kind: virtual}`` (the
simulator's camera). Markers: each one's top edge of the image points to +y; their
centres are in the board frame (mm).

>>> setup = CameraSetup.model_validate(REFERENCE_CAMERA)
>>> setup.markers.corners(1)[0]
(313.0, -13.0)
>>> setup.colors.of("blue")
(35, 85, 185)
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from firmware_host.config.loader import ConfigValueError, StrictModel
from firmware_host.games.dropit.rules.pieces import Color

Point = tuple[float, float]
RGB = tuple[int, int, int]

Channel = Annotated[int, Field(ge=0, le=255)]
ColorValue = Annotated[list[Channel], Field(min_length=3, max_length=3)]

Dictionary = Literal["DICT_4X4_50", "DICT_4X4_100", "DICT_5X5_50", "DICT_5X5_100", "DICT_6X6_50"]
"""The ArUco dictionaries a stand may use (OpenCV's names)."""


class Picamera2SourceConfig(StrictModel):
    """The Raspberry Pi camera port, through picamera2 (``camera``: which one, from 0)."""

    kind: Literal["picamera2"]
    camera: Annotated[int, Field(ge=0, le=7)] = 0


class OpenCVSourceConfig(StrictModel):
    """Anything OpenCV's ``VideoCapture`` opens: a device index or a file or stream URL."""

    kind: Literal["opencv"]
    device: Annotated[int, Field(ge=0, le=63)] | None = None
    url: Annotated[str, Field(min_length=1)] | None = None

    @model_validator(mode="after")
    def _one_of(self) -> OpenCVSourceConfig:
        if (self.device is None) == (self.url is None):
            raise ConfigValueError("", "give exactly one of device (an index) or url")
        return self


class FilesSourceConfig(StrictModel):
    """Image files in a folder (PNG or JPEG), taken in name order; ``path`` is relative to
    the table file."""

    kind: Literal["files"]
    path: Annotated[str, Field(min_length=1)]


class VirtualSourceConfig(StrictModel):
    """The simulator's virtual camera (rendered from the true world)."""

    kind: Literal["virtual"]


Source = Annotated[
    Picamera2SourceConfig | OpenCVSourceConfig | FilesSourceConfig | VirtualSourceConfig,
    Field(discriminator="kind"),
]


class Exposure(StrictModel):
    """Exposure: ``auto``, or ``manual`` with a fixed time (µs) and analogue gain."""

    mode: Literal["auto", "manual"]
    exposure_us: Annotated[int, Field(ge=10, le=1_000_000)] | None = None
    gain: Annotated[float, Field(ge=1.0, le=16.0)] | None = None

    @model_validator(mode="after")
    def _manual_needs_values(self) -> Exposure:
        given = self.exposure_us is not None or self.gain is not None
        if self.mode == "manual" and (self.exposure_us is None or self.gain is None):
            raise ConfigValueError("", "manual exposure needs exposure_us and gain")
        if self.mode == "auto" and given:
            raise ConfigValueError("", "exposure_us and gain go with mode: manual")
        return self


class MarkerLayout(StrictModel):
    """The ArUco markers on the stand: dictionary, black-square size, quiet zone, centres."""

    dictionary: Dictionary = "DICT_4X4_50"
    size: Annotated[float, Field(gt=0, le=200)]
    quiet_zone: Annotated[float, Field(ge=0, le=100)]
    centres: dict[int, Annotated[list[float], Field(min_length=2, max_length=2)]] = Field(
        strict=False
    )

    @model_validator(mode="after")
    def _enough(self) -> MarkerLayout:
        if len(self.centres) < 2:
            raise ConfigValueError("centres", "at least two markers are needed")
        for marker_id in self.centres:
            if not 0 <= marker_id < 50:
                raise ConfigValueError(f"centres.{marker_id}", "marker ids run from 0 to 49")
        reach = self.size / 2 + self.quiet_zone
        ids = sorted(self.centres)
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                (ax, ay), (bx, by) = self.centres[a], self.centres[b]
                if abs(ax - bx) < 2 * reach and abs(ay - by) < 2 * reach:
                    raise ConfigValueError(
                        f"centres.{b}", f"marker {b} overlaps marker {a} (with quiet zones)"
                    )
        return self

    def corners(self, marker_id: int) -> tuple[Point, Point, Point, Point]:
        """The black square's corners in the board frame, in ArUco's order (the image's
        top-left, top-right, bottom-right, bottom-left; its top toward +y)."""
        cx, cy = self.centres[marker_id]
        h = self.size / 2
        return ((cx - h, cy + h), (cx + h, cy + h), (cx + h, cy - h), (cx - h, cy - h))


class PieceColorsConfig(StrictModel):
    """The pieces' colours as sRGB 0-255 (nominal, or a café's calibration)."""

    red: ColorValue
    blue: ColorValue
    yellow: ColorValue
    green: ColorValue

    def of(self, color: Color | str) -> RGB:
        """One colour as an ``(r, g, b)`` tuple."""
        r, g, b = getattr(self, str(color))
        return (r, g, b)


class CameraSetup(StrictModel):
    """The whole ``camera:`` section of a table file."""

    source: Source
    resolution: Annotated[list[Annotated[int, Field(ge=160, le=8192)]], Field(min_length=2,
                                                                              max_length=2)]
    frames_per_look: Annotated[int, Field(ge=1, le=10)] = 3
    exposure: Exposure = Exposure(mode="auto")
    markers: MarkerLayout
    colors: PieceColorsConfig
    calibration: str | None = None

    @property
    def size(self) -> tuple[int, int]:
        """Frame size as ``(width, height)`` in pixels."""
        return (self.resolution[0], self.resolution[1])


REFERENCE_CAMERA: dict[str, object] = {
    "source": {"kind": "picamera2"},
    "resolution": [1600, 1200],
    "frames_per_look": 3,
    "exposure": {"mode": "auto"},
    "markers": {
        "dictionary": "DICT_4X4_50",
        "size": 24.0,
        "quiet_zone": 6.0,
        "centres": {0: [-25.0, -25.0], 1: [325.0, -25.0], 2: [325.0, 335.0], 3: [-25.0, 335.0]},
    },
    "colors": {
        "red": [205, 45, 50],
        "blue": [35, 85, 185],
        "yellow": [240, 200, 40],
        "green": [40, 150, 70],
    },
}
"""The reference set-up (the same as ``config/tables/reference.yaml``'s section), for
doctests and as the default of ``tabletop camera look`` without a table's camera."""
