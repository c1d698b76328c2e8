"""The turn flow's parts on a bench (the true world in-process, refereed from the truth):
questions answered from the page and the buttons, jokers, pile shifts, staff actions,
refusals, and resuming a game from the journal after the service stopped mid-game."""

import asyncio
import re

import pytest

from firmware_host.config.board import EdgeFace
from firmware_host.errors import IllegalMove
from firmware_host.games.dropit.actions import Answer, Joker, Select
from firmware_host.games.dropit.ask import Mark
from firmware_host.games.dropit.events import PiecesMoved, ShapeDropped
from firmware_host.games.dropit.lineup import Variants
from firmware_host.games.dropit.rules.pieces import Color, Piece, Pose
from firmware_host.games.dropit.svg import board_svg
from firmware_host.journal.dropit import DropItRecord, load_events
from firmware_host.journal.store import Journal
from firmware_host.outputs.track_lights import lights_for
from firmware_host.panel.buttons import Action as Button
from firmware_host.service.clock import SimulatedClock
from firmware_host.service.controller import Phase
from firmware_host.service.options import Options
from firmware_host.service.referee import Asked
from firmware_host.web.actions import TABLE_SEAT, Again, Settings, Staff, StaffOp
from tests.service.bench import Bench, TruthReferee
from tests.service.support import REST, AskingReferee, first_event


def test_a_question_answered_on_the_page_reaches_the_referee(tmp_path):
    async def main() -> None:
        bench = Bench(tmp_path / "journal.sqlite3")
        table = bench.controller
        asking = AskingReferee(TruthReferee(bench.simulator), {"t1"})
        table.referee = asking
        await bench.drop_turn()
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
        bench.close()

    asyncio.run(main())


def test_joker_offer_spent_from_the_page_and_refused_when_none_is_offered(tmp_path):
    async def main() -> None:
        bench = Bench(tmp_path / "journal.sqlite3")
        table = bench.controller
        with pytest.raises(IllegalMove, match="no joker"):
            await table.act(Joker(type="joker", spend=True), TABLE_SEAT)
        while table.phase is not Phase.JOKER:
            await bench.drop_turn()
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
        bench.close()

    asyncio.run(main())


def test_pile_shifts_are_journaled_with_the_drop_that_caused_them(tmp_path):
    commits: list[list[str]] = []

    async def main() -> int:
        bench = Bench(tmp_path / "journal.sqlite3", seed=11)
        append = bench.journal.append

        def committed(game_id, seq, *events, finish=False):
            append(game_id, seq, *events, finish=finish)
            commits.append([event["type"] for event in events])

        bench.journal.append = committed
        for _ in range(20):
            await bench.drop_turn()
        game_id = bench.controller.game.game_id
        bench.close()
        return game_id

    game_id = asyncio.run(main())
    with Journal(tmp_path / "journal.sqlite3") as reader:
        events = load_events(reader, game_id)
    moved = [i for i, e in enumerate(events) if isinstance(e, PiecesMoved)]
    assert moved, "twenty drops and not one piece was pushed"
    for i in moved:
        assert isinstance(events[i + 1], ShapeDropped)
    # one commit each: a power cut between them would have the resumed game shift them again
    assert commits.count(["pieces_moved", "shape_dropped"]) == len(moved)


def test_resume_picks_up_the_same_game_turn_board_and_tracks(tmp_path):
    clock = SimulatedClock()
    path = tmp_path / "journal.sqlite3"

    async def first_half() -> tuple:
        bench = Bench(path, clock=clock)
        for _ in range(9):
            await bench.drop_turn()
        table = bench.controller
        seen = (table.game.game_id, table.state, bench.tracks.exact, bench.simulator.pieces)
        bench.close()
        return seen

    async def second_half() -> tuple:
        bench = Bench(path, clock=clock)
        table = bench.controller
        assert bench.resumed is not None
        seen = (table.game.game_id, table.state, bench.tracks.exact, bench.simulator.pieces)
        await bench.drop_turn()
        assert table.state.next_turn == 11
        bench.close()
        return seen

    game_id, state, lights, truth = asyncio.run(first_half())
    game_id_2, state_2, lights_2, truth_2 = asyncio.run(second_half())
    assert game_id_2 == game_id and state_2 == state
    assert state_2.board == state.board  # the believed poses, from the journal
    assert lights_2 == lights == tuple(lights_for(s.track) for s in state.scores())
    assert truth_2 == truth  # the simulator's true board is rebuilt too


