"""Every input error of every sub-command is one line on stderr, prefixed once with the full
sub-command, exit status 2, no traceback and nothing on stdout: ports, numbers, paths,
unknown options, a port already in use, a hub that never answers."""

import contextlib
import io
import socket
from pathlib import Path

import pytest

from firmware_host.cli import main

ROOT = Path(__file__).resolve().parents[1]
GAME = str(ROOT / "examples" / "games" / "four_players_base.yaml")
POSITION = str(ROOT / "examples" / "positions" / "worked_example.yaml")


def tabletop(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(list(argv))
        except SystemExit as stop:
            status = int(stop.code or 0)
    return status, out.getvalue(), err.getvalue()


def refused(argv: tuple[str, ...], prog: str, *expected: str, stdout: bool = False) -> str:
    status, out, err = tabletop(*argv)
    assert status == 2, (out, err)
    assert stdout or out == ""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"{prog}: ") and not lines[0].startswith(f"{prog}: {prog}")
    for part in expected:
        assert part in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize(
    ("argv", "prog", "expected"),
    [
        (("run", "--sim", "--page-port", "99999"), "tabletop run", "--page-port: expected a port"),
        (("run", "--sim", "--page-port", "-1"), "tabletop run", "from 0 to 65535, got '-1'"),
        (("run", "--sim", "--page-port", "http"), "tabletop run", "got 'http'"),
        (("run", "--sim", "--speed", "nan"), "tabletop run", "--speed"),
        (("page", "--demo", GAME, "--port", "99999"), "tabletop page", "--port: expected a port"),
        (("page", "--demo", GAME, "--interval", "nan"), "tabletop page", "seconds > 0"),
        (("page", "--demo", GAME, "--interval", "-1"), "tabletop page", "seconds > 0"),
        (("page", "--demo", GAME, "--ask", "0"), "tabletop page", "1 or more"),
        (("sim", "hub", "--socket", "70000"), "tabletop sim hub", "--socket: expected a port"),
        (("sim", "hub", "--socket", "-3"), "tabletop sim hub", "got '-3'"),
        (("sim", "hub", "--seconds", "-1"), "tabletop sim hub", "seconds > 0"),
        (("sim", "hub", "--seconds", "inf"), "tabletop sim hub", "seconds > 0"),
        (("sim", "hub", "--speed", "-1"), "tabletop sim hub", "0 or more"),
        (("sim", "hub", "--autoplay", "--drops", "-5"), "tabletop sim hub", "0 or more"),
        (("hub", "monitor", "--port", "x", "--count", "0"), "tabletop hub monitor", "1 or more"),
        (("hub", "monitor", "--port", "x", "--seconds", "0"), "tabletop hub monitor", "> 0"),
        (("doctor", "--no-hub", "--window", "nan"), "tabletop doctor", "--window"),
        (("simulate", "--drops", "x"), "tabletop simulate", "--drops"),
        (("sim", "eval", "--drops", "-2"), "tabletop sim eval", "--drops"),
        (("run", "--bogus"), "tabletop run", "unrecognized arguments: --bogus"),
        (("sim", "hub", "--bogus"), "tabletop sim hub", "unrecognized arguments: --bogus"),
        (("hub",), "tabletop hub", "required: ACTION"),
        (("judge",), "tabletop judge", "required: POSITION.yaml"),
        (("bogus",), "tabletop", "invalid choice: 'bogus'"),
    ],
)
def test_a_bad_option_value_is_one_line(argv, prog, expected):
    refused(argv, prog, expected)


@pytest.mark.parametrize(
    ("argv", "prog", "expected"),
    [
        (("judge", "/nonexistent/position.yaml"), "tabletop judge", "file not found"),
        (("judge", "/"), "tabletop judge", "cannot read the file"),
        (("board", "--board", "/nonexistent.yaml"), "tabletop board", "file not found"),
        (("referee", "/nonexistent/game.yaml"), "tabletop referee", "file not found"),
        (("table", "--table", "/"), "tabletop table", "cannot read the file"),
        (("judge", POSITION, "--board", "/nonexistent.yaml"), "tabletop judge", "not found"),
        (("sim", "eval", "--drops", "1", "--noise", "nope"), "tabletop sim eval", "nope"),
    ],
)
def test_a_bad_path_is_one_line(argv, prog, expected):
    refused(argv, prog, expected)


@pytest.fixture
def taken_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield sock.getsockname()[1]


def test_a_port_in_use_is_one_line(taken_port, tmp_path):
    port = str(taken_port)
    refused(
        ("page", "--demo", GAME, "--host", "127.0.0.1", "--port", port),
        "tabletop page",
        f"127.0.0.1:{port}: cannot listen there",
    )
    refused(("sim", "hub", "--socket", port), "tabletop sim hub", "cannot serve the hub there")
    journal = tmp_path / "journal.sqlite3"
    line = refused(
        ("run", "--sim", "--page-port", port, "--journal", str(journal), "--log-level", "error"),
        "tabletop run",
        f"--page-port: 127.0.0.1:{port}: cannot listen there",
        stdout=True,  # the simulator's line comes first
    )
    assert "Address already in use" in line
    assert not journal.exists()  # nothing journaled by a start that failed


def test_hub_monitor_says_it_retries_and_fails_when_the_hub_never_answered(tmp_path):
    missing = str(tmp_path / "no-such-port")
    status, out, err = tabletop("hub", "monitor", "--port", missing, "--seconds", "0.2")
    assert status == 2
    assert "link down: cannot open" in out
    assert "retrying until the hub answers (Ctrl-C stops)" in out
    assert err.startswith(f"tabletop hub monitor: {missing}: the hub never answered in 0.2 s (")
    assert len(err.splitlines()) == 1 and "Traceback" not in err


def test_tabletop_alone_prints_the_help():
    status, out, err = tabletop()
    assert status == 0 and err == ""
    assert out.startswith("usage: tabletop")
