"""A game journaled event by event drives the GPIO score track: each event is committed
before the track shows it, and the track always shows the journaled state."""

import asyncio

from gpiozero.pins.mock import MockFactory

from firmware_host.config import CONFIG_DIR
from firmware_host.config.panel import load_panel
from firmware_host.games.dropit.events import ShapeDropped
from firmware_host.journal.dropit import DropItRecord, load_state
from firmware_host.journal.store import Journal
from firmware_host.outputs.gpio_tracks import GpioTracks
from firmware_host.outputs.track_lights import Animation
from tests.fake_clock import FakeClock
from tests.journal_support import refereed

CONFIG = load_panel(CONFIG_DIR / "panel" / "bench_track.yaml").led_tracks
PINS = CONFIG.tracks[0]


def test_every_shown_state_is_already_in_the_journal(tmp_path):
    events = refereed("two_teams_jokers_shape_edges").events
    path = tmp_path / "journal.sqlite3"

    async def scenario():
        factory = MockFactory()
        clock = FakeClock()
        tracks = GpioTracks(CONFIG, clock, pin_factory=factory)
        seen = []
        with Journal(path) as journal, Journal(path) as reader:
            game = DropItRecord.start(journal, events[0])
            for event in events[1:]:
                state = game.record(event)
                tracks.show([score.track for score in state.scores()])
                if isinstance(event, ShapeDropped) and state.drops[-1].competitor == "Owls":
                    tracks.animate(Animation.POINTS_GAINED, [0])
                await clock.advance(1.5)  # past the longest sweep (25 x 40 ms)
                on_disk = load_state(reader, game.game_id)
                lights = sum(factory.pin(p).state for p in PINS.track)
                seen.append((lights, on_disk.scores()[0].track.position))
        tracks.close()
        return seen

    seen = asyncio.run(scenario())
    assert len(seen) == len(events) - 1
    assert all(lights == position for lights, position in seen)
    assert seen[-1] == (7, 7)  # Owls: 32 scored, space 7 (docs/game-file.md)
