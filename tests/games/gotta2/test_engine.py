"""The rules of the GOTTA2 puzzle sheet game, one test per rule, and whole seeded games.

``PiecePlaced`` without a ``PieceChosen`` before it is steps 1 and 2 at once (the compact
form); the tests of choosing, the end and the final round play the steps one by one."""

import random

import pytest
import yaml

from firmware_host.errors import IllegalMove
from firmware_host.games.clack.events import DiscClaimed
from firmware_host.games.gotta2.engine import Gotta2Game, replay
from firmware_host.games.gotta2.events import (
    BonusPiecePlaced,
    BonusPieceSkipped,
    GameStarted,
    PieceChosen,
    PiecePlaced,
    read_event,
)
from firmware_host.games.gotta2.sheet import Sheet, load_sheet

SHEET = load_sheet()


def start(*players, sheet=SHEET):
    return Gotta2Game.start(sheet, GameStarted(players=players or ("ana", "ben")))


def small_sheet(rows, columns, frames, bonus_pieces=(), track=10):
    """A sheet for one scenario: (bonus, pieces) per frame; a one-row piece is a string."""
    data = {
        "version": 1,
        "board": {"rows": rows, "columns": columns},
        "bonus_track": track,
        "double_selection": {"players": 4, "frames": []},
        "frames": [
            {
                "frame": i + 1,
                "bonus": bonus,
                "pieces": [
                    {"id": f"{i + 1}-{j + 1}", "cells": [p] if isinstance(p, str) else p}
                    for j, p in enumerate(pics)
                ],
            }
            for i, (bonus, pics) in enumerate(frames)
        ],
        "bonus_pieces": [{"id": f"B{at}", "at": at, "cells": p} for at, p in bonus_pieces],
    }
    return Sheet.model_validate(yaml.safe_load(yaml.safe_dump(data)))


def play(game, *moves):
    for move in moves:
        game = game.apply(move)
    return game


def test_a_piece_is_shaded_as_printed_never_rotated_or_flipped():
    game = start().apply(PiecePlaced("ana", "3-3", 2, 3))  # "#." over "##"
    assert game.board("ana").shaded == {(2, 3), (3, 3), (3, 4)}
    game = start().apply(PiecePlaced("ana", "1-1", 5, 3))  # "#####" lies across
    assert game.board("ana").shaded == {(5, c) for c in range(3, 8)}
    with pytest.raises(IllegalMove, match=r"never rotated or flipped.*leave the 8 x 8 board"):
        start().apply(PiecePlaced("ana", "1-1", 0, 4))
    assert set(start().placements("ana", "1-1")) == {(r, c) for r in range(8) for c in range(4)}
    assert set(start().placements("ana", "1-2")) == {(r, c) for r in range(4) for c in range(8)}


def test_a_piece_cannot_overlap_shaded_cells():
    game = play(start(), PiecePlaced("ana", "2-1", 0, 0), PiecePlaced("ben", "2-2", 0, 0))
    with pytest.raises(
        IllegalMove, match=r"ana placing piece 3-1 .* cells \[\(1, 1\)\] are already"
    ):
        game.apply(PiecePlaced("ana", "3-1", 1, 1))
    assert game.board("ana").shaded == {(0, 0), (0, 1), (1, 0), (1, 1)}
    assert (1, 1) not in game.placements("ana", "3-1")
    assert (1, 2) in game.placements("ana", "3-1")
    assert (1, 1) in game.placements("ben", "3-1")  # each player shades their own board


def test_a_piece_is_chosen_first_then_placed():
    # "1. Choose a Piece ... 2. Place the Selected Piece"
    game = start()
    assert {m.piece for m in game.legal_moves()} == set(game.selectable())
    assert all(isinstance(m, PieceChosen) for m in game.legal_moves())
    game = game.apply(PieceChosen("ana", "2-1"))
    assert game.held == "2-1" and game.current == "ana"
    assert game.legal_moves() == tuple(
        PiecePlaced("ana", "2-1", r, c) for r, c in game.placements("ana", "2-1")
    )
    with pytest.raises(IllegalMove, match="the piece ana chose is 2-1"):
        game.apply(PiecePlaced("ana", "3-1", 0, 0))
    with pytest.raises(IllegalMove, match="first place piece 2-1, chosen already"):
        game.apply(PieceChosen("ana", "3-1"))
    game = game.apply(PiecePlaced("ana", "2-1", 0, 0))
    assert game.held is None and game.current == "ben"


