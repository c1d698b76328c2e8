"""The referee's eye's configuration: ``config/eye/reference.yaml`` (``version: 1``).

Every key is described in docs/eye.md and in the shipped file's comments.

>>> load_eye_config().decide.confidence
0.97
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field

from firmware_host.config.loader import CONFIG_DIR, StrictModel, load_model

EYE_CONFIG = CONFIG_DIR / "eye" / "reference.yaml"
"""The shipped configuration."""

Positive = Annotated[float, Field(gt=0)]
NonNegative = Annotated[float, Field(ge=0)]
Probability = Annotated[float, Field(gt=0, lt=1)]


class EntryFit(StrictModel):
    """Reading the entry gate: the release fit, flicker, second pieces and jams."""

    min_cut_ms: NonNegative
    angle_step: Annotated[float, Field(gt=0, le=30)]
    x_step: Annotated[float, Field(gt=0, le=10)]
    timing_sigma: Positive
    beam_miss_cost: Positive
    ignore_chord: NonNegative
    modes: Annotated[int, Field(ge=1, le=10)]
    second_drop_gap_ms: Positive
    jam_after_s: Positive


class Candidates(StrictModel):
    """How many candidate drops are simulated, and how widely they are drawn."""

    per_mode: Annotated[int, Field(ge=1, le=50)]
    refine: Annotated[int, Field(ge=0, le=50)]
    after_answer: Annotated[int, Field(ge=0, le=100)]
    x: NonNegative
    angle: NonNegative
    spin: NonNegative
    friction: Annotated[float, Field(ge=0, le=0.5)]
    elasticity: Annotated[float, Field(ge=0, le=0.5)]


class Likelihood(StrictModel):
    """The sensor noise model the readings are weighed under."""

    beam_error: Probability
    contact_missed: Probability
    contact_extra: Probability
    max_mismatch: Annotated[int, Field(ge=0)]
    temperature: Annotated[float, Field(ge=1)]


class ModelError(StrictModel):
    """How far the board's physics may be from the host's: relative std devs (log
    scale) of the coefficients drawn to check a verdict against the model's own error."""

    friction: Annotated[float, Field(ge=0, le=1)]
    elasticity: Annotated[float, Field(ge=0, le=1)]
    pane_drag: Annotated[float, Field(ge=0, le=1)]
    rolling: Annotated[float, Field(ge=0, le=1)]


class Fragile(StrictModel):
    """How far the leading landing is moved (mm, degrees) to find the feature of its
    verdict that a small pose error would flip."""

    mm: NonNegative
    degrees: NonNegative


class Decide(StrictModel):
    """When to decide, and how many questions to ask at most."""

    confidence: Annotated[float, Field(gt=0.5, le=1)]
    max_questions: Annotated[int, Field(ge=0, le=5)]
    staff_below: Annotated[float, Field(ge=0, le=1)]
    draws: Annotated[int, Field(ge=0, le=20)]
    unexplained: Annotated[int, Field(ge=0)]
    model_error: ModelError
    fragile: Fragile


class Track(StrictModel):
    """The weighted boards the eye carries from one drop to the next."""

    boards: Annotated[int, Field(ge=1, le=8)]
    per_mode: Annotated[int, Field(ge=1, le=50)]


class EyeConfig(StrictModel):
    """The whole eye configuration."""

    version: Literal[1]
    entry: EntryFit
    candidates: Candidates
    likelihood: Likelihood
    decide: Decide
    track: Track


def load_eye_config(path: Path | str | None = None) -> EyeConfig:
    """Load ``path`` (default: the shipped ``config/eye/reference.yaml``)."""
    return load_model(EyeConfig, path or EYE_CONFIG)
