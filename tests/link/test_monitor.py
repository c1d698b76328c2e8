"""``tabletop hub monitor`` over a real pty."""

import contextlib
import json
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from firmware_host.cli import main
from firmware_host.config.loader import CONFIG_DIR
from firmware_host.link import ports, wire
from tests.link_harness import Faults, PtyHub


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


def test_monitor_marks_a_repeat_and_names_an_inventory_difference(tmp_path, capsys):
    reference = (CONFIG_DIR / "tables" / "reference.yaml").read_text()
    table = tmp_path / "table.yaml"
    board = CONFIG_DIR / "boards" / "reference.yaml"
    table.write_text(
        reference.replace("board: ../boards/reference.yaml", f"board: {board}").replace(
            "  count: 60        # y = 2.5", "  count: 59        # y = 2.5"
        )
    )
    # the host's first ack is lost: the hub's timer sends the event again after 100 ms
    faults = Faults(drop_first={wire.ACK: 1}, direction="to_hub")
    with PtyHub(tmp_path, faults) as hub:
        hub.emit({"type": "gate", "gate": 0, "beam": 4, "cut": True, "t_us": 77})
        status = main(["hub", "monitor", "--port", hub.path, "--count", "3", "--table", str(table)])
    out = capsys.readouterr().out
    assert status == 0
    assert (
        f"hub inventory differs from the table file {table}: curtain beams: hub 60, table 59"
        in (out)
    )
    shown = [line.split(maxsplit=1)[1] for line in out.splitlines() if "hub->host #" in line]
    assert shown[1:] == [
        "hub->host #0 gate gate=0, beam=4, cut=True, t_us=77",
        "hub->host #0 gate gate=0, beam=4, cut=True, t_us=77 [repeat]",
    ]
    assert "1 events, 1 repeats, 0 out of order, 0 invalid" in out


def test_monitor_json_gives_each_frame_its_fate_and_the_run_its_counters(tmp_path, capsys):
    # the first event is lost on its way: the second arrives out of order and is kept
    faults = Faults(drop_first={wire.GATE: 1}, direction="to_host")
    with PtyHub(tmp_path, faults) as hub:
        hub.emit({"type": "gate", "gate": 0, "beam": 4, "cut": True, "t_us": 77})
        hub.emit({"type": "gate", "gate": 0, "beam": 4, "cut": False, "t_us": 78})
        status = main(["hub", "monitor", "--port", hub.path, "--count", "3", "--json"])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 0
    frames = [o for o in lines if "direction" in o]
    assert all(isinstance(o["t"], float) for o in frames)
    assert frames[0] == {
        "t": frames[0]["t"],
        "direction": "host->hub",
        "seq": 0,
        "type": "connect",
        "fields": {"protocol": 1, "first_seq": 0, "host_us": frames[0]["fields"]["host_us"]},
        "status": None,
    }
    events = [
        (o["seq"], o["fields"]["cut"], o["status"])
        for o in frames
        if o["direction"] == "hub->host" and o["type"] == "gate"
    ]
    assert events == [(1, False, "out_of_order"), (0, True, "delivered")]
    sent = [(o["type"], o["fields"]) for o in frames if o["direction"] == "host->hub"]
    assert ("nak", {"next_seq": 0, "reason": 2}) in sent
    assert [(o["link"], o["reason"]) for o in lines if "link" in o] == [
        ("up", "hub firmware 1.0.0")
    ]
    counters = lines[-1]["counters"]
    assert counters["events"] == 2 and counters["out_of_order"] == 1
    assert counters["repeats"] == 0 and counters["naks"] == 1 and counters["connections"] == 1


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
