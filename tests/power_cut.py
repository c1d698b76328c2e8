"""Power cuts for the service's tests: run ``tabletop run`` as its own process, SIGKILL it
once its journal holds enough events, or let it finish."""

from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import yaml

from firmware_host.config.table import REFERENCE_TABLE
from firmware_host.journal.store import Journal, JournalError

DEADLINE_S = 60.0
"""How long (real seconds) a run may take to journal what a test waits for, or to finish."""


def table_without_camera(folder: Path) -> Path:
    """The reference table with ``camera: none``, written into ``folder``: what a power cut
    tests is the journal, and a game without the camera's looks is three times shorter."""
    data = yaml.safe_load(REFERENCE_TABLE.read_text())
    data["board"] = str((REFERENCE_TABLE.parent / data["board"]).resolve())
    data["camera"] = "none"
    path = folder / "table-without-camera.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def journaled(journal: Path) -> list[tuple[int, int, dict[str, Any]]]:
    """Every journaled event as (game id, sequence number, JSON); none while the service
    is still creating the file."""
    if not journal.exists():
        return []
    try:
        with Journal(journal, create=False) as reader:
            return [(g.id, e.seq, e.data) for g in reader.games() for e in reader.events(g.id)]
    except JournalError:
        return []


def finish(command: list[str]) -> str:
    """Run ``command`` to its end (exit status 0 asserted); its standard error."""
    done = subprocess.run(command, capture_output=True, text=True, timeout=DEADLINE_S)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stderr


def kill_after(command: list[str], journal: Path, count: int) -> int:
    """Start ``command``, SIGKILL it once ``journal`` holds ``count`` events; how many it
    holds after the kill."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + DEADLINE_S
    try:
        while len(journaled(journal)) < count:
            assert process.poll() is None, "the service ended before the power cut"
            assert time.monotonic() < deadline, f"{count} events never journaled"
            time.sleep(0.002)
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()
    return len(journaled(journal))
