"""A whole four-player game at the table, in simulated time: buttons on gpiozero's mock
pins select and confirm, the simulated hand drops, the referee decides, the journal
commits, the LED tracks show exactly what was committed."""

import asyncio

from gpiozero.pins.mock import MockFactory

from firmware_host.journal.dropit import load_state
from firmware_host.journal.store import Journal
from firmware_host.outputs.track_lights import lights_for
from firmware_host.service.autoplay import AutoPlayers, aim
from firmware_host.service.clock import SimulatedClock
from firmware_host.service.controller import Phase
from firmware_host.service.runner import Service
from firmware_host.service.track_log import LoggedTracks
from tests.service.support import options, until

PINS = {"previous": 5, "next": 6, "confirm": 13, "joker": 19, "yes": 26, "no": 21}


def press(factory: MockFactory, name: str) -> None:
    pin = factory.pin(PINS[name])
    pin.drive_low()
    pin.drive_high()


class CheckedTracks(LoggedTracks):
    """Tracks that check, whenever lights are set, that the journal already holds what they
    show (every event committed before any output shows it)."""

    journal_path = None
    checked = 0

    def show(self, tracks):
        with Journal(self.journal_path) as reader:
            (game,) = reader.games()
            committed = [s.track for s in load_state(reader, game.id).scores()]
        assert [lights_for(t) for t in committed] == [lights_for(t) for t in tracks]
        CheckedTracks.checked += 1
        super().show(tracks)


async def play_by_buttons(service: Service, factory: MockFactory) -> int:
    table = service.controller
    chooser = AutoPlayers(table, service.simulator, service.options.seed, service.clock)
    jokers = 0
    while not table.finished:
        if table.phase is Phase.JOKER:
            jokers += 1
            press(factory, "joker" if jokers % 2 else "no")
            await until(lambda: table.phase is not Phase.JOKER)
            continue
        turn = table.state.current
        wanted = chooser.choose()
        press(factory, "next")
        await until(lambda: table.snapshot().selection is not None)
        for _ in range(12):
            selection = table.snapshot().selection
            if (selection.color, selection.shape) == wanted:
                break
            press(factory, "next")
            await until(lambda s=selection: table.snapshot().selection != s)
        press(factory, "confirm")
        await until(lambda: "drop the" in table.snapshot().status)
        await service.clock.sleep(3.0)
        x, angle = aim(table.board, service.options.seed, turn.number, wanted[1])
        await service.simulator.drop(turn.number, *wanted, x, angle)
        await until(lambda n=turn.number: table.state.next_turn > n)
    return jokers


def test_a_whole_four_player_game_by_buttons(tmp_path):
    factory = MockFactory()
    clock = SimulatedClock()

    async def main():
        service = Service(options(tmp_path), clock=clock, pin_factory=factory, announce=print)
        CheckedTracks.journal_path = service.options.journal
        service.tracks = CheckedTracks(4, clock)
        runner = asyncio.create_task(service.run())
        await until(lambda: service.buttons is not None)
        jokers = await play_by_buttons(service, factory)
        scores = service.controller.state.scores()
        shown = service.tracks.exact
        service.stop()
        await runner
        return jokers, scores, shown

    jokers, scores, shown = asyncio.run(main())
    assert jokers >= 1
    with Journal(tmp_path / "journal.sqlite3") as reader:
        (game,) = reader.games()
        state = load_state(reader, game.id)
        assert game.finished is not None
    assert len(state.drops) == 36 and state.over
    assert state.scores() == scores
    assert shown == tuple(lights_for(s.track) for s in scores)
    assert CheckedTracks.checked >= 36
    assert clock.now() >= 36 * 3.0
