"""The eye carries several weighted boards from one drop to the next (``track``, three
here; the shipped configuration carries one, the decided board, until the journal keeps
the others)."""

from __future__ import annotations

from dataclasses import replace

from firmware_host.config.noise import load_profile
from firmware_host.config.table import load_table
from firmware_host.eye import Asking, Decided, Eye, Question, load_eye_config
from firmware_host.eye.config import Track
from firmware_host.eye.eye import ALIKE_MM, Belief, same_board
from firmware_host.games.dropit.rules.pieces import Pose
from firmware_host.model import World, load_params
from simulator.evaluate import in_process_drops

TABLE = load_table()
PARAMS = load_params()
SHIPPED = load_eye_config()
CONFIG = SHIPPED.model_copy(update={"track": SHIPPED.track.model_copy(update={"boards": 3})})
CLEAN = load_profile("clean")


def test_a_decision_leaves_the_decided_board_first_and_other_distinct_boards() -> None:
    eye = Eye(TABLE, PARAMS, CONFIG, seed=1)
    model = World(TABLE.board, PARAMS)
    carried = 0
    for drop in in_process_drops(TABLE, CLEAN, 8, seed=4):
        look = eye.look(model.snapshot(), drop.identity, drop.readings, f"p{drop.number}")
        outcome = look.outcome
        while isinstance(outcome, Asking) and isinstance(outcome.question, Question):
            outcome = look.answer(drop.oracle.answer(outcome.question))
        if not isinstance(outcome, Decided):
            model = World.at_rest(TABLE.board, PARAMS, drop.oracle.pieces)
            continue
        belief = eye.belief
        assert belief is not None
        boards = [board for board, _ in belief.boards]
        assert boards[0] == outcome.snapshot
        assert 1 <= len(boards) <= CONFIG.track.boards
        assert max(weight for _, weight in belief.boards) == 0.0
        for i, a in enumerate(boards):
            assert all(not same_board(a, b, ALIKE_MM) for b in boards[i + 1 :])
        model.restore(outcome.snapshot)
        following = eye.boards(model.snapshot())
        assert [board for board, _ in following] == boards
        at_the_table = World.at_rest(TABLE.board, PARAMS, outcome.pieces).snapshot()
        assert len(eye.boards(at_the_table)) == len(boards)  # the service's board, from poses
        carried += len(boards) > 1
    assert carried >= 3


def test_a_board_other_than_the_decided_one_starts_afresh() -> None:
    eye = Eye(TABLE, PARAMS, CONFIG, seed=1)
    drop = next(iter(in_process_drops(TABLE, CLEAN, 1, seed=4)))
    look = eye.look(World(TABLE.board, PARAMS).snapshot(), drop.identity, drop.readings, "p1")
    assert isinstance(look.outcome, Decided) and eye.belief is not None
    confirmed = World.at_rest(TABLE.board, PARAMS, drop.oracle.pieces).snapshot()
    seated = World(TABLE.board, PARAMS, confirmed).seated().snapshot()
    assert eye.boards(confirmed) == ((seated, 0.0),)  # alone, seated in the model
    one = Eye(TABLE, PARAMS, CONFIG.model_copy(update={"track": track(1)}), seed=1)
    again = one.look(World(TABLE.board, PARAMS).snapshot(), drop.identity, drop.readings, "p1")
    assert isinstance(again.outcome, Decided) and one.belief is not None
    assert len(one.belief.boards) == 1 and one.belief.boards[0][1] == 0.0  # as a new board


def track(boards: int) -> Track:
    """The shipped ``track`` keys with ``boards`` boards."""
    return CONFIG.track.model_copy(update={"boards": boards})


def test_a_later_drop_corrects_a_wrong_decided_board_from_a_carried_one() -> None:
    """The decided board put the first piece at the far side of the board; the board
    carried beside it has it where it lies. The next drop's strips (the bottom edge's
    contacts) pick the carried board: its landings win and the decision keeps the first
    piece where it truly lies."""
    drops = list(in_process_drops(TABLE, CLEAN, 2, seed=2))
    first, second = drops
    (truth,) = first.oracle.pieces
    mirrored = replace(
        truth, pose=Pose(TABLE.board.width - truth.pose.x, truth.pose.y, truth.pose.angle)
    )
    assert abs(mirrored.pose.x - truth.pose.x) > 60.0
    wrong = World.at_rest(TABLE.board, PARAMS, (mirrored,)).snapshot()
    right = World.at_rest(TABLE.board, PARAMS, (truth,)).snapshot()
    eye = Eye(TABLE, PARAMS, CONFIG, seed=1)
    eye.belief = Belief(((wrong, 0.0), (right, -1.0)))
    look = eye.look(wrong, second.identity, second.readings, "p2")
    assert len(look.boards) == 2
    outcome = look.outcome
    while isinstance(outcome, Asking) and isinstance(outcome.question, Question):
        outcome = look.answer(second.oracle.answer(outcome.question))
    assert isinstance(outcome, Decided)
    kept = outcome.pieces[0]
    assert abs(kept.pose.x - truth.pose.x) < 5.0
    blind = Eye(TABLE, PARAMS, CONFIG, seed=1)
    alone = blind.look(wrong, second.identity, second.readings, "p2")
    assert (
        not isinstance(alone.outcome, Decided)
        or abs(alone.outcome.pieces[0].pose.x - truth.pose.x) > 60.0
    )


def test_the_shipped_eye_carries_the_decided_board_alone() -> None:
    """What a power cut loses must not change a verdict: the journal keeps the decided
    board only, so the shipped eye carries nothing else."""
    assert SHIPPED.track.boards == 1