def test_a_chosen_piece_is_marked_used_for_every_player():
    game = start().apply(PieceChosen("ana", "2-1"))  # marked as soon as it is chosen
    assert game.marks("2-1") == 1 and "2-1" not in game.selectable()
    game = game.apply(PiecePlaced("ana", "2-1", 0, 0))
    with pytest.raises(IllegalMove, match=r"ben choosing piece 2-1 .* already marked used"):
        game.apply(PieceChosen("ben", "2-1"))
    with pytest.raises(IllegalMove, match=r"ben placing piece 2-1 .* already marked used"):
        game.apply(PiecePlaced("ben", "2-1", 4, 4))


def test_with_four_players_pieces_of_frames_3_and_4_may_be_chosen_twice():
    four = start("ana", "ben", "cleo", "dan")
    game = play(four, PiecePlaced("ana", "3-1", 0, 0), PiecePlaced("ben", "3-1", 0, 0))
    assert game.marks("3-1") == 2  # the diagonal line crossed into an X
    with pytest.raises(IllegalMove, match="already marked used \\(2 times\\)"):
        game.apply(PiecePlaced("cleo", "3-1", 0, 0))
    game = play(four, PiecePlaced("ana", "4-1", 0, 0), PiecePlaced("ben", "4-1", 0, 0))
    assert "4-1" not in game.selectable()
    game = four.apply(PiecePlaced("ana", "2-1", 0, 0))
    with pytest.raises(IllegalMove, match="already marked used"):
        game.apply(PiecePlaced("ben", "2-1", 0, 0))  # frames 1 and 2: once only
    game = start("ana", "ben", "cleo").apply(PiecePlaced("ana", "3-1", 0, 0))
    with pytest.raises(IllegalMove, match="already marked used"):
        game.apply(PiecePlaced("ben", "3-1", 0, 0))  # three players: once only


def test_bonus_points_of_the_frame_are_marked_in_order():
    game = start().apply(PiecePlaced("ana", "1-1", 0, 0))
    assert game.board("ana").bonus == 1
    game = play(game, PiecePlaced("ben", "3-1", 0, 0), PiecePlaced("ana", "2-2", 1, 0))
    assert (game.board("ana").bonus, game.board("ben").bonus) == (3, 3)


def reached_b5():
    game = play(start(), PiecePlaced("ana", "4-1", 0, 0), PiecePlaced("ben", "4-2", 0, 0))
    return game.apply(PiecePlaced("ana", "1-1", 1, 0))


def test_reaching_5_points_unlocks_a_bonus_piece_to_place_before_the_turn_ends():
    game = reached_b5()
    assert game.board("ana").bonus == 5 and game.pending_bonus == ("B5",)
    assert game.current == "ana"
    assert {m.piece for m in game.legal_moves()} == {"B5"}
    with pytest.raises(IllegalMove, match="first place or skip bonus piece B5"):
        game.apply(PiecePlaced("ana", "3-1", 4, 0))
    with pytest.raises(IllegalMove, match="it is ana's turn"):
        game.apply(PiecePlaced("ben", "3-1", 4, 0))
    with pytest.raises(IllegalMove, match="the bonus piece reached is B5"):
        game.apply(BonusPiecePlaced("ana", "B10", 4, 0))
    game = game.apply(BonusPiecePlaced("ana", "B5", 2, 0))
    assert {(2, 0), (2, 1), (3, 0), (3, 1)} <= game.board("ana").shaded
    assert game.pending_bonus == () and game.current == "ben"
    with pytest.raises(IllegalMove, match="ben has no bonus piece to place now"):
        game.apply(BonusPiecePlaced("ben", "B5", 4, 4))
    with pytest.raises(IllegalMove, match="B5 is a bonus piece, not in the piece area"):
        game.apply(PiecePlaced("ben", "B5", 4, 4))


