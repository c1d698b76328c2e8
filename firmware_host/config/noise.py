"""Noise and fault profiles: how far the simulator's table strays from a perfect one.

A profile is YAML (``config/noise/clean.yaml``, ``realistic.yaml``, ``harsh.yaml``)::

    version: 1
    drop:                        # the player's hand, per drop
      x: 2.0                     # mm, standard deviation of the release x
      angle: 4.0                 # degrees, standard deviation of the release angle
      spin: 20.0                 # degrees/s, standard deviation of the spin given
      release_height: [5, 30]    # mm, lowest point above the entry gate's row (uniform)
    physics_spread:              # relative standard deviation per drop
      friction: 0.05
      elasticity: 0.1
    sensors:                     # applied to readings by simulator/noise.py
      beam_flicker: 0.001        # probability a beam's reading flips in a snapshot
      stuck_beams: {cut: 0, clear: 1}   # beams stuck cut / stuck clear, drawn from the seed
      missed_contacts: 0.01      # probability a pressed edge element reads unpressed
    link:                        # defined and validated now; the virtual hub applies them
      lost_frames: 0.001         # probability a frame is lost
      corrupted_bytes: 0.00001   # probability a byte on the wire is corrupted
      latency_jitter: 5.0        # ms, the most a frame is delayed beyond its due time
      unplug: {rate: 0.5, duration: [1.0, 8.0]}   # per hour; seconds unplugged (uniform)
    camera:                      # the virtual camera (optional: the clean values)
      ...                        # every knob: CameraNoise, config/noise/*.yaml, docs/simulator.md

The shipped profiles are found by name; any other profile by its path.

>>> load_profile("clean").sensors.beam_flicker
0.0
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, model_validator

from firmware_host.config.loader import (
    CONFIG_DIR,
    SHIPPED_CONFIG_DIR,
    ConfigValueError,
    StrictModel,
    config_file,
    load_model,
)
from firmware_host.errors import InputError

NOISE_DIR = CONFIG_DIR / "noise"
"""The shipped profiles: ``clean``, ``realistic``, ``harsh``."""

NonNegative = Annotated[float, Field(ge=0)]
Probability = Annotated[float, Field(ge=0, le=1)]
Range = Annotated[list[NonNegative], Field(min_length=2, max_length=2)]


def _check_range(where: str, values: list[float]) -> None:
    if values[0] > values[1]:
        raise ConfigValueError(where, f"expected [low, high] with low <= high, got {values}")


class DropJitter(StrictModel):
    """The hand's scatter around the intended drop (standard deviations; a uniform height)."""

    x: NonNegative
    angle: NonNegative
    spin: NonNegative
    release_height: Range

    @model_validator(mode="after")
    def _ordered(self) -> DropJitter:
        _check_range("release_height", self.release_height)
        return self


class PhysicsSpread(StrictModel):
    """Relative standard deviation of the true world's coefficients, drawn anew each drop."""

    friction: Annotated[float, Field(ge=0, le=0.5)]
    elasticity: Annotated[float, Field(ge=0, le=0.5)]


class StuckBeams(StrictModel):
    """How many beams (entry gate, top gate and curtain together) read cut or clear always."""

    cut: Annotated[int, Field(ge=0)]
    clear: Annotated[int, Field(ge=0)]


class SensorNoise(StrictModel):
    """Noise on the sensors' readings."""

    beam_flicker: Probability
    stuck_beams: StuckBeams
    missed_contacts: Probability


class Unplug(StrictModel):
    """The hub's cable comes out ``rate`` times an hour, for ``duration`` seconds."""

    rate: NonNegative
    duration: Range

    @model_validator(mode="after")
    def _ordered(self) -> Unplug:
        _check_range("duration", self.duration)
        return self


class LinkFaultsConfig(StrictModel):
    """Faults on the serial line (applied by the virtual hub, not by the noise layer)."""

    lost_frames: Probability
    corrupted_bytes: Probability
    latency_jitter: NonNegative
    unplug: Unplug


class CameraPose(StrictModel):
    """Where the camera stands, drawn once per virtual camera (uniform in each range)."""

    distance: Range
    """mm from the lens to the front pane's plane (along the line to the aimed point)."""
    px_per_mm: Range
    """Scale at the aimed point: the focal length is ``px_per_mm * distance`` px."""
    tilt: Annotated[float, Field(ge=0, le=20)]
    """Degrees, the most the optical axis leans off square-on (in a direction drawn)."""
    roll: Annotated[float, Field(ge=0, le=15)]
    """Degrees, the most the image turns about the optical axis (either way)."""
    offset: Annotated[float, Field(ge=0, le=60)]
    """mm, the most the aimed point lies off the board's middle (in x and in y)."""
    principal: Annotated[float, Field(ge=0, le=100)]
    """px, the most the principal point lies off the frame's centre (in x and in y)."""


class Nudge(StrictModel):
    """A knocked table: before each look the camera moves a little from where it stands
    (normal, these standard deviations; not cumulative)."""

    shift: NonNegative
    """mm, in each of x, y and z."""
    turn: NonNegative
    """Degrees, about each axis."""


class Glare(StrictModel):
    """Reflections on the pane: bright, desaturated blobs, over the pieces too."""

    spots: Annotated[list[Annotated[int, Field(ge=0, le=10)]], Field(min_length=2, max_length=2)]
    """How many per look, uniform in [low, high]."""
    strength: Range
    """Peak brightness added, as a fraction of full white (uniform)."""
    size: Range
    """The blob's radius, mm on the pane (uniform)."""

    @model_validator(mode="after")
    def _ordered(self) -> Glare:
        _check_range("spots", [float(n) for n in self.spots])
        _check_range("strength", self.strength)
        _check_range("size", self.size)
        return self


