"""The dice table controller: every throw and move is checked, journaled before it is shown,
refused moves change nothing, the game resumes from its journal, staff abort it."""

import asyncio

import pytest

from firmware_host.errors import IllegalMove, InputError
from firmware_host.games.table_game import Setup
from firmware_host.journal.store import Journal
from firmware_host.sensors import DieReading
from firmware_host.service.dice_controller import DiceController
from firmware_host.web.actions import Again, Staff
from firmware_host.web.dice_actions import Move, Roll
from tests.games.dice_duel import DiceDuel


@pytest.fixture
def journal(tmp_path):
    with Journal(tmp_path / "journal.sqlite3") as journal:
        yield journal


def throw(table, die, face):
    table.die(DieReading(die, True, None))
    table.die(DieReading(die, False, face))


def journaled(journal, table):
    return [e.data for e in journal.events(table.game_id)]


def test_a_throw_and_a_move_are_journaled_then_shown(journal):
    table = DiceController.start(journal, DiceDuel, Setup(("Ann", "Ben")), dice=2)
    assert table.snapshot().roll == {"dice": [0], "by": "Ann"}
    throw(table, 0, 4)
    assert table.snapshot().data["game"] == {"thrown": [4]}
    assert table.snapshot().waiting_for == ("Ann",)
    table.play("Ann", {"type": "keep"})
    assert table.snapshot().data["scores"] == {"Ann": 5, "Ben": 0}
    assert journaled(journal, table) == [
        {"type": "started", "players": ["Ann", "Ben"], "pair": False},
        {"type": "thrown", "faces": [4]},
        {"type": "keep", "player": "Ann"},
    ]


def test_every_view_shown_is_already_in_the_journal(journal, tmp_path):
    table = DiceController.start(journal, DiceDuel, Setup(("Ann", "Ben")), dice=2)
    seen = []

    def on_disk():
        with Journal(tmp_path / "journal.sqlite3", create=False) as reader:
            return len(reader.events(table.game_id))

    async def watch():
        updates = table.updates()
        throw(table, 0, 2)
        seen.append(((await anext(updates)).data["game"], on_disk()))
        table.play("Ann", {"type": "pass"})
        seen.append(((await anext(updates)).data["status"], on_disk()))

    asyncio.run(watch())
    assert seen == [({"thrown": [2]}, 2), ("Ben's turn", 3)]


def test_refused_moves_and_reports_change_nothing(journal):
    table = DiceController.start(journal, DiceDuel, Setup(("Ann", "Ben")), dice=2)
    before = table.snapshot()
    with pytest.raises(IllegalMove):
        table.play("Ann", {"type": "keep"})  # nothing thrown yet
    with pytest.raises(InputError, match="type"):
        table.play("Ann", {"type": "steal"})
    table.die(DieReading(1, True, None))
    table.die(DieReading(1, False, 3))  # die 1 is not part of this throw
    table.die(DieReading(7, False, 3))  # no such die: logged, ignored
    assert table.snapshot().data == before.data
    assert table.events == 1 and len(journal.events(table.game_id)) == 1


def test_the_game_resumes_from_its_journal_and_finishes_there(journal):
    table = DiceController.start(journal, DiceDuel, Setup(("Ann", "Ben")), dice=2)
    throw(table, 0, 5)
    table.play("Ann", {"type": "keep"})
    throw(table, 0, 1)
    again = DiceController.resume(journal, DiceDuel, dice=2)
    assert again is not None and again.game_id == table.game_id
    assert again.snapshot().data == table.snapshot().data
    again.play("Ben", {"type": "keep"})
    for face in (0, 3):
        throw(again, 0, face)
        again.play(again.snapshot().waiting_for[0], {"type": "keep"})
    assert again.finished and again.snapshot().data["winners"] == ["Ann"]
    assert journal.game(again.game_id).finished is not None
    assert DiceController.resume(journal, DiceDuel, dice=2) is None


def test_a_journal_that_cannot_be_replayed_is_named(journal):
    game_id = journal.start_game(
        "duel", {"type": "started", "players": ["Ann", "Ben"], "pair": False}
    )
    journal.append(game_id, 2, {"type": "keep", "player": "Ann"})
    with pytest.raises(InputError, match=f"game {game_id}: cannot be replayed"):
        DiceController.resume(journal, DiceDuel, dice=2)


def test_a_tray_with_too_few_dice_is_refused(journal):
    with pytest.raises(InputError, match="needs 2 dice, the tray has 1"):
        DiceController.start(journal, DiceDuel, Setup(("Ann", "Ben")), dice=1)


