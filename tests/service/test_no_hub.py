"""A table whose hub is not found never plays on the simulator by surprise: ``tabletop run``
without ``--sim`` waits for the hub, says so on the page and in the log, and the game goes
on once a hub is plugged in. A start that fails (a bad setting) journals nothing."""

import asyncio
import subprocess
import sys

import pytest
from gpiozero.pins.mock import MockFactory

from firmware_host.config.noise import load_profile
from firmware_host.config.table import load_table
from firmware_host.errors import IllegalMove, InputError
from firmware_host.games.registry import GAMES
from firmware_host.journal.dropit import resume
from firmware_host.journal.store import Journal
from firmware_host.service import runner
from firmware_host.service.clock import SimulatedClock
from firmware_host.service.runner import WAITING_FOR_HUB, Service
from simulator.hub import VirtualHub
from tests.service.dice_support import dice_options
from tests.service.support import options, until


class PluggedLater:
    """A hub finder: no hub until :meth:`plug`; counts the looks."""

    def __init__(self) -> None:
        self.url: str | None = None
        self.looks = 0

    def __call__(self) -> str | None:
        self.looks += 1
        return self.url

    def plug(self, url: str) -> None:
        self.url = url


async def next_look(seconds: float) -> None:
    """The service's pause between looks for the hub: here, one turn of the loop."""
    assert seconds == runner.HUB_POLL_SECONDS
    await asyncio.sleep(0)


def test_no_hub_and_no_sim_waits_for_the_hub_and_never_starts_the_simulator(
    tmp_path, monkeypatch, caplog
):
    def no_simulator(*args, **kwargs):
        raise AssertionError("the simulator was started without --sim")

    monkeypatch.setattr(runner, "find_hub", no_simulator)
    finder = PluggedLater()
    said: list[str] = []
    hub = VirtualHub(load_table(), load_profile("clean"), 5, speed=None)

    async def main() -> None:
        service = Service(
            options(tmp_path, sim=False),
            clock=SimulatedClock(),
            announce=said.append,
            hub_finder=finder,
            hub_wait=next_look,
            pin_factory=MockFactory(),
        )
        table = service.controller
        assert service.hub is None and service.play.hand is None and not service.simulated
        running = asyncio.create_task(service.run())
        await until(lambda: finder.looks >= 3)
        assert str(table.snapshot().status) == f"PAUSED: {WAITING_FOR_HUB}"
        assert table.snapshot().to_json()["game"]["status"] == f"PAUSED: {WAITING_FOR_HUB}"
        assert service.link is None
        hub.start()  # plugged in
        finder.plug(hub.url)
        await until(lambda: table.paused is None)
        assert service.hub is not None and service.hub.url == hub.url
        assert service.hub.virtual is None  # the table's own hub, not one it started
        service.stop()
        await running

    try:
        asyncio.run(main())
    finally:
        hub.stop()
    assert any("waiting for one" in line for line in said), said
    assert f"tabletop run: hub found at {hub.url}" in said
    assert "waiting for the hub" in caplog.text


def test_autoplay_without_sim_is_refused_before_anything_is_journaled(tmp_path):
    with pytest.raises(InputError, match=r"simulated players need the simulator \(--sim\)"):
        Service(options(tmp_path, sim=False, autoplay=True), hub_finder=lambda: None)
    assert not (tmp_path / "journal.sqlite3").exists()


def test_a_bad_noise_profile_journals_no_game(tmp_path):
    journal = tmp_path / "journal.sqlite3"
    command = [sys.executable, "-m", "firmware_host", "run", "--http", "off"]
    done = subprocess.run(
        [*command, "--sim", "--noise", "nope", "--journal", str(journal)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "tabletop run: nope: no such noise profile (shipped: clean, harsh, realistic)"
    ]
    if journal.exists():
        with Journal(journal) as reader:
            assert resume(reader) is None


def test_a_dice_game_without_a_hub_waits_for_it_too(tmp_path, monkeypatch):
    def no_simulator(*args, **kwargs):
        raise AssertionError("the simulator was started without --sim")

    monkeypatch.setattr(runner, "find_hub", no_simulator)
    finder = PluggedLater()

    async def main() -> None:
        service = Service(
            dice_options(tmp_path, sim=False, autoplay=False),
            GAMES["clack"],
            announce=lambda line: None,
            hub_finder=finder,
            hub_wait=next_look,
        )
        assert service.hub is None and not service.simulated
        running = asyncio.create_task(service.run())
        await until(lambda: finder.looks >= 3)
        assert str(WAITING_FOR_HUB) in str(service.controller.snapshot().to_json())
        assert service.link is None
        service.stop()
        await running

    asyncio.run(main())


def test_a_set_up_the_rules_refuse_starts_nothing_and_journals_nothing(tmp_path, monkeypatch):
    def no_simulator(*args, **kwargs):
        raise AssertionError("the simulator was started for a set-up that is refused")

    monkeypatch.setattr(runner, "find_hub", no_simulator)
    with pytest.raises(IllegalMove, match="the name 'A' is used twice"):
        Service(options(tmp_path, players=("A", "A")))
    assert not (tmp_path / "journal.sqlite3").exists()
