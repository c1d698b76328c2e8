"""The turn flow's parts: questions answered from the page, jokers, staff actions,
refusals, and resuming a game from the journal after the service stopped mid-game."""

import asyncio

import pytest

from firmware_host.errors import IllegalMove
from firmware_host.games.dropit.events import PiecesMoved, ShapeDropped
from firmware_host.journal.dropit import load_events
from firmware_host.journal.store import Journal
from firmware_host.outputs.track_lights import lights_for
from firmware_host.panel.buttons import Action as Button
from firmware_host.service.autoplay import AutoPlayers, aim
from firmware_host.service.clock import SimulatedClock
from firmware_host.service.controller import Phase
from firmware_host.service.runner import Service
from firmware_host.service.simulated import TruthReferee
from firmware_host.service.track_log import LoggedTracks
from firmware_host.web.actions import TABLE_SEAT, Answer, Joker, Select, Staff, StaffOp
from tests.service.support import AskingReferee, options


async def drop_turn(service: Service) -> None:
    """The current player (declining a joker on offer) selects, confirms and drops."""
    table = service.controller
    if table.phase is Phase.JOKER:
        await table.press(Button.ANSWER_NO)
    turn = table.state.current
    color, shape = AutoPlayers(table, service.simulator, 5, service.clock).choose()
    await table.act(Select(type="select", color=color, shape=shape), turn.player)
    await table.press(Button.CONFIRM)
    x, angle = aim(table.board, service.options.seed, turn.number, shape)
    await service.simulator.drop(turn.number, color, shape, x, angle)


def test_a_question_answered_on_the_page_reaches_the_referee(tmp_path):
    async def main() -> None:
        service = Service(options(tmp_path), announce=print)
        table = service.controller
        asking = AskingReferee(TruthReferee(service.simulator), {"t1"})
        table.referee = asking
        await drop_turn(service)
        assert table.phase is Phase.QUESTION
        question = table.snapshot().question
        assert question.player == "Ann" and "t1" in question.text
        with pytest.raises(IllegalMove, match="no pending question"):
            await table.act(Answer(type="answer", question="q9", yes=True), TABLE_SEAT)
        await table.press(Button.ANSWER_NO)  # a button answers too: no, asked again
        second = table.snapshot().question
        assert second.id != question.id and table.state.next_turn == 1
        await table.act(Answer(type="answer", question=second.id, yes=True), TABLE_SEAT)
        assert asking.answers == [False, True]
        assert table.state.next_turn == 2 and table.snapshot().question is None
        service.close()

    asyncio.run(main())


def test_joker_offer_spent_from_the_page_and_refused_when_none_is_offered(tmp_path):
    async def main() -> None:
        service = Service(options(tmp_path), announce=print)
        table = service.controller
        with pytest.raises(IllegalMove, match="no joker"):
            await table.act(Joker(type="joker", spend=True), TABLE_SEAT)
        while table.phase is not Phase.JOKER:
            await drop_turn(service)
        drop = table.state.drops[-1]
        before = table.state.standing(drop.competitor)
        assert table.snapshot().to_json()["joker_offer"]["for"] == drop.competitor
        with pytest.raises(IllegalMove, match="joker offer first"):
            table.select(*next(iter(before.supply))[:2])
        await table.act(Joker(type="joker", spend=True), drop.player)
        after = table.state.standing(drop.competitor)
        assert after.jokers_left == before.jokers_left - 1
        assert after.scored == before.scored + drop.ruling.full_points
        assert table.phase is Phase.SELECT
        service.close()

    asyncio.run(main())


def test_pile_shifts_are_journaled_before_the_drop_that_caused_them(tmp_path):
    async def main() -> int:
        service = Service(options(tmp_path, noise="realistic", seed=11), announce=print)
        for _ in range(20):
            await drop_turn(service)
        game_id = service.controller.game.game_id
        service.close()
        return game_id

    game_id = asyncio.run(main())
    with Journal(tmp_path / "journal.sqlite3") as reader:
        events = load_events(reader, game_id)
    moved = [i for i, e in enumerate(events) if isinstance(e, PiecesMoved)]
    assert moved, "twenty realistic drops and not one piece was pushed"
    for i in moved:
        assert isinstance(events[i + 1], ShapeDropped)


def test_resume_picks_up_the_same_game_turn_board_and_tracks(tmp_path):
    clock = SimulatedClock()

    async def first_half() -> tuple:
        service = Service(options(tmp_path), clock=clock, announce=print)
        service.tracks = service.controller.tracks = LoggedTracks(4, clock)
        for _ in range(9):
            await drop_turn(service)
        table = service.controller
        seen = (table.game.game_id, table.state, service.tracks.exact, service.simulator.pieces)
        service.close()
        return seen

    async def second_half() -> tuple:
        said = []
        service = Service(options(tmp_path), clock=clock, announce=said.append)
        service.tracks = service.controller.tracks = LoggedTracks(4, clock)
        service.controller.redraw()
        table = service.controller
        seen = (table.game.game_id, table.state, service.tracks.exact, service.simulator.pieces)
        await drop_turn(service)
        assert table.state.next_turn == 11
        service.close()
        return seen, said

    game_id, state, lights, truth = asyncio.run(first_half())
    (game_id_2, state_2, lights_2, truth_2), said = asyncio.run(second_half())
    assert game_id_2 == game_id and state_2 == state
    assert state_2.board == state.board  # the believed poses, from the journal
    assert lights_2 == lights == tuple(lights_for(s.track) for s in state.scores())
    assert truth_2 == truth  # the simulator's true board is rebuilt too
    assert said == [f"tabletop run: resuming game {game_id} at turn 10"]


def test_staff_abort_finishes_the_game_and_starts_a_new_one(tmp_path):
    async def main() -> None:
        service = Service(options(tmp_path), announce=print)
        table = service.controller
        await drop_turn(service)
        first = table.game.game_id
        await table.act(Staff(type="staff", op=StaffOp.ABORT, pin="2741"), "staff")
        assert table.game.game_id == first + 1 and table.state.next_turn == 1
        with pytest.raises(IllegalMove, match="config files"):
            await table.act(Staff(type="staff", op=StaffOp.SETTINGS, pin="2741"), "staff")
        with Journal(tmp_path / "journal.sqlite3") as reader:
            assert reader.game(first).finished is not None
        service.close()

    asyncio.run(main())