def test_page_actions_throw_virtual_dice_move_and_abort(journal):
    thrown = []
    table = DiceController.start(
        journal, DiceDuel, Setup(("Ann", "Ben"), variant="pair"), dice=2, thrower=thrown.append
    )
    asyncio.run(table.act(Roll(type="roll"), "table"))
    assert thrown == [(0, 1)]
    throw(table, 0, 0)
    throw(table, 1, 5)
    asyncio.run(table.act(Move(type="move", move={"type": "keep"}), "Ann"))
    assert table.snapshot().data["scores"]["Ann"] == 7
    with pytest.raises(IllegalMove, match="resync"):
        asyncio.run(table.act(Staff(type="staff", op="resync", pin="1"), "staff"))
    first_game = table.game_id
    asyncio.run(table.act(Staff(type="staff", op="abort", pin="1"), "staff"))
    assert table.game_id != first_game and table.events == 1
    assert journal.game(first_game).finished is not None
    assert table.snapshot().data["scores"] == {"Ann": 0, "Ben": 0}
    assert len(journal.events(first_game)) == 3  # the aborted game stays as it was


def test_a_real_tray_cannot_be_thrown_from_the_page(journal):
    table = DiceController.start(journal, DiceDuel, Setup(("Ann", "Ben")), dice=2)
    with pytest.raises(IllegalMove, match="Ann: throw the dice in the tray"):
        table.throw()
    throw(table, 0, 1)
    with pytest.raises(IllegalMove, match="not waiting for a throw"):
        table.throw()


def test_the_link_state_shows_in_the_view_and_status(journal):
    table = DiceController.start(journal, DiceDuel, Setup(("Ann", "Ben")), dice=2)
    table.link_changed(False, "hub unplugged")
    assert table.snapshot().status == "paused: hub unplugged -- Ann's turn"
    table.link_changed(True, "hub connected", why="reflash the hub: firmware 2 expected")
    assert table.snapshot().to_json()["table"]["link_up"] is False
    table.link_changed(True, "hub connected")
    assert table.snapshot().to_json()["table"] == {
        "link": "hub connected",
        "link_up": True,
        "virtual_dice": False,
        "rolling": [],
    }


def test_every_throw_and_move_and_the_end_are_logged(journal, caplog):
    caplog.set_level("INFO", logger="firmware_host.service")
    table = DiceController.start(journal, DiceDuel, Setup(("Ann", "Ben")), dice=2)
    for face in (5, 1, 0, 3):
        throw(table, 0, face)
        table.play(table.snapshot().waiting_for[0], {"type": "keep"})
    assert table.finished
    logged = [(r.getMessage(), r.fields) for r in caplog.records if hasattr(r, "fields")]
    moves = [fields for message, fields in logged if message == "move"]
    assert [(m["event"], m["type"]) for m in moves] == [
        (n, kind) for n in range(2, 10) for kind in [("thrown", "keep")[n % 2 == 1]]
    ]
    assert moves[1]["data"] == '{"player":"Ann"}' and moves[1]["scores"] == "Ann=6 Ben=0"
    assert moves[0]["data"] == '{"faces":[5]}'
    (over,) = [fields for message, fields in logged if message == "game over"]
    assert over == {"game": table.game_id, "winners": "Ann"}


def test_staff_set_up_the_next_players_and_the_players_play_again(journal):
    table = DiceController.start(journal, DiceDuel, Setup(("Ann", "Ben"), variant="pair"), dice=2)
    again = Again(type="again")
    with pytest.raises(IllegalMove, match="not over yet"):
        asyncio.run(table.act(again, "table"))
    with pytest.raises(IllegalMove, match="2 to 4 players"):
        asyncio.run(table.act(Staff(type="staff", op="new", pin="1", players=["Zoe"]), "staff"))
    first = table.game_id
    assert journal.game(first).finished is None  # a refused set-up ends nothing
    new = Staff(type="staff", op="new", pin="1", players=["Zoe", " Yan", "Xia"])
    asyncio.run(table.act(new, "staff"))
    assert table.game_id == first + 1 and journal.game(first).finished is not None
    assert table.snapshot().players == ("Zoe", "Yan", "Xia")
    assert journal.events(table.game_id)[0].data["pair"]  # the variant stays
    while not table.finished:  # every throw of the pair kept
        throw(table, 0, 1)
        throw(table, 1, 1)
        table.play(table.snapshot().waiting_for[0], {"type": "keep"})
    played = table.game_id
    asyncio.run(table.act(again, "Yan"))
    assert table.game_id == played + 1 and table.events == 1
    assert journal.events(table.game_id)[0].data == journal.events(played)[0].data