def test_a_bonus_piece_may_be_left_unplaced():
    # "they can place the bonus piece": placing it is the player's choice
    game = reached_b5()
    assert BonusPieceSkipped("ana", "B5") in game.legal_moves()
    with pytest.raises(IllegalMove, match="the bonus piece reached is B5"):
        game.apply(BonusPieceSkipped("ana", "B10"))
    shaded = game.board("ana").shaded
    game = game.apply(BonusPieceSkipped("ana", "B5"))
    assert game.board("ana").shaded == shaded and game.board("ana").bonus == 5
    assert game.pending_bonus == () and game.current == "ben" and not game.final_round


def test_bonus_pieces_come_in_order_and_the_track_has_an_end():
    sheet = small_sheet(4, 4, [(7, ["#", "##"])], bonus_pieces=[(3, ["#"]), (6, ["##"])], track=10)
    game = start(sheet=sheet).apply(PiecePlaced("ana", "1-1", 0, 0))
    assert game.board("ana").bonus == 7 and game.pending_bonus == ("B3", "B6")
    with pytest.raises(IllegalMove, match="the bonus piece reached is B3"):
        game.apply(BonusPiecePlaced("ana", "B6", 3, 0))
    game = play(game, BonusPiecePlaced("ana", "B3", 3, 3), BonusPiecePlaced("ana", "B6", 3, 0))
    assert game.board("ana").shaded == {(0, 0), (3, 3), (3, 0), (3, 1)}
    assert game.current == "ben" and game.pending_bonus == ()
    sheet = small_sheet(4, 4, [(7, ["#", "##", "###"])], track=10)
    game = play(
        start("ana", sheet=sheet), PiecePlaced("ana", "1-1", 0, 0), PiecePlaced("ana", "1-2", 1, 0)
    )
    assert game.board("ana").bonus == 10  # 7 + 7, but the track has 10 boxes


def test_the_end_comes_when_the_chosen_piece_cannot_be_placed():
    # "If steps 2 or 4 cannot be completed, proceed to the Game end": a piece that fits
    # nowhere can be chosen (step 1), and then step 2 cannot be done
    sheet = small_sheet(1, 3, [(1, ["##", "##", "#"])])
    game = play(
        start(sheet=sheet), PiecePlaced("ana", "1-1", 0, 1), PiecePlaced("ben", "1-3", 0, 0)
    )
    assert game.selectable() == ("1-2",)  # one piece is left, but not room for it on ana's board
    assert game.placements("ana", "1-2") == ()
    assert game.legal_moves() == (PieceChosen("ana", "1-2"),)
    with pytest.raises(IllegalMove, match=r"cells \[\(0, 1\)\] are already shaded"):
        game.apply(PiecePlaced("ana", "1-2", 0, 0))  # choosing and placing at once: no spot
    game = game.apply(PieceChosen("ana", "1-2"))
    assert game.ended_by == "ana" and game.end_piece == "1-2" and game.marks("1-2") == 1
    assert game.over  # ben's final turn: no piece is left for him to choose
    assert game.legal_moves() == ()
    assert game.scoring_order() == ("ana", "ben")
    assert [game.board(p).turns for p in ("ana", "ben")] == [2, 2]
    with pytest.raises(IllegalMove, match="the game is over"):
        game.apply(PieceChosen("ana", "1-2"))


def test_a_piece_that_fits_nowhere_may_be_chosen_while_others_fit():
    sheet = small_sheet(1, 3, [(1, ["###", "#"])])
    game = start(sheet=sheet).apply(PiecePlaced("ana", "1-2", 0, 1))
    game = game.apply(PieceChosen("ben", "1-1"))  # fits on ben's empty board
    assert game.held == "1-1" and not game.final_round
    game = start("ana", "ben", "cleo", sheet=sheet).apply(PiecePlaced("ana", "1-2", 0, 1))
    assert PieceChosen("ben", "1-1") in game.legal_moves()


