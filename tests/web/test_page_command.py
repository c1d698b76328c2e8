"""``tabletop page --demo`` as a newcomer runs it: a real process serving the page live."""

import json
import os
import select
import signal
import subprocess
import sys
import time
import urllib.request

from tests.web.support import FOUR

DEADLINE_S = 30


def read_lines(process, count, deadline):
    """The first ``count`` lines of the process's output, read from the pipe until ``deadline``."""
    out = b""
    while out.count(b"\n") < count and time.monotonic() < deadline:
        ready, _, _ = select.select([process.stdout], [], [], deadline - time.monotonic())
        if ready:
            chunk = os.read(process.stdout.fileno(), 4096)
            assert chunk, f"tabletop page ended early: {out!r}"
            out += chunk
    assert out.count(b"\n") >= count, f"tabletop page printed too little in time: {out!r}"
    return out.decode().splitlines()


def test_the_demo_serves_a_game_that_advances_by_itself():
    command = [sys.executable, "-m", "firmware_host", "page", "--demo", str(FOUR)]
    command += ["--port", "0", "--interval", "0.05"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE)
    try:
        deadline = time.monotonic() + DEADLINE_S
        first, page = read_lines(process, 2, deadline)[:2]
        assert "a recorded game, not the service" in first
        url = page.split("the page: ", 1)[1].split()[0]
        assert url.startswith("http://localhost:")
        url = url.replace("localhost", "127.0.0.1")
        with urllib.request.urlopen(url, timeout=DEADLINE_S) as reply:
            assert b'<div id="board">' in reply.read()
        while time.monotonic() < deadline:
            with urllib.request.urlopen(f"{url}api/view", timeout=DEADLINE_S) as reply:
                view = json.load(reply)["view"]
            if view["question"] is not None:
                break
            select.select([], [], [], 0.02)
        # by default the referee asks before the first turn that broke a rule: turn 1 here
        assert view["question"]["player"] == "Ann"
        assert view["game"]["turn"]["number"] == 1
    finally:
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=DEADLINE_S) == 0
