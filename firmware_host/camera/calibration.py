"""A café's own piece colours: the calibration file ``tabletop camera calibrate`` writes.

Format (YAML)::

    version: 1
    made: "2026-11-25T10:12:00+00:00"   # when it was measured (ISO 8601)
    frames: 3                           # how many frames it was measured from
    colors:                             # each colour's face, normalised sRGB
      red: [198.4, 40.2, 52.0]
      blue: [30.1, 80.6, 190.3]
      yellow: [236.0, 201.5, 35.2]
      green: [38.7, 151.0, 72.4]

Colours are normalised as :meth:`LookFrames.colours
<firmware_host.camera.scene.LookFrames.colours>` gives them (the markers' black 0, their
white 255 per channel), in R, G, B order. The table file's ``camera.calibration`` names
the file, relative to the table file; without one the nominal ``camera.colors`` hold.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Annotated, Literal

import yaml
from pydantic import Field

from firmware_host.camera.setup import CameraSetup
from firmware_host.config.loader import StrictModel, load_model
from firmware_host.errors import InputError
from firmware_host.games.dropit.rules.pieces import Color

RGBf = tuple[float, float, float]

Level = Annotated[float, Field(ge=-64.0, le=320.0, allow_inf_nan=False)]
"""A normalised channel: 0 is the markers' black and 255 their white; a little beyond
either is noise or a glossy face."""
Measured = Annotated[list[Level], Field(min_length=3, max_length=3)]


class CalibratedColors(StrictModel):
    """Every piece colour's measured face (normalised R, G, B)."""

    red: Measured
    blue: Measured
    yellow: Measured
    green: Measured


class Calibration(StrictModel):
    """A whole calibration file."""

    version: Literal[1]
    made: datetime = Field(strict=False)
    frames: Annotated[int, Field(ge=1)]
    colors: CalibratedColors

    def of(self, color: Color) -> RGBf:
        """One colour as an ``(r, g, b)`` tuple."""
        r, g, b = getattr(self.colors, color.value)
        return (r, g, b)


def load_calibration(path: Path | str) -> Calibration:
    """Read and check a calibration file (errors name the file and the key)."""
    return load_model(Calibration, path)


def save_calibration(path: Path | str, colors: dict[Color, RGBf], frames: int,
                     made: datetime) -> Calibration:
    """Write a calibration file of ``colors`` (every colour) measured from ``frames`` frames."""
    calibration = Calibration(
        version=1,
        made=made,
        frames=frames,
        colors=CalibratedColors(**{c.value: [round(v, 1) for v in colors[c]] for c in Color}),
    )
    data = {
        "version": 1,
        "made": made.isoformat(timespec="seconds"),
        "frames": frames,
        "colors": {c.value: list(calibration.of(c)) for c in Color},
    }
    try:
        Path(path).write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    except OSError as exc:
        raise InputError(str(path), "", f"cannot write the file ({exc.strerror})") from None
    return calibration


def calibration_path(setup: CameraSetup, table_dir: Path) -> Path | None:
    """The calibration file ``setup`` names, or None."""
    return None if setup.calibration is None else table_dir / setup.calibration


def effective_colors(setup: CameraSetup, table_dir: Path) -> dict[Color, RGBf]:
    """The piece colours a look compares faces with: the calibration's when the set-up
    names one (relative to ``table_dir``, the table file's folder), else the nominal ones."""
    path = calibration_path(setup, table_dir)
    if path is None:
        return {c: _floats(setup.colors.of(c)) for c in Color}
    calibration = load_calibration(path)
    return {c: calibration.of(c) for c in Color}


def _floats(rgb: tuple[int, int, int]) -> RGBf:
    r, g, b = rgb
    return (float(r), float(g), float(b))
