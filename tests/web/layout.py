"""Measuring a page in the browser: what overflows, what needs scrolling, the smallest text
and the smallest tap target, at the size the window has (set with :func:`viewport`).

The limits (docs/web.md): on the table's 1920x1080 screen nothing scrolls and no text is
under 16 px; on a phone nothing scrolls sideways and every tap target is at least 44x44
px; nowhere does an element spill out of its container or the window.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCREEN = (1920, 1080)
PHONE = (412, 915)
MIN_TEXT_PX = 16.0
MIN_TAP_PX = 44.0

_MEASURE = (Path(__file__).parent / "measure.js").read_text()
"""The measuring script (returns what :class:`Layout` holds)."""


@dataclass(frozen=True)
class Layout:
    """What :func:`measure` found on the page as it is now."""

    overflows: list[str]
    hidden: list[str]
    smallest_text: tuple[float, str]
    smallest_tap: tuple[float, str]
    scroll: tuple[float, float]
    """How far the page scrolls sideways and down (0: it fits)."""
    size: tuple[int, int]

    def problems(self, screen: bool) -> list[str]:
        """Every limit broken; ``screen``: the table's screen (no scrolling, 16 px text)."""
        found = [*self.overflows]
        if self.scroll[0] > 1:
            found.append(f"the page scrolls {self.scroll[0]} px sideways")
        if screen:
            found += self.hidden
            if self.scroll[1] > 1:
                found.append(f"the page scrolls {self.scroll[1]} px down")
            if self.smallest_text[0] < MIN_TEXT_PX - 0.05:
                found.append(f"text of {self.smallest_text[0]:.1f} px: {self.smallest_text[1]}")
        else:
            found += [h for h in self.hidden if "sideways" in h]
            size, what = self.smallest_tap
            if size < MIN_TAP_PX - 0.5:
                found.append(f"a tap target of {size:.1f} px: {what}")
        return found


def viewport(driver: Any, size: tuple[int, int]) -> None:
    """Make the page's window exactly ``size`` CSS pixels (a phone's is a mobile one)."""
    width, height = size
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 800},
    )


def measure(driver: Any) -> Layout:
    """Measure the page as the browser shows it now."""
    found = driver.execute_script(_MEASURE)
    return Layout(
        found["overflows"],
        found["hidden"],
        _least(found["smallest"]),
        _least(found["tap"]),
        tuple(found["scroll"]),
        tuple(found["size"]),
    )


def _least(found: list[Any]) -> tuple[float, str]:
    """A smallest size the script found (None when there was nothing to measure)."""
    size, what = found
    return (float("inf") if size is None else float(size)), what


def check(driver: Any, shots: Path, name: str, screen: bool) -> Layout:
    """Save a screenshot ``name``.png in ``shots`` and fail naming every limit broken."""
    shots.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(shots / f"{name}.png"))
    layout = measure(driver)
    problems = layout.problems(screen)
    assert problems == [], f"{name} at {layout.size}: {problems}"
    return layout
