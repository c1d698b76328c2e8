"""``tabletop run`` as a process: it serves the page, stops cleanly on SIGTERM and on
Ctrl-C (SIGINT), and refuses contradictory options with one line (exit status 2)."""

import json
import signal
import subprocess
import sys
import urllib.request

import pytest

DEADLINE_S = 30


def start(tmp_path, *extra):
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "firmware_host",
            "run",
            "--sim",
            "--journal",
            str(tmp_path / "journal.sqlite3"),
            "--page-port",
            "0",
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_serves_the_page_and_stops_cleanly_on_a_signal(tmp_path, signum):
    process = start(tmp_path)
    try:
        hub = process.stdout.readline()
        assert hub.startswith("tabletop run: the simulator's virtual hub at "), hub
        line = process.stdout.readline()
        assert line.startswith("tabletop run: the page: http://localhost:"), line
        url = line.rsplit(" ", 1)[1].strip()
        with urllib.request.urlopen(url + "healthz", timeout=DEADLINE_S) as reply:
            assert reply.read() == b"ok"
        with urllib.request.urlopen(url + "api/view", timeout=DEADLINE_S) as reply:
            message = json.loads(reply.read())
        view = message["view"]
        assert view["game"]["turn"] == {"number": 1, "player": "Ann", "for": "Ann"}
        assert message["simulated"] is True  # the page's "simulated table" badge
        process.send_signal(signum)
        assert process.wait(DEADLINE_S) == 0
        assert "stopping" in process.stderr.read()
    finally:
        process.kill()
        process.wait()


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        (["--sim", "--port", "socket://127.0.0.1:9"], "give one: a hub's port or --sim"),
        (["--port", "socket://127.0.0.1:9", "--autoplay"], "simulated players need"),
        (["--sim", "--speed", "0"], "speed-up factor > 0"),
        (["--sim", "--players", "Ann"], "2, 3 or 4 players"),
    ],
)
def test_contradictory_or_bad_options_are_one_clear_line(tmp_path, options, problem):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "firmware_host",
            "run",
            "--http",
            "off",
            "--journal",
            str(tmp_path / "j.sqlite3"),
            *options,
        ],
        capture_output=True,
        text=True,
        timeout=DEADLINE_S,
    )
    assert done.returncode == 2
    assert problem in done.stderr
    assert problem in done.stderr.strip().splitlines()[-1]
