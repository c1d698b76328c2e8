"""``tabletop doctor`` against the hub engine over a real pty, on a fake clock."""

import asyncio
import io
import logging
import time
import types

import engine
import pytest
import yaml
from gpiozero.pins.mock import MockFactory

from firmware_host.cli import main
from firmware_host.config import CONFIG_DIR
from firmware_host.doctor.configs import ConfigFiles
from firmware_host.doctor.examine import Doctor, DoctorOptions
from firmware_host.link import wire
from firmware_host.link.transport import backoff_delays
from tests.fake_clock import FakeClock
from tests.link_harness import Faults, PtyHub

DEADLINE = 10.0
LINK = {"backoff": lambda: backoff_delays(0.01, 2, 0.05)}
BENCH_PANEL = CONFIG_DIR / "panel" / "bench_track.yaml"


@pytest.fixture(autouse=True)
def restore_logging():
    """``tabletop doctor`` sets up the root logger for its process: undo it after a test."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


async def until(condition, task):
    """Wait (bounded, on real I/O) until ``condition()`` holds; fails if ``task`` ended."""
    end = time.monotonic() + DEADLINE
    while not condition():
        assert not task.done(), task.result()
        assert time.monotonic() < end, "condition not met in time"
        await asyncio.wait({task}, timeout=0.01)


async def finish(clock, task):
    """Run the clock on until the doctor is done (real waits let the hub answer)."""
    end = time.monotonic() + DEADLINE
    while not task.done():
        assert time.monotonic() < end, "the doctor did not finish"
        await clock.advance(0.5)
        await asyncio.wait({task}, timeout=0.005)
    return task.result()


def sweep(hub, gate, beams, clear=True):
    """A hand through ``beams`` of ``gate``: each is cut, then (``clear``) cleared."""
    for beam in beams:
        hub.emit({"type": "gate", "gate": gate, "beam": beam, "cut": True, "t_us": 10})
        if clear:
            hub.emit({"type": "gate", "gate": gate, "beam": beam, "cut": False, "t_us": 20})


def check_hub(tmp_path, hand, stuck=(), files=None):
    """Run the doctor on a pty hub; ``hand(hub)`` plays the technician in the window."""
    out = io.StringIO()
    with PtyHub(str(tmp_path), Faults()) as hub:
        with hub.lock:
            for beam in stuck:
                hub.engine.device.scanner.gates[0].stable |= 1 << beam

        async def run():
            clock = FakeClock()
            options = DoctorOptions(
                files=files or ConfigFiles(), port=hub.path, window=20, camera=False
            )
            doctor = Doctor(options, clock, out, link_options=LINK)
            task = asyncio.get_running_loop().create_task(doctor.examine())
            await until(lambda: doctor.gates is not None and doctor.gates.seen >= 2, task)
            expected = doctor.gates.seen + hand(hub)
            await until(lambda: doctor.gates.seen >= expected, task)
            return await finish(clock, task)

        problems = asyncio.run(run())
        with hub.lock:
            strips = [list(strip.shown) for strip in hub.engine.device.strips]
    return problems, out.getvalue(), strips


def test_a_healthy_table_is_all_ok_and_its_tracks_end_dark(tmp_path):
    def hand(hub):
        sweep(hub, wire.ENTRY_GATE, range(30))
        sweep(hub, wire.TOP_GATE, [0])
        return 62

    problems, out, strips = check_hub(tmp_path, hand)
    assert problems == 0, out
    assert "hub at " in out and "protocol 1, firmware 1.0.0" in out
    assert "ok    gates   entry gate: every beam cut and cleared" in out
    assert "ok    leds    each track blinked in turn on the hub's strips" in out
    assert [out.count(f"Blinking seat {k}") for k in (1, 2, 3, 4)] == [1, 1, 1, 1]
    assert strips == [[(0, 0, 0)] * 27] * 4
    assert out.rstrip().endswith("All OK: 14 checks passed.")


def test_an_event_with_invalid_content_is_named_once_and_does_not_stall_the_link(tmp_path):
    def hand(hub):
        for _ in range(2):  # a die resting on face 7: CRC good, content invalid
            hub.emit({"type": "die", "die": 0, "stable": True, "face": 7, "t_us": 5})
        sweep(hub, wire.ENTRY_GATE, range(30))  # the events after it still arrive
        sweep(hub, wire.TOP_GATE, [0])
        return 62

    problems, out, _ = check_hub(tmp_path, hand)
    assert problems == 1
    assert (
        "FIX   hub     the hub sent an invalid die frame: die 0 with state 1, face 7 (2 times)"
        in out
    )
    assert out.count("FIX   hub     the hub sent an invalid") == 1


def test_a_stuck_beam_and_a_dead_beam_are_named_with_what_to_do(tmp_path):
    def hand(hub):
        sweep(hub, wire.ENTRY_GATE, [b for b in range(30) if b not in (7, 12)])
        sweep(hub, wire.TOP_GATE, [0])
        return 58

    problems, out, _ = check_hub(tmp_path, hand, stuck=[7])
    assert problems == 2, out
    assert "FIX   gates   entry gate: beam 13 never cut" in out
    assert "FIX   gates   entry gate: beam 8 never clear" in out
    assert "remove whatever blocks them" in out
    assert "ok    gates   top gate: every beam cut and cleared" in out


def test_nobody_passing_a_hand_lists_every_beam(tmp_path):
    problems, out, _ = check_hub(tmp_path, lambda hub: 0)
    assert problems == 2
    assert "entry gate: beams 1-30 never cut" in out and "top gate: beam 1 never cut" in out


def test_a_hub_of_another_protocol_version_says_reflash(tmp_path, monkeypatch):
    names = {name: getattr(wire, name) for name in dir(wire) if not name.startswith("__")}
    monkeypatch.setattr(engine, "wire", types.SimpleNamespace(**{**names, "PROTOCOL_VERSION": 2}))
    out = io.StringIO()
    with PtyHub(str(tmp_path), Faults()) as hub:
        options = DoctorOptions(port=hub.path, camera=False)
        problems = asyncio.run(Doctor(options, FakeClock(), out, link_options=LINK).examine())
    assert problems == 1
    assert (
        "FIX   hub     the hub speaks link protocol 2 (firmware 1.0.0), this host speaks 1"
        in out.getvalue()
    )
    assert "what to do: reflash the hub with hardware/hub/" in out.getvalue()


def test_a_bad_config_file_names_file_key_and_fix_and_exits_1(tmp_path, capsys):
    data = yaml.safe_load((CONFIG_DIR / "web" / "reference.yaml").read_text())
    data["staff_pin"] = "12"
    bad = tmp_path / "web.yaml"
    bad.write_text(yaml.safe_dump(data))
    status = main(["doctor", "--no-hub", "--web", str(bad), "--physics", str(tmp_path / "no.yaml")])
    out = capsys.readouterr().out
    assert status == 1
    assert f"FIX   config  web file {bad}" in out
    assert f"what to do: edit {bad} at staff_pin:" in out
    assert "physics file" in out and "file not found" in out
    assert "2 problems to fix:" in out


def test_gpio_tracks_blink_one_seat_at_a_time(tmp_path):
    factory = MockFactory()
    out = io.StringIO()
    files = ConfigFiles(panel=BENCH_PANEL)
    seen = []

    async def run():
        clock = FakeClock()
        doctor = Doctor(DoctorOptions(files=files, hub=False), clock, out, pin_factory=factory)
        task = asyncio.get_running_loop().create_task(doctor.examine())
        await clock.advance(0.01)  # seat 1's first frame: every light on
        seen.append([factory.pin(p).state for p in (2, 26, 27, 0)])
        return await finish(clock, task)

    assert asyncio.run(run()) == 0
    assert seen == [[True, True, True, True]]
    assert "ok    leds    each track blinked in turn on GPIO" in out.getvalue()


def test_no_hub_plugged_in_is_reported(monkeypatch, tmp_path, capsys):
    monkeypatch.delenv("TABLETOP_HUB_PORT", raising=False)
    monkeypatch.setattr("firmware_host.doctor.examine.find_hub_port", lambda: None)
    assert main(["doctor", "--no-leds"]) == 1
    assert "plug the hub's USB cable into the Pi, or give --port" in capsys.readouterr().out


def test_a_table_file_using_more_beams_than_the_hub_has_is_named(tmp_path):
    data = yaml.safe_load((CONFIG_DIR / "tables" / "reference.yaml").read_text())
    data["board"] = str(CONFIG_DIR / "boards" / "reference.yaml")
    data["entry_gate"].update(pitch=9.0, count=31)
    table = tmp_path / "table.yaml"
    table.write_text(yaml.safe_dump(data))
    problems, out, _ = check_hub(tmp_path, lambda hub: 0, files=ConfigFiles(table=table))
    assert "FIX   hub     the table file uses 31 entry-gate beams, the hub has 30" in out
    assert "make entry_gate.count in the table file match the table as built" in out
    assert "entry gate: beams 1-30 never cut" in out  # beam 31 is the hub problem above
    assert "never clear" not in out
    assert problems == 3  # and the top gate's beam, never cut


def test_a_page_open_to_the_network_with_the_shipped_pin_is_a_warning(tmp_path, capsys):
    data = yaml.safe_load((CONFIG_DIR / "web" / "reference.yaml").read_text())
    data["host"] = "0.0.0.0"
    open_page = tmp_path / "web.yaml"
    open_page.write_text(yaml.safe_dump(data))
    status = main(["doctor", "--no-hub", "--web", str(open_page)])
    out = capsys.readouterr().out
    assert status == 0  # the table works
    assert "All OK" not in out
    assert f"WARN  web     web file {open_page}: the page is open to the network" in out
    assert "1 warning (the table works; change this):" in out
    assert f"set staff_pin in {open_page} to a PIN of your own" in out

    data["staff_pin"] = "90210"
    open_page.write_text(yaml.safe_dump(data))
    assert main(["doctor", "--no-hub", "--web", str(open_page)]) == 0
    out = capsys.readouterr().out
    assert "WARN" not in out and "All OK" in out


def test_a_german_table_gets_its_doctor_in_german(tmp_path, capsys):
    data = yaml.safe_load((CONFIG_DIR / "tables" / "reference.yaml").read_text())
    data["board"] = str(CONFIG_DIR / "boards" / "reference.yaml")
    data["language"] = "de"
    table = tmp_path / "table.yaml"
    table.write_text(yaml.safe_dump(data))
    physics = tmp_path / "no.yaml"
    status = main(["doctor", "--no-hub", "--table", str(table), "--physics", str(physics)])
    out = capsys.readouterr().out
    assert status == 1
    lines = out.splitlines()
    assert lines[0] == "ok       Konfig     Brettdatei config/boards/reference.yaml"
    assert lines[1] == f"ok       Konfig     Tischdatei {table}"
    assert "aus      Kamera     übersprungen (--no-hub)" in out
    assert f"FEHLER   Konfig     Physikdatei {physics}: Datei nicht gefunden" in out
    assert "zu tun: die Datei wiederherstellen oder ihren Pfad angeben (docs/physics.md)" in out
    assert out.rstrip().splitlines()[-2] == "1 Problem zu beheben:"
