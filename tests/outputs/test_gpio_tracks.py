"""Score tracks on GPIO through gpiozero's mock pins: exactly the track state, and animations
on a fake clock that never delay the game and always end on the exact state."""

import asyncio

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.config import CONFIG_DIR
from firmware_host.config.panel import LedTracksConfig, load_panel
from firmware_host.games.dropit.rules.pieces import Color
from firmware_host.games.dropit.track import track_state
from firmware_host.outputs.gpio_tracks import GpioTracks
from firmware_host.outputs.track_lights import Animation
from tests.fake_clock import FakeClock

CONFIG = load_panel(CONFIG_DIR / "panel" / "bench_track.yaml").led_tracks
PINS = CONFIG.tracks[0]
ONE_TOKEN = (Color.RED,)
TWO_TOKENS = (Color.RED, Color.BLUE)


def lit(factory, high=True):
    """(number of lit track lights, which are lit as a prefix?, +25 lit, +50 lit)."""
    track = [factory.pin(p).state == high for p in PINS.track]
    count = sum(track)
    return (
        count,
        track == [True] * count + [False] * (25 - count),
        factory.pin(PINS.plus_25).state == high,
        factory.pin(PINS.plus_50).state == high,
    )


def run(scenario):
    """Run ``scenario(tracks, factory, clock)`` in an event loop, on fresh mock pins."""

    async def main():
        factory = MockFactory()
        clock = FakeClock()
        tracks = GpioTracks(CONFIG, clock, pin_factory=factory)
        try:
            return await scenario(tracks, factory, clock)
        finally:
            tracks.close()

    return asyncio.run(main())


@pytest.mark.parametrize(
    ("points", "tokens", "expected"),
    [
        (0, ONE_TOKEN, (0, True, False, False)),
        (1, ONE_TOKEN, (1, True, False, False)),
        (25, ONE_TOKEN, (25, True, False, False)),
        (26, ONE_TOKEN, (1, True, True, False)),
        (50, ONE_TOKEN, (25, True, True, False)),
        (57, ONE_TOKEN, (7, True, False, True)),
        (80, ONE_TOKEN, (5, True, False, True)),  # 25 points the cardboard cannot show
        (80, TWO_TOKENS, (5, True, True, True)),
        (101, TWO_TOKENS, (1, True, False, True)),  # +50 blinking: on at first
    ],
)
def test_the_lights_show_the_track_state(points, tokens, expected):
    async def scenario(tracks, factory, clock):
        tracks.show([track_state(points, tokens)])
        return lit(factory)

    assert run(scenario) == expected


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 160), st.sampled_from([ONE_TOKEN, TWO_TOKENS]))
def test_any_score_lights_its_position_and_token_value(points, tokens):
    state = track_state(points, tokens)

    async def scenario(tracks, factory, clock):
        tracks.show([state])
        first = lit(factory)
        await clock.advance(0.5)
        return first, lit(factory)

    (count, bar, plus_25, plus_50), (_, _, later_25, later_50) = run(scenario)
    assert count == state.position and bar
    offset = sum(token.value for token in state.tokens)
    if offset == 100:
        assert (plus_25, plus_50, later_25, later_50) == (False, True, False, False)
    else:
        assert plus_25 == later_25 == (offset in (25, 75))
        assert plus_50 == later_50 == (offset in (50, 75))


def test_two_fifty_tokens_blink_the_plus_50_light_on_the_clock():
    async def scenario(tracks, factory, clock):
        tracks.show([track_state(110, TWO_TOKENS)])
        seen = []
        for _ in range(5):
            seen.append(lit(factory)[3])
            await clock.advance(0.25)
        return seen

    assert run(scenario) == [True, True, False, False, True]


def test_rule_broken_flashes_the_seat_then_ends_on_the_exact_state():
    async def scenario(tracks, factory, clock):
        tracks.show([track_state(32, ONE_TOKEN)])
        tracks.animate(Animation.RULE_BROKEN, [0])
        seen = [lit(factory)]  # animate returned at once, before its first frame
        await clock.advance(0)
        seen.append(lit(factory))
        for _ in range(6):
            await clock.advance(0.15)
            seen.append(lit(factory))
        await clock.advance(10)
        seen.append(lit(factory))
        return seen

    seen = run(scenario)
    everything, nothing, exact = (
        (25, True, True, True),
        (0, True, False, False),
        (7, True, True, False),
    )
    assert seen == [exact] + [everything, nothing] * 3 + [exact, exact]


def test_points_gained_fills_the_bar_then_shows_the_state():
    async def scenario(tracks, factory, clock):
        tracks.show([track_state(5, ONE_TOKEN)])
        tracks.animate(Animation.POINTS_GAINED, [0])
        await clock.advance(0)
        seen = [lit(factory)[0]]
        for _ in range(5):
            await clock.advance(0.04)
            seen.append(lit(factory)[0])
        return seen

    assert run(scenario) == [1, 2, 3, 4, 5, 5]


def test_the_next_state_cancels_an_animation_at_once():
    async def scenario(tracks, factory, clock):
        tracks.show([track_state(3, ONE_TOKEN)])
        tracks.animate(Animation.WINNER, [0])
        await clock.advance(0.3)
        during = lit(factory)
        tracks.show([track_state(9, ONE_TOKEN)])
        now = lit(factory)
        await clock.advance(5)
        return during, now, lit(factory)

    during, now, later = run(scenario)
    assert during == (0, True, False, False)  # the winner flash's dark frame
    assert now == later == (9, True, False, False)


def test_a_new_animation_replaces_the_running_one():
    async def scenario(tracks, factory, clock):
        tracks.show([track_state(4, ONE_TOKEN)])
        tracks.animate(Animation.WINNER, [0])
        await clock.advance(0.1)
        tracks.animate(Animation.POINTS_GAINED, [0])
        await clock.advance(0)
        first = lit(factory)[0]
        await clock.advance(0.16)
        return first, lit(factory)

    assert run(scenario) == (1, (4, True, False, False))


def test_an_animation_over_a_blinking_state_goes_back_to_blinking():
    async def scenario(tracks, factory, clock):
        tracks.show([track_state(105, TWO_TOKENS)])
        tracks.animate(Animation.RULE_BROKEN, [0])
        await clock.advance(0.9)
        after = lit(factory)
        await clock.advance(0.1)
        off = lit(factory)
        await clock.advance(0.5)
        return after, off, lit(factory)

    after, off, on = run(scenario)
    assert after == (5, True, False, False)  # 0.9 s after show: the off half of the blink
    assert off == (5, True, False, True)
    assert on == (5, True, False, False)


def test_seats_past_the_tracks_are_not_shown_and_missing_players_go_dark():
    async def scenario(tracks, factory, clock):
        tracks.show([track_state(12, ONE_TOKEN), track_state(20, ONE_TOKEN)])
        shown = lit(factory)
        tracks.show([])
        with pytest.raises(ValueError, match="no seat 1"):
            tracks.animate(Animation.WINNER, [1])
        return shown, lit(factory)

    assert run(scenario) == ((12, True, False, False), (0, True, False, False))


def test_active_low_wiring_inverts_the_pins():
    low = LedTracksConfig(active_high=False, tracks=CONFIG.tracks)

    async def main():
        factory = MockFactory()
        tracks = GpioTracks(low, FakeClock(), pin_factory=factory)
        tracks.show([track_state(30, ONE_TOKEN)])
        seen = lit(factory, high=False), factory.pin(PINS.track[0]).state
        tracks.close()
        tracks.close()
        return seen

    assert asyncio.run(main()) == ((5, True, True, False), False)
