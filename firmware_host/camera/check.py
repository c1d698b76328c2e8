"""Whether a table's camera is set up well enough to look: what ``tabletop camera check``
and the doctor report.

From a few frames it measures the markers found and missing, the image scale at the drop
zone's centre and corners, the homography's residual, the focus (the width of the
markers' black-to-white edges) and the exposure (the markers' black and white levels).
Each measure is the worst over the frames. :func:`check_frames` turns them into findings
(:class:`~firmware_host.doctor.report.Finding`): each either fine or with what to fix.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from firmware_host.camera.calibration import calibration_path, load_calibration
from firmware_host.camera.markers import BoardNotFound, BoardView, MarkerFinder
from firmware_host.camera.scene import marker_levels, sample
from firmware_host.camera.setup import CameraSetup, MarkerLayout
from firmware_host.config.board import Board
from firmware_host.doctor.report import Finding
from firmware_host.games.dropit.lineup import COLOUR_NAMES
from firmware_host.games.dropit.rules.pieces import Color
from firmware_host.i18n import SOURCE_LANGUAGE, Message, Say, Text, lazy, lazy_p, translator

Array = np.ndarray

MIN_PX_PER_MM = 2.0
"""Least image scale anywhere on the drop zone: below it an outline's fit loses its
sub-millimetre precision."""
MAX_RESIDUAL_PX = 1.5
"""Most RMS distance of the markers' corners from the homography: above it the markers'
centres in the table file do not match the stand (or a marker is bent)."""
MAX_EDGE_PX = 3.0
"""Widest 10-90 % black-to-white rise across a marker's edge in a focused frame (px)."""
MIN_WHITE = 110.0
"""Below this (0-255, in any channel) the markers' white is too dark."""
MAX_WHITE = 250.0
"""At or above this (in any channel) the markers' white is clipped."""
MAX_BLACK = 90.0
"""Above this (in any channel) the markers' black is washed out (glare, haze)."""

PLACES = ("centre", "bottom-left", "bottom-right", "top-right", "top-left")



@dataclass(frozen=True)
class FrameMeasures:
    """What one frame shows of the set-up (colour levels as R, G, B)."""

    markers: tuple[int, ...]
    px_per_mm: dict[str, float]
    residual_px: float
    edge_px: float
    black: tuple[float, float, float]
    white: tuple[float, float, float]


@dataclass(frozen=True)
class CameraCheck:
    """The measures of every frame in which the board was found, the names of those in
    which it was not, and the findings."""

    expected: tuple[int, ...]
    measures: list[FrameMeasures]
    blind: list[str]
    findings: list[Finding] = field(default_factory=list)

    @property
    def ready(self) -> bool:
        """True when nothing needs fixing."""
        return all(f.ok for f in self.findings)

    def to_json(self, say: Say | None = None) -> dict[str, object]:
        """The measures (worst over the frames) and findings as JSON data, the findings'
        words said with ``say`` (English by default)."""
        say = say or translator(SOURCE_LANGUAGE).say
        data: dict[str, object] = {"ready": self.ready, "frames_without_board": self.blind}
        if self.measures:
            found = _found(self.measures)
            data |= {
                "markers": {"found": list(found), "missing": _missing(self.expected, found)},
                "px_per_mm": {p: round(_scale(self.measures, p), 3) for p in PLACES},
                "residual_px": round(max(m.residual_px for m in self.measures), 3),
                "edge_px": round(max(m.edge_px for m in self.measures), 2),
                "black": [round(v, 1) for v in np.max([m.black for m in self.measures], 0)],
                "white": [round(v, 1) for v in np.min([m.white for m in self.measures], 0)],
            }
        data["findings"] = [
            {"area": f.area, "what": say(f.what), "fix": say(f.fix), "ok": f.ok}
            for f in self.findings
        ]
        return data


def corners_and_centre(board: Board) -> dict[str, tuple[float, float]]:
    """The drop zone's centre and corners (mm), by :data:`PLACES` name."""
    w, h = board.width, board.height
    points = ((w / 2, h / 2), (0.0, 0.0), (w, 0.0), (w, h), (0.0, h))
    return dict(zip(PLACES, points, strict=True))


def edge_width_px(layout: MarkerLayout, image: Array, view: BoardView) -> float:
    """The median 10-90 % width (px) of the markers' outer black-to-white edges: a
    focused frame's edges rise within a pixel or two."""
    gray = image.mean(axis=2, keepdims=True).astype(np.float32)
    gray3 = np.repeat(gray, 3, axis=2)
    reach = 0.8 * min(layout.size / 6, max(layout.quiet_zone, 0.5))
    steps = np.linspace(-reach, reach, 81)
    widths = []
    for marker_id in view.markers:
        corners = np.array(layout.corners(marker_id))
        centre = corners.mean(axis=0)
        for a, b in zip(corners, np.roll(corners, -1, axis=0), strict=True):
            outward = (a + b) / 2 - centre
            outward /= np.linalg.norm(outward)
            for t in (0.3, 0.5, 0.7):
                base = a + t * (b - a)
                profile_px = view.to_image(base + steps[:, None] * outward)
                values = sample(gray3, profile_px)[:, 0]
                if np.isnan(values).any():
                    continue
                low, high = values.min(), values.max()
                if high - low < 1.0:
                    continue
                level = (values - low) / (high - low)
                step_px = float(np.linalg.norm(profile_px[-1] - profile_px[0])) / (len(steps) - 1)
                widths.append(float(np.sum((level > 0.1) & (level < 0.9))) * step_px)
    return float(np.median(widths)) if widths else float("inf")


