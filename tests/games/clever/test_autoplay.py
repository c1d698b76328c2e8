"""Whole games with virtual dice and random players choosing among legal moves."""

from itertools import combinations

import pytest

from firmware_host.errors import IllegalMove
from firmware_host.games.clever.autoplay import play
from firmware_host.games.clever.events import DiceChosen, DiceRolled, Event, GameStarted, Use
from firmware_host.games.clever.game import Game
from firmware_host.games.clever.layout import Color
from tests.clever_support import sheet


@pytest.mark.parametrize(
    ("players", "seed"),
    [
        (("Ann",), 1),
        (("Ann", "Ben"), 2),
        (("Ann", "Ben", "Cid"), 3),
        (("A", "B", "C", "D", "E", "F"), 4),
    ],
)
def test_a_whole_game_plays_to_the_end(players, seed):
    events = play(sheet(), players, seed)
    game = Game.replay(sheet(), events)
    assert game.over
    assert any(game.completed(p) for p in players)
    assert set(game.winners()) == {
        p for p, s in game.scores().items() if s == max(game.scores().values())
    }
    assert isinstance(events[0], GameStarted)
    rolls = [e for e in events if isinstance(e, DiceRolled)]
    starters = [e.player for e in rolls]
    assert starters[0] == players[0]
    assert {type(e) for e in events} >= {DiceRolled, DiceChosen}


def test_many_seeded_games_end_and_stay_within_the_rules():
    """Every event of 30 random games was legal when applied; each game ends in a sensible time."""
    lengths = []
    for seed in range(30):
        events = play(sheet(), ("Ann", "Ben", "Cid"), seed)
        turns = Game.replay(sheet(), events).turn
        lengths.append(turns)
    assert min(lengths) > 5 and max(lengths) < 80


def test_the_same_events_give_the_same_state_also_after_the_journal():
    events = play(sheet(), ("Ann", "Ben"), seed=11)
    journal = [e.to_json() for e in events]
    replayed = Game.replay(sheet(), [Event.from_json(j) for j in journal])
    assert replayed == Game.replay(sheet(), events)
    assert replayed.scores() == Game.replay(sheet(), events).scores()


def test_the_same_seed_plays_the_same_game():
    assert play(sheet(), ("Ann", "Ben"), seed=5) == play(sheet(), ("Ann", "Ben"), seed=5)
    assert play(sheet(), ("Ann", "Ben"), seed=5) != play(sheet(), ("Ann", "Ben"), seed=6)


def test_every_prefix_of_a_game_replays_to_a_consistent_state():
    """Half-way states (as after a power cut) replay, and the game goes on from them."""
    events = play(sheet(), ("Ann", "Ben", "Cid"), seed=8)
    for cut in range(1, len(events), 7):
        game = Game.replay(sheet(), events[:cut])
        resumed = game.apply(events[cut])
        assert resumed == Game.replay(sheet(), events[: cut + 1])


def test_the_options_offered_are_exactly_the_moves_accepted():
    """In positions of real games, a cross with dice is accepted if and only if it is offered."""
    checked = 0
    for seed in (21, 22):
        events = play(sheet(), ("Ann", "Ben"), seed)
        for cut in range(2, len(events), 5):
            game = Game.replay(sheet(), events[:cut])
            for player in game.waiting_for if game.faces else ():
                for color in Color:
                    draft = game.draft(player, color)
                    offered = {(u.box, u.dice) for u in draft.use_options()}
                    for box in sheet().boxes:
                        for size in (1, 2, 3):
                            for dice in combinations(sorted(draft.dice), size):
                                try:
                                    draft.use(Use(box, dice))
                                    accepted = True
                                except IllegalMove:
                                    accepted = False
                                assert accepted == ((box, dice) in offered), (box, dice)
                                checked += 1
    assert checked > 10_000
