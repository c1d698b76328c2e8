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

The shipped profiles are found by name; any other profile by its path.

>>> load_profile("clean").sensors.beam_flicker
0.0
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, model_validator

from firmware_host.config.loader import CONFIG_DIR, ConfigValueError, StrictModel, load_model
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


class LinkFaults(StrictModel):
    """Faults on the serial line (applied by the virtual hub, not by the noise layer)."""

    lost_frames: Probability
    corrupted_bytes: Probability
    latency_jitter: NonNegative
    unplug: Unplug


class NoiseProfile(StrictModel):
    """A whole noise and fault profile."""

    version: Literal[1]
    drop: DropJitter
    physics_spread: PhysicsSpread
    sensors: SensorNoise
    link: LinkFaults


def load_profile(name_or_path: Path | str) -> NoiseProfile:
    """Load a shipped profile by name (``realistic``) or any profile by its file path."""
    text = str(name_or_path)
    shipped = NOISE_DIR / f"{text}.yaml"
    if "/" not in text and not text.endswith((".yaml", ".yml")):
        if not shipped.is_file():
            names = ", ".join(sorted(p.stem for p in NOISE_DIR.glob("*.yaml")))
            raise InputError(text, "", f"no such noise profile (shipped: {names})")
        return load_model(NoiseProfile, shipped)
    return load_model(NoiseProfile, name_or_path)