def measure(layout: MarkerLayout, board: Board, finder: MarkerFinder,
            image: Array) -> FrameMeasures:
    """One frame's measures (raises :class:`BoardNotFound` when no marker is found)."""
    view = finder.find(image)
    levels = marker_levels(layout, image, view)
    scale = {p: view.px_per_mm(x, y) for p, (x, y) in corners_and_centre(board).items()}
    black = levels.black[::-1]
    white = levels.white[::-1]
    return FrameMeasures(
        view.markers,
        scale,
        view.residual_px,
        edge_width_px(layout, image, view),
        (float(black[0]), float(black[1]), float(black[2])),
        (float(white[0]), float(white[1]), float(white[2])),
    )


def check_frames(
    setup: CameraSetup, board: Board, frames: Sequence[Array], names: Sequence[str]
) -> CameraCheck:
    """Measure ``frames`` and say what is fine and what to fix."""
    finder = MarkerFinder(setup.markers)
    expected = tuple(sorted(setup.markers.centres))
    measures, blind = [], []
    for image, name in zip(frames, names, strict=True):
        try:
            measures.append(measure(setup.markers, board, finder, image))
        except BoardNotFound:
            blind.append(name)
    check = CameraCheck(expected, measures, blind)
    check.findings.extend(_findings(check))
    return check


def _found(measures: Sequence[FrameMeasures]) -> tuple[int, ...]:
    """The marker ids found in every frame."""
    common = set(measures[0].markers)
    for m in measures[1:]:
        common &= set(m.markers)
    return tuple(sorted(common))


def _missing(expected: tuple[int, ...], found: tuple[int, ...]) -> list[int]:
    return [i for i in expected if i not in found]


def _scale(measures: Sequence[FrameMeasures], place: str) -> float:
    return min(m.px_per_mm[place] for m in measures)


def _rgb(values: Array) -> str:
    return "(" + ", ".join(f"{v:.0f}" for v in values) + ")"


def _numbers(numbers: Sequence[int]) -> Text:
    return ", ".join(map(str, numbers)) if numbers else lazy_p("markers", "none")


def _findings(check: CameraCheck) -> list[Finding]:
    """The findings of a check's measures."""
    findings = []
    if check.blind:
        findings.append(Finding(
            "markers",
            lazy("no board marker found in {frames}", frames=", ".join(check.blind)),
            lazy("point the camera at the drop zone so all four markers show, uncovered and lit"),
        ))
    if not check.measures:
        return findings
    found = _found(check.measures)
    missing = _missing(check.expected, found)
    if missing:
        findings.append(Finding(
            "markers",
            lazy("found {found}; missing {missing}", found=_numbers(found),
                 missing=_numbers(missing)),
            lazy("make every marker visible (in the frame, not covered, not in glare)"),
        ))
    else:
        findings.append(Finding("markers", lazy("found {found}", found=_numbers(found))))
    scales = {p: _scale(check.measures, p) for p in PLACES}
    at = {p.replace("-", "_"): round(v, 2) for p, v in scales.items()}
    coarse = min(scales.values())
    findings.append(Finding(
        "scale",
        lazy("px per mm: centre {centre}, bottom-left {bottom_left}, bottom-right "
             "{bottom_right}, top-right {top_right}, top-left {top_left}", **at),
        "" if coarse >= MIN_PX_PER_MM else lazy(
            "below {least} px/mm: move the camera closer or raise camera.resolution",
            least=MIN_PX_PER_MM),
    ))
    residual = max(m.residual_px for m in check.measures)
    findings.append(Finding(
        "residual",
        lazy("homography residual {residual} px", residual=round(residual, 2)),
        "" if residual <= MAX_RESIDUAL_PX else lazy(
            "above {most} px: check the markers lie flat and camera.markers.centres match "
            "the stand", most=MAX_RESIDUAL_PX),
    ))
    edge = max(m.edge_px for m in check.measures)
    width = round(edge, 1)
    findings.append(Finding(
        "focus",
        lazy("marker edges {width} px wide (blurred)", width=width) if edge > MAX_EDGE_PX
        else lazy("marker edges {width} px wide", width=width),
        "" if edge <= MAX_EDGE_PX else lazy(
            "sharpen the focus until the edges are at most {most} px wide (clean the pane "
            "and the lens)", most=MAX_EDGE_PX),
    ))
    black = np.max([m.black for m in check.measures], axis=0)
    white = np.min([m.white for m in check.measures], axis=0)
    brightest = np.max([m.white for m in check.measures], axis=0)
    levels = lazy("markers' black {black}, white {white}", black=_rgb(black), white=_rgb(white))
    fix: Message | str
    if float(brightest.max()) >= MAX_WHITE:
        fix = lazy("white is clipped: lower the exposure or the light")
    elif float(white.min()) < MIN_WHITE:
        fix = lazy("too dark: raise the exposure or light the table")
    elif float(black.max()) > MAX_BLACK:
        fix = lazy("black is washed out: remove glare on the pane or lower the exposure")
    else:
        fix = ""
    findings.append(Finding("exposure", levels, fix))
    return findings


def colour_findings(setup: CameraSetup, folder: Path) -> list[Finding]:
    """The piece colours a look uses: each calibrated colour against its nominal value,
    or a note that the nominal ones hold (``folder``: the table file's)."""
    path = calibration_path(setup, folder)
    if path is None:
        return [Finding("colours", lazy("nominal piece colours (no calibration named)"))]
    calibration = load_calibration(path)
    return [
        Finding(
            "colours",
            lazy(
                "{colour}: calibrated {calibrated}, nominal {nominal}",
                colour=COLOUR_NAMES[color],
                calibrated=_rgb(np.array(calibration.of(color))),
                nominal=_rgb(np.array(setup.colors.of(color))),
            ),
        )
        for color in Color
    ]