class CameraUnplug(StrictModel):
    """The camera's cable comes out: a look starts a run of unavailable looks."""

    rate: Probability
    """Probability that a look (while plugged in) starts a run."""
    looks: Annotated[list[Annotated[int, Field(ge=1, le=1000)]], Field(min_length=2, max_length=2)]
    """The run's length in looks, uniform in [low, high]."""

    @model_validator(mode="after")
    def _ordered(self) -> CameraUnplug:
        _check_range("looks", [float(n) for n in self.looks])
        return self


class CameraFaults(StrictModel):
    """Faults of a look (each drawn independently per look)."""

    marker_covered: Probability
    """A cup or a hand covers one marker for the whole look."""
    hand: Probability
    """A hand in front of the pane in one frame of the look."""
    dropped_frame: Probability
    """The look gives one frame fewer (a look of one frame keeps it)."""
    unplug: CameraUnplug


class CameraNoise(StrictModel):
    """How far the virtual camera's frames stray from a perfect camera
    (:mod:`simulator.camera_render`)."""

    pose: CameraPose
    nudge: Nudge
    color_cast: Annotated[float, Field(ge=0, le=0.5)]
    """The most each channel's gain strays from 1 (white balance), uniform."""
    exposure: Range
    """Overall brightness factor, uniform."""
    illumination: Annotated[float, Field(ge=0, le=1)]
    """The most the light falls off across the frame (a smooth gradient), as a fraction."""
    vignetting: Annotated[float, Field(ge=0, le=1)]
    """Darkening in the frame's corners, as a fraction."""
    glare: Glare
    pane_haze: Annotated[list[Annotated[float, Field(ge=0, le=0.5)]],
                         Field(min_length=2, max_length=2)]
    """The front pane's haze (dust, smears, the room's light): the share of what lies
    behind the pane replaced by a light grey, uniform."""
    clutter: Annotated[float, Field(ge=0, le=1)]
    """The café behind the back pane: 0 a plain wall, 1 crowded; contrast grows with it."""
    sensor_noise: Annotated[float, Field(ge=0, le=30)]
    """Standard deviation of the sensor's noise at mid-grey (levels of 255); darker pixels
    have less, brighter more (shot noise)."""
    blur: Range
    """Optical blur: Gaussian sigma in px, uniform."""
    jpeg_quality: Annotated[
        list[Annotated[int, Field(ge=10, le=100)]], Field(min_length=2, max_length=2)
    ]
    """The JPEG quality each frame is encoded at, uniform in [low, high]."""
    faults: CameraFaults

    @model_validator(mode="after")
    def _ordered(self) -> CameraNoise:
        for where, values in (
            ("pose.distance", self.pose.distance),
            ("pose.px_per_mm", self.pose.px_per_mm),
            ("exposure", self.exposure),
            ("pane_haze", self.pane_haze),
            ("blur", self.blur),
            ("jpeg_quality", [float(q) for q in self.jpeg_quality]),
        ):
            _check_range(where, values)
        if self.pose.distance[0] <= 0 or self.pose.px_per_mm[0] <= 0:
            raise ConfigValueError("pose", "distance and px_per_mm must be above 0")
        if self.exposure[0] <= 0:
            raise ConfigValueError("exposure", "the exposure factor must be above 0")
        return self


CLEAN_CAMERA: dict[str, object] = {
    "pose": {
        "distance": [450.0, 550.0],
        "px_per_mm": [2.6, 2.8],
        "tilt": 6.0,
        "roll": 2.0,
        "offset": 10.0,
        "principal": 20.0,
    },
    "nudge": {"shift": 0.0, "turn": 0.0},
    "color_cast": 0.0,
    "exposure": [1.0, 1.0],
    "illumination": 0.0,
    "vignetting": 0.1,
    "glare": {"spots": [0, 0], "strength": [0.0, 0.0], "size": [0.0, 0.0]},
    "pane_haze": [0.02, 0.04],
    "clutter": 0.3,
    "sensor_noise": 1.5,
    "blur": [0.3, 0.5],
    "jpeg_quality": [95, 95],
    "faults": {
        "marker_covered": 0.0,
        "hand": 0.0,
        "dropped_frame": 0.0,
        "unplug": {"rate": 0.0, "looks": [1, 1]},
    },
}
"""The clean profile's camera (``config/noise/clean.yaml``): the default of a profile
without a ``camera:`` section."""


class NoiseProfile(StrictModel):
    """A whole noise and fault profile."""

    version: Literal[1]
    drop: DropJitter
    physics_spread: PhysicsSpread
    sensors: SensorNoise
    link: LinkFaultsConfig
    camera: CameraNoise = Field(default_factory=lambda: CameraNoise.model_validate(CLEAN_CAMERA))


def load_profile(name_or_path: Path | str) -> NoiseProfile:
    """Load a shipped profile by name (``realistic``) or any profile by its file path."""
    text = str(name_or_path)
    shipped = config_file(NOISE_DIR / f"{text}.yaml")
    if "/" not in text and not text.endswith((".yaml", ".yml")):
        if not shipped.is_file():
            folders = {NOISE_DIR, SHIPPED_CONFIG_DIR / "noise"}
            names = ", ".join(sorted({p.stem for f in folders for p in f.glob("*.yaml")}))
            raise InputError(text, "", f"no such noise profile (shipped: {names})")
        return load_model(NoiseProfile, shipped)
    return load_model(NoiseProfile, name_or_path)
