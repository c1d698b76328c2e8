"""What the doctor found: each finding printed as it comes, then a plain summary.

>>> import io
>>> out = io.StringIO()
>>> report = Report(out)
>>> report.ok("config", "board file config/boards/reference.yaml")
>>> report.problem("hub", "no hub found", "plug the hub's USB cable into the Pi")
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
from dataclasses import dataclass
from typing import TextIO

from firmware_host.logs import event

log = logging.getLogger("firmware_host.doctor")


@dataclass(frozen=True)
class Finding:
    """One check's result: ``fix`` is empty when all is well."""

    area: str
    what: str
    fix: str = ""
    warning: bool = False

    @property
    def ok(self) -> bool:
        """True when nothing needs doing."""
        return not self.fix


class Report:
    """Collects findings, printing each to ``out`` as it is made."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.findings: list[Finding] = []

    def ok(self, area: str, what: str) -> None:
        """Record a check that passed."""
        self._add(Finding(area, what))

    def problem(self, area: str, what: str, fix: str) -> None:
        """Record a problem: ``what`` is wrong, ``fix`` says what to do about it."""
        self._add(Finding(area, what, fix))

    def warn(self, area: str, what: str, fix: str) -> None:
        """Record something that works but should be changed (not an error: exit status 0,
        but not "All OK")."""
        self._add(Finding(area, what, fix, warning=True))

    def say(self, text: str) -> None:
        """Tell the technician something (an instruction, progress)."""
        print(text, file=self.out, flush=True)

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
            self.say(f"All OK: {len(self.findings)} checks passed.")
        if problems:
            self.say(f"{len(problems)} problem{'s' if len(problems) > 1 else ''} to fix:")
            for finding in problems:
                self.say(f"  - {finding.area}: {finding.what} -> {finding.fix}")
        if warnings:
            passed = len(self.findings) - len(problems) - len(warnings)
            self.say(
                f"{passed} checks passed; {len(warnings)} warning"
                f"{'s' if len(warnings) > 1 else ''} (the table works; change this):"
            )
            for finding in warnings:
                self.say(f"  - {finding.area}: {finding.what} -> {finding.fix}")
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
        mark = "ok" if finding.ok else "WARN" if finding.warning else "FIX"
        self.say(f"{mark:<5} {finding.area:<7} {finding.what}")
        if finding.ok:
            event(log, "check passed", logging.DEBUG, area=finding.area, what=finding.what)
        else:
            self.say(f"{'':<14}what to do: {finding.fix}")
            event(
                log,
                "check failed",
                logging.WARNING,
                area=finding.area,
                what=finding.what,
                fix=finding.fix,
            )
