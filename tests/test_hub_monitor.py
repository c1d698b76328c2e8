"""``tabletop hub monitor`` over a real pty."""

import contextlib
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from firmware_host.cli import main
from firmware_host.link import ports
from tests.link_harness import PtyHub


def test_monitor_shows_decoded_frames_and_stops_after_count(tmp_path, capsys):
    with PtyHub(tmp_path) as hub:
        hub.emit({"type": "gate", "gate": 0, "beam": 4, "cut": True, "t_us": 77})
        hub.emit({"type": "die", "die": 1, "stable": True, "face": 2, "t_us": 78})
        status = main(["hub", "monitor", "--port", hub.path, "--count", "3"])
    out = capsys.readouterr().out
    lines = [line.split(maxsplit=1)[1] for line in out.splitlines() if "->" in line]
    assert status == 0
    assert lines[0].startswith("host->hub #0 connect protocol=1")
    shown = [line for line in lines if line.startswith("hub->host")]
    assert shown[0].startswith("hub->host #0 hello protocol=1, firmware=[1, 0, 0]")
    assert shown[1] == "hub->host #0 gate gate=0, beam=4, cut=True, t_us=77"
    assert shown[2] == "hub->host #1 die die=1, stable=True, face=2, t_us=78"
    assert "3 frames from the hub shown; 2 events" in out
    assert "ping" not in out


def test_monitor_stops_after_seconds_with_heartbeats(tmp_path, capsys):
    with PtyHub(tmp_path) as hub:
        status = main(["hub", "monitor", "--port", hub.path, "--seconds", "0.5", "--heartbeat"])
    out = capsys.readouterr().out
    assert status == 0
    assert "hub->host #0 pong host_us=" in out


def test_monitor_without_a_hub_is_one_clear_error(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("TABLETOP_HUB_PORT", raising=False)
    monkeypatch.setattr(ports, "BY_ID", tmp_path / "by-id")
    assert main(["hub", "monitor"]) == 2
    assert capsys.readouterr().err == (
        "tabletop hub monitor: --port: no hub found in /dev/serial/by-id; give --port URL\n"
    )
    with pytest.raises(SystemExit) as refused:
        main(["hub", "monitor", "--port", "x", "--count", "0"])
    assert refused.value.code == 2
    assert "argument --count: expected a whole number of 1 or more" in capsys.readouterr().err


def test_monitor_stops_cleanly_on_ctrl_c(tmp_path):
    with PtyHub(tmp_path) as hub:
        proc = subprocess.Popen(
            [Path(sys.executable).parent / "tabletop", "hub", "monitor", "--port", hub.path],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            # a thread reads the lines: select() on a text pipe misses lines already in
            # Python's buffer, which made this test wait out its deadline under load
            lines: queue.Queue[str] = queue.Queue()
            reader = threading.Thread(
                target=lambda: [lines.put(text) for text in iter(proc.stdout.readline, "")],
                daemon=True,
            )
            reader.start()
            deadline = time.monotonic() + 10
            line = ""
            while "hello" not in line and time.monotonic() < deadline:
                with contextlib.suppress(queue.Empty):
                    line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
            assert "hub->host #0 hello" in line
            proc.send_signal(signal.SIGINT)
            proc.wait(timeout=10)
            err = proc.stderr.read()
            reader.join(timeout=10)
            out = "".join(lines.queue)
        finally:
            proc.kill()
    assert proc.returncode == 0, err
    assert "frames from the hub shown" in out
    assert "Traceback" not in err
