"""The demo table: a recorded game played back step by step on an injected clock, its
question and joker offers, and ``tabletop page`` refusing bad input."""

import asyncio

import pytest

from firmware_host.cli import main
from firmware_host.commands.page import default_questions
from firmware_host.config.board import load_board
from firmware_host.errors import IllegalMove
from firmware_host.games.dropit.actions import Answer, Confirm, Joker, Select
from firmware_host.games.dropit.rules.pieces import Color, Shape
from firmware_host.web.actions import TABLE_SEAT
from firmware_host.web.demo import DemoFeed
from tests.web.support import FOUR, TEAMS, Ticks, report


def test_stepping_through_a_whole_game_counts_as_the_referee_does():
    refereed = report(TEAMS)
    table = DemoFeed(load_board(), refereed)
    offers = []
    while not table.finished:
        table.step()
        view = table.snapshot()
        if view.joker_offer:
            offers.append(view.last_drop.turn)
    state = table.snapshot().state
    assert state == refereed.state
    # an offer after every broken rule while the team still had a joker
    assert {14, 27, 30} <= set(offers)
    assert all(not refereed.turns[t - 1].verdict.valid for t in offers)


def test_run_steps_on_the_injected_clock():
    async def scenario():
        table = DemoFeed(load_board(), report(FOUR))
        ticks = Ticks()
        runner = asyncio.create_task(table.run(2.5, sleep=ticks.sleep))
        seen = []
        updates = table.updates()
        for _ in range(3):
            ticks.tick()
            seen.append((await anext(updates)).state.next_turn)
        runner.cancel()
        return seen, ticks.slept

    seen, slept = asyncio.run(scenario())
    assert seen == [2, 3, 4]
    assert slept == 7.5


def test_the_question_waits_for_an_answer_and_no_asks_again():
    table = DemoFeed(load_board(), report(FOUR), ask=[2])
    table.step()  # turn 1
    table.step()  # the question before turn 2
    question = table.snapshot().question
    assert question.player == "Ben" and question.id == "q1"
    table.step()
    table.step()
    assert table.snapshot().state.next_turn == 2  # waits however long it takes
    asyncio.run(table.act(Answer(type="answer", question="q1", yes=False), "Ben"))
    assert table.snapshot().question is None
    table.step()
    assert table.snapshot().question.id == "q2"
    asyncio.run(table.act(Answer(type="answer", question="q2", yes=True), "Ben"))
    assert table.snapshot().state.next_turn == 3
    assert [r.seat for r in table.received] == ["Ben", "Ben"]


def test_select_shows_the_choice_and_confirm_plays_the_turn():
    table = DemoFeed(load_board(), report(FOUR))
    asyncio.run(table.act(Select(type="select", color=Color.RED, shape=Shape.SQUARE), TABLE_SEAT))
    assert table.snapshot().selection.to_json() == {
        "player": "Ann",
        "color": "red",
        "shape": "square",
    }
    asyncio.run(table.act(Confirm(type="confirm"), TABLE_SEAT))
    view = table.snapshot()
    assert view.selection is None
    assert view.state.next_turn == 2


def test_a_declined_joker_is_not_spent():
    refereed = report(TEAMS)
    table = DemoFeed(load_board(), refereed)
    while table.snapshot().state.next_turn <= 14:
        table.step()
    assert table.snapshot().joker_offer
    asyncio.run(table.act(Joker(type="joker", spend=False), "Cleo"))
    view = table.snapshot()
    assert not view.joker_offer
    assert view.state.standing("Foxes").jokers_left == 2
    assert not view.state.drops[-1].joker


def test_nothing_is_played_past_the_recording():
    table = DemoFeed(load_board(), report(FOUR))
    while not table.finished:
        table.step()
    with pytest.raises(IllegalMove, match="every recorded turn"):
        asyncio.run(table.act(Confirm(type="confirm"), TABLE_SEAT))


def test_the_default_question_comes_before_the_first_broken_rule():
    assert default_questions(report(FOUR)) == [1]
    assert default_questions(report(TEAMS)) == [
        next(t.drop.turn for t in report(TEAMS).turns if not t.verdict.valid)
    ]


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["--demo", "missing.yaml"], "missing.yaml: file not found"),
        (["--demo", str(FOUR), "--interval", "0"], "--interval: expected a number of seconds > 0"),
        (["--demo", str(FOUR), "--config", "nowhere.yaml"], "nowhere.yaml: file not found"),
        (["--demo", str(FOUR), "--host", "203.0.113.9", "--port", "0"], "cannot listen there"),
    ],
)
def test_the_page_command_refuses_bad_input_in_one_line(capsys, args, error):
    try:
        status = main(["page", *args])
    except SystemExit as stop:  # refused while parsing
        status = stop.code
    assert status == 2
    err = capsys.readouterr().err
    assert err.startswith("tabletop page: ")
    assert error in err
    assert err.count("\n") == 1
