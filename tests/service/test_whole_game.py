"""A whole four-player game at the table, end to end: the simulator's virtual hub on a
pty, the real hub link, the drop collector, the referee's eye, the game and its journal,
the panel's buttons on gpiozero's mock pins and the LED tracks on the hub's strips; the
game's clock simulated. Players select and confirm with the buttons and answer the eye's
questions with the yes/no buttons, honestly; the journal holds every event before the
LED tracks show it; the hub's strips end showing exactly the final scores."""

import asyncio

from gpiozero.pins.mock import MockFactory

from firmware_host.journal.dropit import load_state
from firmware_host.journal.store import Journal
from firmware_host.outputs.track_lights import lights_for
from firmware_host.service.clock import SimulatedClock
from firmware_host.service.controller import Phase
from firmware_host.service.runner import Service
from simulator.autoplay import AutoPlayers, aim
from tests.service.support import options, until

PINS = {"next": 6, "confirm": 13, "joker": 19, "yes": 26, "no": 21}


def press(factory: MockFactory, name: str) -> None:
    pin = factory.pin(PINS[name])
    pin.drive_low()
    pin.drive_high()


def checking_journal(service: Service, checked: list[int]) -> None:
    """Every time the tracks are lit, the journal must already hold what they show."""
    tracks = service.play.tracks
    show = tracks.show

    def show_committed(states):
        with Journal(service.options.journal) as reader:
            (game,) = reader.games()
            committed = [s.track for s in load_state(reader, game.id).scores()]
        assert [lights_for(t) for t in committed] == [lights_for(t) for t in states]
        checked.append(1)
        show(states)

    tracks.show = show_committed


async def play_by_buttons(service: Service, factory: MockFactory) -> dict[str, int]:
    table = service.controller
    chooser = AutoPlayers(table, service.play.hand, service.options.seed, service.clock)
    seen = {"jokers": 0, "questions": 0, "confirmed": 0}
    while not table.finished:
        await until(lambda: table.phase is not Phase.JUDGING and table.paused is None)
        if table.phase is Phase.JOKER:
            seen["jokers"] += 1
            press(factory, "joker" if seen["jokers"] % 2 else "no")
            await until(lambda: table.phase is not Phase.JOKER)
            continue
        if table.phase is Phase.QUESTION:
            seen["questions"] += 1
            asked = table.asked
            press(factory, "yes" if service.play.hand.truth(asked) else "no")
            await until(lambda a=asked: table.asked is not a)
            continue
        if table.finished:
            break
        turn = table.state.current
        if table.mishaps > seen["confirmed"]:  # staff look at the board and confirm it
            seen["confirmed"] = table.mishaps
            table.confirm_board(service.play.hand.board())
            continue
        wanted = chooser.choose()
        press(factory, "next")
        await until(lambda: table.snapshot().selection is not None)
        while (table.snapshot().selection.color, table.snapshot().selection.shape) != wanted:
            selection = table.snapshot().selection
            press(factory, "next")
            await until(lambda s=selection: table.snapshot().selection != s)
        press(factory, "confirm")
        await until(lambda: "drop the" in str(table.snapshot().status))
        await service.clock.sleep(3.0)
        x, angle = aim(table.board, service.options.seed, turn.number, wanted[1])
        await service.play.hand.drop(turn.number, *wanted, x, angle)
        await until(
            lambda n=turn.number, m=table.mishaps: (
                table.state.next_turn > n or table.phase is Phase.QUESTION or table.mishaps > m
            )
        )
    return seen


def test_a_whole_four_player_game_over_the_virtual_hub(tmp_path):
    factory = MockFactory()
    clock = SimulatedClock()
    checked: list[int] = []

    async def main():
        service = Service(options(tmp_path), clock=clock, pin_factory=factory, announce=print)
        runner = asyncio.create_task(service.run())
        await until(lambda: service.play.buttons is not None and service.controller.paused is None)
        checking_journal(service, checked)
        seen = await play_by_buttons(service, factory)
        scores = service.controller.state.scores()
        hub = service.hub.virtual
        await until(lambda: [_lit(hub.leds[seat]) for seat in range(4)] == _expected(scores))
        service.stop()
        await runner
        return seen, scores

    seen, scores = asyncio.run(main())
    with Journal(tmp_path / "journal.sqlite3") as reader:
        (game,) = reader.games()
        state = load_state(reader, game.id)
    assert game.finished is not None
    assert len(state.drops) == 36 and state.over
    assert state.scores() == scores
    assert len(checked) >= 36
    assert seen["jokers"] >= 1
    assert clock.now() >= 36 * 3.0


def _lit(strip: bytearray) -> tuple[int, bool, bool]:
    """A seat's strip as (track lights lit, +25 lit, +50 lit)."""
    on = [any(strip[3 * i : 3 * i + 3]) for i in range(27)]
    return sum(on[:25]), on[25], on[26]


def _expected(scores) -> list[tuple[int, bool, bool]]:
    shown = []
    for score in scores:
        lights = lights_for(score.track)
        shown.append((sum(lights.track), lights.plus_25.lit(True), lights.plus_50.lit(True)))
    return shown