def test_the_final_round_gives_every_player_as_many_turns():
    # "one final round, starting with the current player": the end came in ben's turn; the
    # round is played out (cleo), and nobody has more turns than another
    sheet = small_sheet(1, 3, [(1, ["###", "#", "#", "#", "#", "#"])])
    game = play(
        start("ana", "ben", "cleo", sheet=sheet),
        PiecePlaced("ana", "1-2", 0, 0),
        PiecePlaced("ben", "1-3", 0, 1),
        PiecePlaced("cleo", "1-4", 0, 2),
        PiecePlaced("ana", "1-5", 0, 1),
        PieceChosen("ben", "1-1"),  # three cells: not on ben's board any more
    )
    assert game.ended_by == "ben" and game.final_round and not game.over
    assert game.current == "cleo" and game.winners() == ()
    game = game.apply(PieceChosen("cleo", "1-6"))
    with pytest.raises(IllegalMove, match=r"1-6 at row 0, column 2 is refused: cells \[\(0, 2\)\]"):
        game.apply(PiecePlaced("cleo", "1-6", 0, 2))
    game = game.apply(PiecePlaced("cleo", "1-6", 0, 0))
    assert game.over and not game.final_round  # ana does not play a third turn
    assert [game.board(p).turns for p in game.players] == [2, 2, 2]
    assert game.scoring_order() == ("ben", "cleo", "ana")


def test_in_the_final_round_a_piece_that_fits_nowhere_only_ends_that_turn():
    sheet = small_sheet(1, 2, [(1, ["##", "#", "#", "#", "##", "#"])])
    game = play(
        start("ana", "ben", "cleo", sheet=sheet),
        PiecePlaced("ana", "1-2", 0, 0),
        PieceChosen("ben", "1-1"),  # fits: ben's board is empty
    )
    game = play(game, PiecePlaced("ben", "1-1", 0, 0), PiecePlaced("cleo", "1-3", 0, 0))
    game = game.apply(PieceChosen("ana", "1-5"))  # the end comes in ana's turn
    assert game.ended_by == "ana" and game.current == "ben"
    game = game.apply(PieceChosen("ben", "1-4"))  # fits nowhere either: his turn ends
    assert game.ended_by == "ana" and game.current == "cleo" and game.final_round
    game = game.apply(PiecePlaced("cleo", "1-6", 0, 1))
    assert game.over and game.ended_by == "ana" and game.end_piece == "1-5"
    assert [game.board(p).turns for p in game.players] == [2, 2, 2]


def test_the_game_ends_when_no_piece_is_left_to_choose():
    game = start("ana", "ben", "cleo", sheet=small_sheet(2, 2, [(1, ["#"])]))
    game = game.apply(PiecePlaced("ana", "1-1", 0, 0))
    assert game.over and game.ended_by == "ben" and game.end_piece is None
    assert game.scoring_order() == ("ben", "cleo", "ana")
    assert [game.board(p).turns for p in game.players] == [1, 1, 1]


def test_the_end_comes_when_a_reached_bonus_piece_does_not_fit():
    # step 4 cannot be completed; ben still has his turn of the final round
    sheet = small_sheet(1, 3, [(3, ["###"]), (1, ["#"])], bonus_pieces=[(3, ["#"])])
    game = start(sheet=sheet).apply(PiecePlaced("ana", "1-1", 0, 0))
    assert game.ended_by == "ana" and game.end_piece == "B3"
    assert game.final_round and game.current == "ben" and game.pending_bonus == ()
    game = play(game, PieceChosen("ben", "2-1"), PiecePlaced("ben", "2-1", 0, 0))
    assert game.over and game.scoring_order() == ("ana", "ben")
    assert game.board("ben").bonus == 1