def test_staff_abort_finishes_the_game_and_starts_a_new_one(tmp_path):
    async def main() -> None:
        bench = Bench(tmp_path / "journal.sqlite3")
        table = bench.controller
        table._new_game = lambda started: DropItRecord.start(bench.journal, started)
        await bench.drop_turn()
        first = table.game.game_id
        await table.act(Staff(type="staff", op=StaffOp.ABORT, pin="2741"), "staff")
        assert table.game.game_id == first + 1 and table.state.next_turn == 1
        assert table.state.started == first_event(Options(tmp_path / "journal.sqlite3"))
        with pytest.raises(IllegalMove, match="config files"):
            await table.act(Staff(type="staff", op=StaffOp.SETTINGS, pin="2741"), "staff")
        with Journal(tmp_path / "journal.sqlite3") as reader:
            assert reader.game(first).finished is not None
        bench.close()

    asyncio.run(main())


def test_staff_confirm_the_board_after_a_drop_the_referee_could_not_judge(tmp_path):
    async def main() -> None:
        bench = Bench(tmp_path / "journal.sqlite3")
        table = bench.controller
        with pytest.raises(IllegalMove, match="no drop waits"):
            table.confirm_board(bench.simulator.board())

        class Unsure(TruthReferee):
            def look(self, *args, **kwargs):
                return self.answer(True)  # "asks no questions": a mishap

        table.referee = Unsure(bench.simulator)
        await bench.drop_turn()
        assert table.mishaps == 1 and table.state.next_turn == 1
        table.confirm_board(bench.simulator.board())
        assert table.state.next_turn == 2
        assert table.state.board == bench.simulator.board()
        bench.close()

    asyncio.run(main())


class WhichPiece(TruthReferee):
    """Asks which piece fell (as the eye does when nothing identified it), then referees
    from the truth."""

    def look(self, pieces, identity, readings, piece_id, options=()):
        self.held = (pieces, readings, piece_id, options)
        return Asked("Which piece was dropped?", options=options)

    def choose(self, color, shape):
        pieces, readings, piece_id, options = self.held
        self.chosen = (color, shape)
        return super().look(pieces, (color, shape), readings, piece_id, options)


def test_which_piece_fell_is_answered_by_selecting_it_on_the_page(tmp_path):
    async def main() -> None:
        bench = Bench(tmp_path / "journal.sqlite3")
        table = bench.controller
        table.referee = WhichPiece(bench.simulator)
        await bench.drop_turn()
        assert table.phase is Phase.QUESTION and table.asked.options
        await table.press(Button.ANSWER_YES)  # yes/no does not answer "which piece?"
        assert table.phase is Phase.QUESTION
        with pytest.raises(IllegalMove, match="did not ask"):
            await table.act(Select(type="select", color="green", shape="square"), "Ann")
        with pytest.raises(IllegalMove, match="yes/no"):
            await table.answer(True)
        dropped = bench.simulator.board()[-1]
        await table.act(Select(type="select", color=dropped.color, shape=dropped.shape), "Ann")
        assert table.referee.chosen == (dropped.color, dropped.shape)
        assert table.state.next_turn == 2 and table.phase is not Phase.QUESTION
        bench.close()

    asyncio.run(main())


def staff_new(**keys):
    return Staff(type="staff", op=StaffOp.NEW, pin="2741", **keys)


