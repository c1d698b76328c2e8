"""What the doctor found: each finding printed as it comes, then a plain summary, in the
table's language (the log's events stay English).

>>> import io
>>> out = io.StringIO()
>>> report = Report(out)
>>> report.ok("config", lazy("board file {path}", path="config/boards/reference.yaml"))
>>> report.problem("hub", lazy("no hub found"), lazy("plug the hub's USB cable into the Pi"))
>>> report.summary()
1
>>> print(out.getvalue(), end="")
ok    config  board file config/boards/reference.yaml
FIX   hub     no hub found
              what to do: plug the hub's USB cable into the Pi
<BLANKLINE>
1 problem to fix:
  - hub: no hub found -> plug the hub's USB cable into the Pi
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TextIO

from firmware_host.i18n import (
    SOURCE_LANGUAGE,
    Message,
    Text,
    Translator,
    lazy,
    lazy_n,
    lazy_p,
    translator,
)
from firmware_host.logs import event

log = logging.getLogger("firmware_host.doctor")

AREAS: dict[str, Message] = {
    "config": lazy_p("check area", "config"),
    "camera": lazy_p("check area", "camera"),
    "hub": lazy_p("check area", "hub"),
    "gates": lazy_p("check area", "gates"),
    "leds": lazy_p("check area", "leds"),
    "web": lazy_p("check area", "web"),
    "markers": lazy_p("check area", "markers"),
    "scale": lazy_p("check area", "scale"),
    "residual": lazy_p("check area", "residual"),
    "focus": lazy_p("check area", "focus"),
    "exposure": lazy_p("check area", "exposure"),
    "colours": lazy_p("check area", "colours"),
}
"""The name of each area a check reports on, as the technician reads it."""

DOCTOR_AREAS = ("config", "camera", "hub", "gates", "leds", "web")
"""The areas ``tabletop doctor`` reports on (its report's column fits their names)."""

CHECK_AREAS = ("markers", "scale", "residual", "focus", "exposure", "colours")
"""The areas ``tabletop camera check`` reports on."""

MARKS = {
    "ok": lazy_p("check mark", "ok"),
    "fix": lazy_p("check mark", "FIX"),
    "warn": lazy_p("check mark", "WARN"),
    "skip": lazy_p("check mark", "skip"),
}
"""The word before each finding: passed, to fix, to change, not checked."""


def area_name(area: str, t: Translator) -> str:
    """``area`` as the technician reads it in ``t``'s language."""
    return AREAS[area](t) if area in AREAS else area


@dataclass(frozen=True)
class Finding:
    """One check's result (``area``: one of :data:`AREAS`): ``fix`` is empty when all is
    well."""

    area: str
    what: Text
    fix: Text = ""
    warning: bool = False

    @property
    def ok(self) -> bool:
        """True when nothing needs doing."""
        return not self.fix


class Columns:
    """Lays findings out in columns wide enough for the marks and ``areas``' names in
    ``t``'s language."""

    def __init__(self, t: Translator, areas: Iterable[str]) -> None:
        self.t = t
        self.mark_width = max(len(mark(t)) for mark in MARKS.values()) + 1
        self.area_width = max(len(area_name(area, t)) for area in areas) + 1

    def line(self, mark: str, area: str, what: Text) -> str:
        """One finding's line: its mark (a key of :data:`MARKS`), area and what was found."""
        word, name = MARKS[mark](self.t), area_name(area, self.t)
        return f"{word:<{self.mark_width}} {name:<{self.area_width}} {self.t.say(what)}"

    def lines(self, finding: Finding) -> list[str]:
        """A finding's lines: the finding, and what to do when something needs doing."""
        mark = "ok" if finding.ok else "warn" if finding.warning else "fix"
        found = [self.line(mark, finding.area, finding.what)]
        if not finding.ok:
            indent = " " * (self.mark_width + self.area_width + 2)
            found.append(indent + lazy("what to do: {fix}", fix=finding.fix)(self.t))
        return found

    def summary_line(self, finding: Finding) -> str:
        """A finding in a summary's list: ``  - area: what -> fix``."""
        area, what = area_name(finding.area, self.t), self.t.say(finding.what)
        return f"  - {area}: {what} -> {self.t.say(finding.fix)}"


class Report:
    """Collects findings, printing each to ``out`` as it is made, in ``t``'s language
    (English by default)."""

    def __init__(self, out: TextIO, t: Translator | None = None) -> None:
        self.out = out
        self.t = t or translator(SOURCE_LANGUAGE)
        self.columns = Columns(self.t, DOCTOR_AREAS)
        self.findings: list[Finding] = []

    def ok(self, area: str, what: Text) -> None:
        """Record a check that passed."""
        self._add(Finding(area, what))

    def problem(self, area: str, what: Text, fix: Text) -> None:
        """Record a problem: ``what`` is wrong, ``fix`` says what to do about it."""
        self._add(Finding(area, what, fix))

    def warn(self, area: str, what: Text, fix: Text) -> None:
        """Record something that works but should be changed (not an error: exit status 0,
        but not "All OK")."""
        self._add(Finding(area, what, fix, warning=True))

    def skipped(self, area: str, what: Text) -> None:
        """Say a check was not made (and why)."""
        self.say(self.columns.line("skip", area, what))

    def say(self, text: Text) -> None:
        """Tell the technician something (an instruction, progress)."""
        print(self.t.say(text), file=self.out, flush=True)

    @property
    def problems(self) -> list[Finding]:
        """The findings that need fixing."""
        return [f for f in self.findings if not f.ok and not f.warning]

    @property
    def warnings(self) -> list[Finding]:
        """The findings that should be changed, though the table works."""
        return [f for f in self.findings if f.warning]

    def summary(self) -> int:
        """Print the summary; returns the number of problems (0: all OK)."""
        problems, warnings = self.problems, self.warnings
        self.say("")
        if not problems and not warnings:
            count = len(self.findings)
            self.say(
                lazy_n("All OK: {count} check passed.", "All OK: {count} checks passed.", count)
            )
        if problems:
            self.say(lazy_n("{count} problem to fix:", "{count} problems to fix:", len(problems)))
            for finding in problems:
                self.say(self.columns.summary_line(finding))
        if warnings:
            passed = len(self.findings) - len(problems) - len(warnings)
            self.say(lazy_n("{count} check passed.", "{count} checks passed.", passed))
            self.say(
                lazy_n(
                    "{count} warning (the table works; change this):",
                    "{count} warnings (the table works; change this):",
                    len(warnings),
                )
            )
            for finding in warnings:
                self.say(self.columns.summary_line(finding))
        event(
            log,
            "doctor done",
            checks=len(self.findings),
            problems=len(problems),
            warnings=len(warnings),
        )
        return len(problems)

    def _add(self, finding: Finding) -> None:
        self.findings.append(finding)
        for line in self.columns.lines(finding):
            self.say(line)
        if finding.ok:
            event(log, "check passed", logging.DEBUG, area=finding.area, what=str(finding.what))
        else:
            event(
                log,
                "check failed",
                logging.WARNING,
                area=finding.area,
                what=str(finding.what),
                fix=str(finding.fix),
            )
