"""Any sequence of moves, legal or not, keeps both games consistent (hypothesis).

Most generated moves are picked among the legal ones (so games get far), the rest are
arbitrary (so refusals are exercised on the way).
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.errors import IllegalMove
from firmware_host.games.clack.discs import load_disc_set
from firmware_host.games.clack.engine import ClackGame
from firmware_host.games.clack.events import DiceRolled, DiscClaimed
from firmware_host.games.clack.events import GameStarted as ClackStarted
from firmware_host.games.gotta2.engine import Gotta2Game
from firmware_host.games.gotta2.events import BonusPiecePlaced, PiecePlaced
from firmware_host.games.gotta2.events import GameStarted as SheetStarted
from firmware_host.games.gotta2.sheet import load_sheet

DISCS = load_disc_set()
SHEET = load_sheet()
PLAYERS = ("ana", "ben", "cleo", "dan")
offsets = st.sampled_from([0, 0, 0, 0, -1, 1])
picks = st.integers(0, 10_000)

clack_moves = st.lists(
    st.one_of(
        st.tuples(st.just("legal"), st.integers(0, 3), picks, st.just(0)),
        st.tuples(st.just("legal"), st.integers(0, 3), picks, st.just(0)),
        st.tuples(st.just("roll"), st.integers(0, 5), st.integers(0, 5), offsets),
        st.tuples(st.just("claim"), st.integers(0, 3), st.integers(0, 37), offsets),
    ),
    min_size=60,
    max_size=150,
)


def clack_move(game, kind, a, b, offset):
    if kind == "roll" or (kind == "legal" and game.awaiting_roll):
        shape, color = DISCS.shape_die[a % 6], DISCS.color_die[b % 6]
        return DiceRolled(game.round + 1 + offset, shape, color)
    if kind == "legal" and game.matching():
        return DiscClaimed(game.round, PLAYERS[a], game.matching()[b % len(game.matching())])
    return DiscClaimed(game.round + offset, PLAYERS[a], b % 38)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["race", "turns"]), clack_moves)
def test_clack_never_loses_or_doubles_a_disc(variant, moves):
    game = ClackGame.start(DISCS, ClackStarted(players=PLAYERS, variant=variant))
    for move in moves:
        try:
            after = game.apply(clack_move(game, *move))
        except IllegalMove:
            continue
        held = [d for stack in after.stacks for d in stack]
        assert sorted([*after.table, *held]) == list(range(1, 37))
        assert after.round >= game.round
        assert after.over == (not after.table)
        assert after.round_open == bool(after.matching())
        game = after


pieces = [p.id for p in SHEET.pieces] + [b.id for b in SHEET.bonus_pieces]
sheet_moves = st.lists(
    st.one_of(
        st.tuples(st.just("legal"), picks),
        st.tuples(st.just("legal"), picks),
        st.tuples(
            st.sampled_from([PiecePlaced, BonusPiecePlaced]),
            st.integers(0, 3),
            st.sampled_from(pieces),
            st.integers(-1, 8),
            st.integers(-1, 8),
        ),
    ),
    min_size=30,
    max_size=60,
)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 4), sheet_moves)
def test_gotta2_games_stay_consistent(players, moves):
    names = PLAYERS[:players]
    game = Gotta2Game.start(SHEET, SheetStarted(players=names))
    for move in moves:
        if move[0] == "legal":
            legal = game.legal_moves()
            if not legal:
                continue
            event = legal[move[1] % len(legal)]
        else:
            kind, who, piece, row, column = move
            event = kind(names[who % players], piece, row, column)
        try:
            game = game.apply(event)
        except IllegalMove:
            continue
        for name in names:
            board = game.board(name)
            assert len(board.shaded) == sum(SHEET.piece(m.piece).size for m in board.placed)
            assert all(0 <= r < 8 and 0 <= c < 8 for r, c in board.shaded)
            assert board.bonus <= SHEET.bonus_track
        assert all(game.marks(p) <= SHEET.capacity(p, players) for p in game.chosen)
        assert game.over == (not game.legal_moves())
        if game.over:  # the final round: every player has had as many turns
            assert len({game.board(name).turns for name in names}) == 1
