"""The view's JSON, built from real game states (refereed example games, random legal games)."""

import itertools
import json
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.games.dropit.rules.landing import Rule
from firmware_host.games.dropit.rules.pieces import Color, Pose, Shape
from firmware_host.games.dropit.state import replay
from firmware_host.games.dropit.view import DropItView, Question, Selection
from tests.dropit_support import random_game
from tests.web.support import FOUR, TEAMS, report


def test_totals_turn_and_tokens_are_the_games(board):
    refereed = report(TEAMS)
    data = DropItView(board, refereed.state, "g1").to_json()
    assert data["game"]["over"] is True
    assert data["game"]["turn"] is None
    assert data["game"]["winners"] == list(refereed.state.winners())
    expected = refereed.to_json()["standings"]
    for shown, score in zip(data["competitors"], expected, strict=True):
        assert shown["name"] == score["name"]
        assert shown["total"] == score["total"]
        assert shown["track"] == score["track"]
        assert shown["jokers_left"] == score["jokers_left"]
        assert shown["unused_joker_points"] == score["unused_joker_points"]
    json.dumps(data)


def test_a_game_in_progress_names_the_current_player_and_supply(board):
    refereed = report(FOUR)
    state = refereed.state
    data = DropItView(board, state, "g1").to_json()
    assert data["game"]["turn"] == {"number": 17, "player": "Ann", "for": "Ann"}
    ann = data["competitors"][0]
    assert ann["current"] is True
    assert [c["current"] for c in data["competitors"]] == [True, False, False, False]
    assert sum(item["count"] for item in ann["supply"]) == ann["shapes_left"] == 5
    assert {(i["color"], i["shape"]) for i in ann["supply"]} == {
        (str(c), str(s)) for c, s, _ in state.standing("Ann").supply
    }
    assert data["game"]["shapes_left"] == state.shapes_left == 20


def test_pieces_rest_where_the_game_says_and_believed_poses_override(board):
    refereed = report(FOUR)
    view = DropItView(board, refereed.state, "g1")
    pieces = {p["id"]: p for p in view.to_json()["pieces"]}
    assert len(pieces) == 16
    # turn 15 nudged the green square of turn 12 half a millimetre to the right
    moved = next(p for p in refereed.state.board if p.id == "t12")
    assert (pieces["t12"]["x"], pieces["t12"]["y"]) == (moved.pose.x, moved.pose.y)
    assert pieces["t12"]["x"] != refereed.turns[11].drop.piece.pose.x
    believed = replace(view, poses={"t3": Pose(190.0, 18.5, 7.0)}).to_json()
    t3 = next(p for p in believed["pieces"] if p["id"] == "t3")
    assert (t3["x"], t3["y"], t3["angle"]) == (190.0, 18.5, 7.0)


def test_the_last_verdict_names_its_offenders_and_explains_itself(board):
    refereed = report(FOUR)
    # turn 13: Ann's red circle touches the red circle of turn 9 (same shape and colour)
    upto = refereed.turns[12]
    state = replay(refereed.events[: _events_through(refereed, 13)])
    data = DropItView(board, state, "g1", verdict=upto.verdict).to_json()
    last = data["last_drop"]
    assert last["turn"] == 13 and last["by"] == "Ann" and last["points"] == 0
    assert last["verdict"]["broken"] == ["shape", "color"]
    assert last["verdict"]["offenders"] == {"shape": [{"piece": "t9"}], "color": [{"piece": "t9"}]}
    assert "red circle" in last["explanation"] and "same shape and colour" in last["explanation"]
    flags = {p["id"]: (p["dropped"], p["offender"]) for p in data["pieces"]}
    assert flags["t13"] == (True, False)
    assert flags["t9"] == (False, True)
    assert sum(offender for _, offender in flags.values()) == 1


def test_edge_offenders_are_named_by_side_and_symbol(board):
    refereed = report(FOUR)
    state = replay(refereed.events[: _events_through(refereed, 1)])
    verdict = refereed.turns[0].verdict
    assert verdict.broken == (Rule.EDGE,)
    data = DropItView(board, state, "g1", verdict=verdict).to_json()
    assert data["last_drop"]["verdict"]["offenders"] == {
        "edge": [{"edge": {"side": "bottom", "symbol": "red"}}]
    }


