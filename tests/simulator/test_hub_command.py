"""``tabletop sim hub`` as its own process: the host and ``tabletop hub monitor`` reach it."""

from __future__ import annotations

import select
import subprocess
import sys
import threading

import pytest

from firmware_host.cli import main
from firmware_host.config.table import load_table
from firmware_host.link.session import HubEvent
from firmware_host.link.transport import HubLink
from firmware_host.sensors.collector import DropCollector, Outcome
from tests.builders import write_yaml

DEADLINE = 15.0


@pytest.fixture
def sim_hub(tmp_path):
    """A ``tabletop sim hub`` process playing a two-drop script on a pty; yields its URL."""
    script = write_yaml(
        tmp_path / "script.yaml",
        {
            "version": 1,
            "drops": [
                {"color": "red", "shape": "square", "x": 150},
                {"color": "green", "shape": "diamond", "x": 80, "angle": 45},
            ],
        },
    )
    command = [sys.executable, "-m", "firmware_host", "sim", "hub", "--noise", "clean"]
    command += ["--link", str(tmp_path / "hub"), "--script", str(script), "--speed", "0"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        ready, _, _ = select.select([process.stdout], [], [], DEADLINE)
        assert ready, "no URL printed"
        first = process.stdout.readline()
        assert first.startswith("virtual hub: ")
        yield first.split(": ", 1)[1].strip()
    finally:
        process.terminate()
        assert process.wait(DEADLINE) == 0


def test_the_host_collects_the_scripted_drops(sim_hub: str, capsys) -> None:
    assert sim_hub.endswith("/hub")
    events: list[HubEvent] = []
    ended = threading.Event()

    def on_event(event: HubEvent) -> None:
        events.append(event)
        tags = [e.hub_us for e in events if e.kind == "piece" and e.message["tag"]]
        # the second drop is in once the hub's idle reports are 2 s past its release
        if len(tags) == 2 and event.kind == "piece" and event.hub_us > tags[1] + 2_000_000:
            ended.set()

    with HubLink(sim_hub, on_event=on_event):
        assert ended.wait(DEADLINE)
    now = [0.0]
    collector = DropCollector(load_table(), clock=lambda: now[0])
    outcomes = []
    for event in events:
        now[0] = event.hub_us / 1e6
        outcomes += collector.feed(event)
    now[0] += 1.0
    outcomes += collector.poll()
    assert [o.outcome for o in outcomes] == [Outcome.SETTLED] * 2
    assert [o.readings.tag for o in outcomes] == ["red-square", "green-diamond"]
    assert main(["hub", "monitor", "--port", sim_hub, "--seconds", "0.5"]) == 0
    shown = capsys.readouterr().out
    assert "hub->host #0 hello" in shown and "1 frames from the hub shown" in shown