def test_staff_set_up_the_next_game_and_the_players_play_again_once_it_is_over(tmp_path):
    async def main() -> None:
        bench = Bench(tmp_path / "journal.sqlite3")
        table = bench.controller
        table._new_game = lambda started: DropItRecord.start(bench.journal, started)
        table.referee = AskingReferee(TruthReferee(bench.simulator), {"t2"})
        await bench.drop_turn()
        await bench.drop_turn()
        assert table.phase is Phase.QUESTION  # a question of this game is open
        first = table.game.game_id
        with pytest.raises(IllegalMove, match="not over yet"):
            await table.act(Again(type="again"), TABLE_SEAT)
        with pytest.raises(IllegalMove, match="used twice"):
            await table.act(staff_new(players=["Zoe", "Zoe "]), "staff")
        with pytest.raises(IllegalMove, match="2, 3 or 4 players"):
            await table.act(staff_new(players=["Zoe"]), "staff")
        assert table.game.game_id == first and table.phase is Phase.QUESTION  # nothing ended
        settings = Settings(edges=EdgeFace.SHAPE, jokers=False)
        await table.act(staff_new(players=["Zoe", "Yan", "Xia"], settings=settings), "staff")
        started = table.state.started
        assert [c.name for c in started.competitors] == ["Zoe", "Yan", "Xia"]
        assert (started.variants.edges, started.variants.jokers) == (EdgeFace.SHAPE, False)
        assert table.game.game_id == first + 1 and str(table.snapshot().status) == (
            "staff set up a new game"
        )
        assert table.phase is Phase.SELECT and table.asked is None  # its question is gone
        assert table.snapshot().question is None
        await table.act(staff_new(settings=Settings(jokers=True)), "staff")  # same players
        assert [c.name for c in table.state.started.competitors] == ["Zoe", "Yan", "Xia"]
        assert table.state.started.variants == Variants(EdgeFace.SHAPE, True)
        with pytest.raises(IllegalMove, match="2 players but 1 list of colours"):
            await table.act(staff_new(players=["Ann", "Ben"], colors=[["red"]]), "staff")
        with pytest.raises(IllegalMove, match="each owns 2"):
            await table.act(staff_new(players=["Ann", "Ben"], colors=[["red"], []]), "staff")
        twice = [["red", "blue"], ["red", "green"]]
        with pytest.raises(IllegalMove, match="colour red is given twice"):
            await table.act(staff_new(players=["Ann", "Ben"], colors=twice), "staff")
        chosen = [["green", "yellow"], []]
        await table.act(staff_new(players=["Ann", "Ben"], colors=chosen), "staff")
        competitors = table.state.started.competitors
        assert [c.colors for c in competitors] == [
            (Color.GREEN, Color.YELLOW),
            (Color.RED, Color.BLUE),  # Ben's dealt
        ]
        foxes = {"name": "Foxes", "members": ["Ann", "Ben"], "colors": ["yellow", "blue"]}
        owls = {"name": "Owls", "members": ["Cleo", "Dev"]}
        with pytest.raises(IllegalMove, match="players or the teams"):
            await table.act(staff_new(players=["Ann"], teams=[foxes, owls]), "staff")
        await table.act(staff_new(teams=[foxes, owls]), "staff")
        teams = table.state.started
        assert teams.teams and [(c.name, c.members) for c in teams.competitors] == [
            ("Foxes", ("Ann", "Ben")),
            ("Owls", ("Cleo", "Dev")),
        ]
        assert teams.competitors[0].colors == (Color.YELLOW, Color.BLUE)
        assert table.snapshot().current_player == "Ann"
        await table.act(staff_new(players=["Zoe", "Yan", "Xia"], settings=settings), "staff")
        third = table.game.game_id
        table._phase = Phase.OVER  # as at the end of a game
        await table.act(Again(type="again"), "Yan")
        assert table.game.game_id == third + 1 and table.state.next_turn == 1
        assert table.phase is Phase.SELECT
        assert [c.name for c in table.state.started.competitors] == ["Zoe", "Yan", "Xia"]
        with Journal(tmp_path / "journal.sqlite3") as reader:
            for game in range(first, third + 1):
                assert reader.game(game).finished is not None
        bench.close()

    asyncio.run(main())


class EyeWords(AskingReferee):
    """Asks, before the drop of ``t2``, the eye's question whether it touches ``t1``, in
    the eye's own words (with an id), carrying the piece where the eye believes it rests."""

    def look(self, pieces, identity, readings, piece_id, options=()):
        asked = super().look(pieces, identity, readings, piece_id, options)
        if not isinstance(asked, Asked) or asked.key != REST:
            return asked
        dropped = Piece(piece_id, identity[0], identity[1], Pose(150.0, 60.0, 15.0))
        return Asked("Is the dropped piece touching t1?", key="touch:t1", dropped=dropped)


def test_the_page_puts_the_eyes_question_in_plain_words_over_the_board(tmp_path):
    async def main() -> None:
        bench = Bench(tmp_path / "journal.sqlite3")
        table = bench.controller
        table.referee = EyeWords(TruthReferee(bench.simulator), {"t2"})
        await bench.drop_turn()
        await bench.drop_turn()
        question = table.snapshot().question
        first = table.state.board[0]
        assert str(question.text) == (
            f"Is the {question.ghost.describe()} touching the lit-up {first.describe()}?"
        )
        assert question.mark == Mark("piece", "t1") and question.player == "Ben"
        assert question.ghost.pose == Pose(150.0, 60.0, 15.0)
        svg = board_svg(table.snapshot())
        assert re.search(r'class="piece[^"]* asked" data-id="t1"', svg)
        assert 'class="ghost"' in svg
        assert str(table.snapshot().status) == f"the referee asks Ben: {question.text}"
        bench.close()

    asyncio.run(main())
