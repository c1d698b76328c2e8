"""Score tracks on the hub's strips: what the hub engine behind a real pty was told to show."""

import asyncio
import threading
import time

import pytest
from gpiozero.pins.mock import MockFactory

from firmware_host.config import CONFIG_DIR
from firmware_host.config.panel import load_panel
from firmware_host.games.dropit.rules.pieces import Color
from firmware_host.games.dropit.track import track_state
from firmware_host.link import wire
from firmware_host.link.transport import HubLink, backoff_delays
from firmware_host.outputs.backends import track_display
from firmware_host.outputs.gpio_tracks import GpioTracks
from firmware_host.outputs.hub_tracks import HubTracks
from firmware_host.outputs.track_lights import FRAME_SECONDS, Animation
from tests.fake_clock import FakeClock, settle
from tests.link_harness import Faults, PtyHub

DEADLINE = 10.0
PANEL = load_panel()
HUB = PANEL.hub_tracks
RED = HUB.colour(0)
BLUE = HUB.colour(1)
OFF = (0, 0, 0)


def strip_shows(hub, strip, expected):
    """Wait (bounded, on the hub's real I/O) until ``strip`` shows ``expected``."""
    end = time.monotonic() + DEADLINE
    while time.monotonic() < end:
        with hub.lock:
            shown = list(hub.engine.device.strips[strip].shown)
        if shown == expected:
            return True
        threading.Event().wait(0.005)
    raise AssertionError(f"strip {strip} shows {shown}, expected {expected}")


def seat(colour, position, plus_25=False, plus_50=False):
    return (
        [colour] * position
        + [OFF] * (25 - position)
        + [
            colour if plus_25 else OFF,
            colour if plus_50 else OFF,
        ]
    )


@pytest.fixture
def hub_link(tmp_path):
    with PtyHub(str(tmp_path), Faults()) as hub:
        link = HubLink(hub.path, backoff=lambda: backoff_delays(0.01, 2, 0.05)).start()
        assert link.wait_up(DEADLINE)
        yield hub, link
        link.stop()


def test_each_seat_shows_its_position_and_tokens_on_its_strip(hub_link):
    hub, link = hub_link

    async def play():
        tracks = track_display(PANEL, FakeClock(), link=link)
        assert isinstance(tracks, HubTracks)
        tracks.show([track_state(28, (Color.RED,)), track_state(57, (Color.RED, Color.BLUE))])
        tracks.close()

    asyncio.run(play())
    strip_shows(hub, 0, seat(RED, 3, plus_25=True))
    strip_shows(hub, 1, seat(BLUE, 7, plus_50=True))
    strip_shows(hub, 2, seat(OFF, 0))
    leds = [kind for _, kind in hub.frames_to_hub if kind == wire.LEDS]
    assert len(leds) >= 4  # one frame per seat at least: the four strips were drawn


def test_an_animation_reaches_the_hub_frame_by_frame_then_the_state_returns(hub_link):
    hub, link = hub_link

    async def play():
        clock = FakeClock()
        tracks = HubTracks(HUB, link, clock)
        tracks.show([track_state(2, ())])
        await asyncio.to_thread(strip_shows, hub, 0, seat(RED, 2))
        tracks.animate(Animation.RULE_BROKEN, [0])
        await settle()
        for lit in (True, False, True, False, True, False):
            expected = seat(RED, 25, True, True) if lit else seat(OFF, 0)
            await asyncio.to_thread(strip_shows, hub, 0, expected)
            await clock.advance(FRAME_SECONDS[Animation.RULE_BROKEN])
        await asyncio.to_thread(strip_shows, hub, 0, seat(RED, 2))
        assert tracks.failures == 0

    asyncio.run(play())


def test_redraw_restores_the_tracks_the_hub_blanked(hub_link):
    hub, link = hub_link

    async def play():
        tracks = HubTracks(HUB, link, FakeClock())
        tracks.show([track_state(4, ()), track_state(9, ())])
        await asyncio.to_thread(strip_shows, hub, 1, seat(BLUE, 9))
        with hub.lock:
            hub.engine.device.idle_leds()  # what the hub does after 2 s without the host
        tracks.redraw()
        await asyncio.to_thread(strip_shows, hub, 0, seat(RED, 4))
        await asyncio.to_thread(strip_shows, hub, 1, seat(BLUE, 9))

    asyncio.run(play())


def test_frames_the_hub_never_acknowledges_are_reported_and_the_game_goes_on(tmp_path, caplog):
    faults = Faults(drop_kinds={wire.LEDS}, direction="to_hub")
    with PtyHub(str(tmp_path), faults) as hub:
        link = HubLink(
            hub.path,
            backoff=lambda: backoff_delays(0.01, 2, 0.05),
            session_options={"max_retries": 1},
        ).start()
        try:
            assert link.wait_up(DEADLINE)

            async def play():
                tracks = HubTracks(HUB, link, FakeClock())
                started = time.monotonic()
                tracks.show([track_state(5, ())])
                assert time.monotonic() - started < 0.1  # show() never waits for the hub
                end = time.monotonic() + DEADLINE
                while tracks.failures < 4 and time.monotonic() < end:
                    await asyncio.sleep(0.01)
                return tracks.failures

            assert asyncio.run(play()) >= 4
        finally:
            link.stop()
    assert "LED track frame not shown" in caplog.text


def test_a_layout_past_the_hubs_strips_is_reported_not_raised(hub_link, tmp_path):
    _, link = hub_link
    data = HUB.model_dump()
    data["tracks"][0].update(first=10, plus_25=40, plus_50=41)  # a 27-pixel strip
    layout = type(HUB).model_validate(data)

    async def play():
        tracks = HubTracks(layout, link, FakeClock())
        return tracks.failures

    assert asyncio.run(play()) == 1


def test_the_panel_file_chooses_gpio_or_hub():
    bench = load_panel(CONFIG_DIR / "panel" / "bench_track.yaml")
    gpio = track_display(bench, FakeClock(), pin_factory=MockFactory())
    assert isinstance(gpio, GpioTracks)
    gpio.close()
    with pytest.raises(ValueError, match="open the hub link first"):
        track_display(PANEL, FakeClock())