def test_the_score_is_the_largest_complete_rectangle_times_the_bonus_points():
    game = play(
        start(),
        PiecePlaced("ana", "2-1", 0, 0),  # 2 x 2 at the top-left, +2
        PiecePlaced("ben", "2-2", 0, 0),
        PiecePlaced("ana", "3-1", 2, 0),  # a row of 3 below it, +3 = 5: B5
        BonusPiecePlaced("ana", "B5", 0, 2),  # 2 x 2 beside: rows 0-2 x columns 0-2 are full
    )
    score = game.score("ana")
    assert (score.rectangle.rows, score.rectangle.columns, score.bonus) == (3, 3, 5)
    assert score.points == 45 and score.unshaded == 64 - 11
    assert game.score("ben").points == 1 * 4 * 2
    assert game.winners() == ()  # nobody wins before the end


def test_a_tied_score_goes_to_the_fewest_unshaded_cells():
    sheet = small_sheet(2, 2, [(1, ["##", "##"]), (0, ["#"])])
    game = play(
        start(sheet=sheet),
        PiecePlaced("ana", "1-1", 0, 0),
        PiecePlaced("ben", "1-2", 0, 0),
        PiecePlaced("ana", "2-1", 1, 1),
    )
    assert game.over and game.ended_by == "ben"
    ana, ben = game.score("ana"), game.score("ben")
    assert ana.points == ben.points == 2
    assert (ana.unshaded, ben.unshaded) == (1, 2)
    assert game.winners() == ("ana",)


def test_a_complete_tie_is_shared():
    sheet = small_sheet(2, 2, [(1, ["##", "##"])])
    game = play(
        start(sheet=sheet), PiecePlaced("ana", "1-1", 0, 0), PiecePlaced("ben", "1-2", 1, 0)
    )
    assert game.over and game.winners() == ("ana", "ben")


def test_moves_out_of_turn_or_of_unknown_things_are_refused():
    game = start()
    with pytest.raises(
        IllegalMove, match=r"ben placing piece 3-1 at row 0, column 0 .* ana's turn"
    ):
        game.apply(PiecePlaced("ben", "3-1", 0, 0))
    with pytest.raises(IllegalMove, match="'cleo' cannot place a piece: not a player"):
        game.apply(PiecePlaced("cleo", "3-1", 0, 0))
    with pytest.raises(IllegalMove, match="no such piece on the sheet"):
        game.apply(PiecePlaced("ana", "9-9", 0, 0))
    with pytest.raises(IllegalMove, match="already started"):
        game.apply(GameStarted(players=("x",)))
    with pytest.raises(IllegalMove, match="distinct"):
        start("ana", "ana")


def random_game(players, seed):
    choose = random.Random(seed)
    game = start(*players)
    events = [GameStarted(players=players)]
    while not game.over:
        move = choose.choice(game.legal_moves())
        game = game.apply(move)
        events.append(move)
    return game, events


@pytest.mark.parametrize(
    ("players", "seed"),
    [
        (("solo",), 1),
        (("ana", "ben"), 2),
        (("ana", "ben", "cleo"), 3),
        (("ana", "ben", "cleo", "dan"), 5),
        (tuple("abcde"), 4),
    ],
)
def test_a_whole_seeded_game_plays_to_the_end_and_replays_from_its_json(players, seed):
    game, events = random_game(players, seed)
    assert game.over and game.winners()
    assert len({game.board(p).turns for p in players}) == 1  # the final round: equal turns
    for player in players:
        board = game.board(player)
        assert len(board.shaded) == sum(SHEET.piece(m.piece).size for m in board.placed)
    chosen = [e.piece for e in events if isinstance(e, PieceChosen)]
    assert all(chosen.count(p) <= SHEET.capacity(p, len(players)) for p in chosen)
    journal = [e.to_json() for e in events]
    assert replay(SHEET, [read_event(e) for e in journal]) == game
    assert random_game(players, seed) == (game, events)


def test_an_event_of_another_game_is_refused():
    with pytest.raises(IllegalMove, match="is not an event of a puzzle sheet game"):
        start().apply(DiscClaimed(1, "ana", 3))
