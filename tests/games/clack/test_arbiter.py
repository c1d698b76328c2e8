"""The fair race: many threads submit claims at once through one arbiter."""

import random
import sys
import threading

import pytest

from firmware_host.errors import IllegalMove
from firmware_host.games.clack.arbiter import Arbiter
from firmware_host.games.clack.dice import VirtualDice
from firmware_host.games.clack.discs import load_disc_set
from firmware_host.games.clack.engine import replay
from firmware_host.games.clack.events import DiceRolled, DiscClaimed, GameStarted, read_event

DISCS = load_disc_set()
ALL = list(range(1, 37))
PLAYERS = ("ana", "ben", "cleo", "dan", "eve", "finn")


@pytest.fixture(autouse=True)
def eager_thread_switching():
    """Switch threads every microsecond, so that races show up if the arbiter allowed them."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(before)


def is_partition(game):
    held = [d for stack in game.stacks for d in stack]
    return sorted([*game.table, *held]) == ALL


def run_threads(worker, count):
    barrier = threading.Barrier(count)
    errors = []

    def guarded(index):
        try:
            barrier.wait(timeout=10)
            worker(index)
        except BaseException as exc:  # reported to the main thread below
            errors.append(exc)

    threads = [threading.Thread(target=guarded, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads)
    assert not errors, errors


def test_one_disc_claimed_by_everyone_at_once_goes_to_exactly_one_player():
    for trial in range(20):
        table = Arbiter(DISCS, GameStarted(players=PLAYERS))
        table.submit(DiceRolled(round=1, shape="star", color="red"))
        decisions = {}

        def claim(index, table=table, decisions=decisions):
            decisions[PLAYERS[index]] = table.submit(DiscClaimed(1, PLAYERS[index], 10))

        run_threads(claim, len(PLAYERS))
        winners = [p for p, d in decisions.items() if d.accepted]
        assert len(winners) == 1, trial
        assert table.game.holder(10) == winners[0]
        for player, decision in decisions.items():
            if player != winners[0]:
                assert decision.message.endswith(f"disc 10 is already in {winners[0]}'s stack")


def test_a_whole_race_from_many_threads_never_doubles_or_loses_a_disc():
    started = GameStarted(players=PLAYERS, seed=5)
    table = Arbiter(DISCS, started)
    dice = VirtualDice(DISCS, seed=5)
    rolls = [dice.roll(r) for r in range(1, 2001)]
    bad_snapshots = []

    def player(index):
        choose = random.Random(index)
        name = PLAYERS[index]
        for _ in range(20_000):
            game = table.game
            if not is_partition(game):
                bad_snapshots.append(game)
            if game.over:
                return
            if game.awaiting_roll:
                table.submit(rolls[game.round])  # several threads may roll; one is accepted
                continue
            pool = game.table if choose.random() < 0.05 else game.matching() or game.table
            disc = pool[0] if choose.random() < 0.5 else choose.choice(pool)
            table.submit(DiscClaimed(game.round, name, disc))

    run_threads(player, len(PLAYERS))
    game = table.game
    assert game.over
    assert not bad_snapshots
    assert sorted(d for s in game.stacks for d in s) == ALL
    assert replay(DISCS, table.events()) == game
    accepted_rolls = [e for e in table.events() if isinstance(e, DiceRolled)]
    assert [r.round for r in accepted_rolls] == list(range(1, len(accepted_rolls) + 1))


def test_malformed_and_out_of_place_submissions_are_refused_and_change_nothing():
    table = Arbiter(DISCS, GameStarted(players=("ana", "ben")))
    table.submit(DiceRolled(round=1, shape="star", color="red"))
    before = table.game
    for bad, reason in [
        ({"type": "disc_claimed", "round": "1", "player": "ana", "disc": 10}, "round: input"),
        ({"type": "disc_claimed", "round": 1, "player": "ana"}, "disc: required key"),
        ({"type": "disc_claimed", "round": 1, "player": "ana", "disc": 10, "x": 1}, "x: unknown"),
        ({"type": "grab", "disc": 10}, "unknown event type 'grab'"),
        ({"type": "game_started", "players": ["a", "b"]}, "already started"),
    ]:
        decision = table.submit(bad)
        assert not decision.accepted and decision.seq is None
        assert reason in decision.message
    assert table.game is before
    assert len(table.events()) == 2


def test_an_arbiter_resumes_a_game_from_its_journal():
    table = Arbiter(DISCS, GameStarted(players=("ana", "ben")))
    table.submit(DiceRolled(round=1, shape="star", color="red"))
    table.submit(DiscClaimed(1, "ana", 10))
    journal = [e.to_json() for e in table.events()]
    resumed = Arbiter.resume(DISCS, [read_event(e) for e in journal])
    assert resumed.game == table.game and resumed.events() == table.events()
    decision = resumed.submit(DiscClaimed(1, "ben", 10))
    assert not decision.accepted and "already in ana's stack" in decision.message
    assert resumed.submit(DiscClaimed(1, "ben", 18)).seq == 3
    with pytest.raises(IllegalMove, match="must begin with its set-up"):
        Arbiter.resume(DISCS, [DiceRolled(round=1, shape="star", color="red")])