def test_question_selection_and_joker_offer(board):
    refereed = report(TEAMS)
    # turn 14 broke a rule and the Foxes spent a joker on it: offer it just before that
    events = refereed.events[: _events_through(refereed, 14)]
    assert type(events[-1]).__name__ == "JokerSpent"
    state = replay(events[:-1])
    view = DropItView(
        board,
        state,
        "g1",
        question=Question("q1", "Has it come to rest?", "Ben"),
        selection=Selection("Ben", Color.BLUE, Shape.DIAMOND),
        joker_offer=True,
    )
    data = view.to_json()
    assert data["question"] == {
        "id": "q1",
        "text": "Has it come to rest?",
        "player": "Ben",
        "ghost": None,
        "mark": None,
        "choices": [],
    }
    assert data["selection"] == {"player": "Ben", "color": "blue", "shape": "diamond"}
    assert data["joker_offer"] == {"turn": 14, "for": "Foxes", "players": ["Cleo", "Dev", "Eli"]}
    assert view.players == ("Ann", "Ben", "Cleo", "Dev", "Eli")
    assert DropItView(board, state, "g1").to_json()["joker_offer"] is None


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 36))
def test_random_games_give_consistent_json(board, seed, turns):
    state = replay(random_game(seed, turns))
    data = json.loads(json.dumps(DropItView(board, state, "g").to_json()))
    assert len(data["pieces"]) == len(state.drops)
    assert data["game"]["shapes_left"] == sum(c["shapes_left"] for c in data["competitors"])
    for shown, score in zip(data["competitors"], state.scores(), strict=True):
        assert shown["total"] == score.total
        assert shown["scored"] == sum(d.points for d in state.drops if d.competitor == score.name)
    current = [c["name"] for c in data["competitors"] if c["current"]]
    assert current == ([] if state.over else [state.current.competitor.name])


def _events_through(refereed, turn: int) -> int:
    """How many of the report's events make up the set-up and turns 1..``turn``."""
    state = replay(refereed.events[:1])
    for count, event in enumerate(refereed.events[1:], start=2):
        state = state.apply(event)
        following = refereed.events[count] if count < len(refereed.events) else None
        if len(state.drops) == turn and type(following).__name__ != "JokerSpent":
            return count
    raise AssertionError(f"no turn {turn}")


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_results_rank_every_competitor_and_say_how_each_total_was_made(board, seed):
    state = replay(random_game(seed, 36))
    data = DropItView(board, state, "g").to_json()
    assert state.over
    results = data["results"]
    assert sorted(r["name"] for r in results) == sorted(s.name for s in state.scores())
    totals = {s.name: s.total for s in state.scores()}
    assert [r["total"] for r in results] == sorted(totals.values(), reverse=True)
    for place, (before, after) in enumerate(itertools.pairwise(results), start=2):
        tie = after["total"] == before["total"]
        assert after["rank"] == (before["rank"] if tie else place)
    for r in results:
        assert r["total"] == totals[r["name"]]
        assert r["levels"] + r["bonus"] + r["unused_joker_points"] == r["total"]
        assert r["scoring_drops"] <= r["drops"]
    winners = {r["name"] for r in results if r["rank"] == 1}
    assert winners == set(state.winners())


def test_no_results_before_the_game_is_over(board):
    assert DropItView(board, report(FOUR).state, "g").to_json()["results"] is None


def test_the_staff_part_says_the_turn_and_offers_this_games_set_up(board):
    state = report(FOUR).state
    view = DropItView(board, state, "g1", status="Ann selects a shape")
    staff = view.staff_json()
    assert staff["game"] == "g1" and staff["status"] == "Game g1, turn 17: Ann selects a shape"
    assert staff["ops"] == ["abort", "resync", "new"]
    assert staff["fields"] == ["players", "colours", "teams", "edges", "jokers"]
    setup = staff["setup"]
    assert setup["teams"] is None
    assert setup["players"] == [
        {"name": c.name, "colors": [str(color) for color in c.colors]}
        for c in state.started.competitors
    ]
    edges = str(state.started.variants.edges)
    assert setup["settings"] == {"edges": edges, "jokers": state.started.variants.jokers}


def test_the_staff_part_of_a_team_game_lists_its_teams_and_of_a_game_over_says_so(board):
    refereed = report(TEAMS)
    staff = DropItView(board, refereed.state, "g2").staff_json()
    assert staff["status"] == "Game g2 is over."
    assert staff["setup"]["players"] == []
    assert [(t["name"], t["members"]) for t in staff["setup"]["teams"]] == [
        (c.name, list(c.members)) for c in refereed.state.started.competitors
    ]
