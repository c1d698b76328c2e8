"""The locator's choices between fits: which fits show a piece, and which place it takes."""

import numpy as np

from firmware_host.camera import locate
from firmware_host.camera.locate import (
    MIN_FOUND,
    PARTIAL_FOUND,
    PARTIAL_RMS_MM,
    Known,
    Locator,
)
from firmware_host.camera.outline import OutlineFit
from firmware_host.camera.search import Candidate
from firmware_host.config.table import load_table
from firmware_host.games.dropit.rules.pieces import Color, Pose, Shape

TABLE = load_table()
assert TABLE.camera is not None
LOCATOR = Locator(TABLE.board, TABLE.camera)


def fit(color: Color, at: Pose, found: float = 1.0, rms: float = 0.1) -> OutlineFit:
    """A fit at ``at`` with a face of ``color``."""
    return OutlineFit(at, np.eye(3) * 0.01, found, rms, LOCATOR.colours.of(color))


def test_a_partial_fit_counts_only_with_tight_residuals():
    blue = Known("p6", Color.BLUE, Shape.SQUARE)
    at = Pose(132.0, 18.0, 0.0)
    part = (MIN_FOUND + PARTIAL_FOUND) / 2
    # a square fitted on a circle of its colour: half the outline, loose residuals
    assert not LOCATOR._shows(blue, fit(Color.BLUE, at, part, PARTIAL_RMS_MM + 0.15), None)
    assert LOCATOR._shows(blue, fit(Color.BLUE, at, part, PARTIAL_RMS_MM - 0.1), None)
    assert LOCATOR._shows(blue, fit(Color.BLUE, at, PARTIAL_FOUND + 0.1, 0.4), None)


def test_a_piece_waits_for_what_holds_it_before_taking_a_lesser_place():
    circle = Known("p1", Color.RED, Shape.CIRCLE)
    square = Known("p2", Color.BLUE, Shape.SQUARE)
    on_circle = Pose(100.0, 18.0 + 18.0 + 17.0 + 0.5, 0.0)  # held up by the circle only
    on_floor = Pose(200.0, 17.0, 0.0)
    options = [
        (2.0, square, fit(Color.BLUE, on_circle)),
        (1.9, circle, fit(Color.RED, Pose(100.0, 18.0, 0.0))),
        (1.5, square, fit(Color.BLUE, on_floor)),
    ]
    placed = {p.known.id: p.pose for p in LOCATOR._place(options, [])[0]}
    assert placed["p2"] == on_circle
    assert placed["p1"] == Pose(100.0, 18.0, 0.0)


def test_a_piece_nothing_holds_at_its_best_place_takes_the_next():
    square = Known("p2", Color.BLUE, Shape.SQUARE)
    floating = Pose(100.0, 150.0, 0.0)
    on_floor = Pose(200.0, 17.0, 0.0)
    options = [(2.0, square, fit(Color.BLUE, floating)), (1.5, square, fit(Color.BLUE, on_floor))]
    placed, _ = LOCATOR._place(options, [])
    assert [p.pose for p in placed] == [on_floor]


def test_a_fuller_fit_displaces_a_piece_held_on_part_of_its_outline():
    """A prior's fit on half a square's outline, 4 mm off where the square lies, sits on
    the place where a triangle is found whole: the triangle takes it, and the square is
    looked for again; a square found whole keeps its place."""
    square = Known("p80", Color.GREEN, Shape.SQUARE, Pose(211.0, 38.0, 120.0))
    triangle = Known("p85", Color.RED, Shape.TRIANGLE, Pose(242.0, 57.0, 49.0))
    whole = fit(Color.RED, Pose(231.2, 52.4, 59.8), found=0.97, rms=0.06)
    for found, displaced in ((0.5, True), (0.9, False)):
        held = LOCATOR._located(square, fit(Color.GREEN, Pose(225.0, 45.0, 120.0), found, 0.06))
        taken = [held]
        placed, evicted = LOCATOR._place([(1.9, triangle, whole)], taken)
        assert ([p.known.id for p in placed] == ["p85"]) is displaced
        assert (evicted == [held]) is displaced
        assert (held in taken) is not displaced


def fitted_with(monkeypatch, first: OutlineFit, nudged: OutlineFit) -> list[OutlineFit]:
    """The locator's fits of one search candidate of a new blue square at (220, 52), the
    fit from the candidate being ``first`` and every nudged one ``nudged``."""
    calls: list[int] = []

    def fake(look, board, starts, artwork=None, wide=False):
        calls.append(len(starts))
        return [first] * len(starts) if len(calls) == 1 else [nudged] * len(starts)

    monkeypatch.setattr(locate, "fit_outlines", fake)
    piece = Known("p6", Color.BLUE, Shape.SQUARE, Pose(215.7, 50.8, 0.0), guessed=True)
    candidate = Candidate(Pose(220.0, 52.0, 0.0), 0.8)
    fits = LOCATOR._fitted(None, [(piece, candidate)], [])  # type: ignore[arg-type]
    assert len(calls) == 2  # the candidate's fit, then the four nudged ones
    return fits


def test_a_nudged_fit_replaces_a_failed_one(monkeypatch):
    failed = fit(Color.BLUE, Pose(221.0, 51.0, 3.0), found=0.3, rms=0.4)
    whole = fit(Color.BLUE, Pose(221.5, 51.5, 2.0), found=0.95, rms=0.08)
    assert fitted_with(monkeypatch, failed, whole) == [whole]


def test_a_nudged_fit_does_not_replace_a_better_one_that_moved_too_far(monkeypatch):
    whole_far = fit(Color.BLUE, Pose(225.5, 47.3, 37.8), found=0.96, rms=0.1)  # 7.2 mm off
    half_near = fit(Color.BLUE, Pose(224.5, 48.7, 37.9), found=0.73, rms=0.154)
    assert not LOCATOR._shows(
        Known("p6", Color.BLUE, Shape.SQUARE), whole_far, Pose(220.0, 52.0, 0.0)
    )
    assert fitted_with(monkeypatch, whole_far, half_near) == [whole_far]


def test_a_start_on_a_place_already_taken_is_not_taken(monkeypatch):
    """A new blue square's start (a landing of its release) lies where a blue square was
    located already: its fit there is not taken (the search looks for it); on a free
    place it is, and the starts are fitted once each, the prior's duplicate left out."""
    here = Pose(220.0, 17.0, 0.0)
    new = Known("p9", Color.BLUE, Shape.SQUARE, Pose(120.0, 17.0, 0.0), guessed=True,
                starts=(here, Pose(120.4, 17.0, 2.0)))
    fitted: list[list[Pose]] = []

    def fits(look, board, starts, artwork):
        fitted.append([pose for _, pose in starts])
        return [fit(Color.BLUE, here, 0.95, 0.05) for _ in starts]

    monkeypatch.setattr(locate, "fit_outlines", fits)
    old = LOCATOR._located(Known("p2", Color.BLUE, Shape.SQUARE, here), fit(Color.BLUE, here))
    assert LOCATOR._from_starts(None, [new], [old]) == ([], [])
    assert fitted == [[here]]  # (120.4, 17, 2) lies within 1 mm of the prior
    taken: list = []
    placed, held = LOCATOR._from_starts(None, [new], taken)
    assert held == []
    assert [p.known.id for p, _ in placed] == ["p9"] and taken == [placed[0][0]]


def test_a_partial_tight_fit_that_stays_at_a_start_is_a_new_pieces_tentative_place(monkeypatch):
    """A new piece pressed against its own colour shows part of its outline: a fit from a
    start (a landing of its release) that found 55 % of it, tightly, and stayed within
    1 mm of the start is its tentative place (the searches look for a fuller fit, which
    would replace it); the same fit moved 2 mm from the start, or loose, or on less than
    45 % of the outline, is not (a guessed piece needs most of its outline found
    elsewhere)."""
    start = Pose(150.0, 17.0, 2.0)
    new = Known("p16", Color.GREEN, Shape.SQUARE, Pose(140.0, 17.0, 0.0), guessed=True,
                starts=(start,))

    def held_with(result: OutlineFit) -> list[str]:
        monkeypatch.setattr(locate, "fit_outlines", lambda *_args: [result])
        taken: list = []
        placed, held = LOCATOR._from_starts(None, [new], taken)
        assert placed == [] and taken == []
        return [p.known.id for p in held]

    stayed = Pose(start.x - 0.07, start.y + 0.08, start.angle - 0.4)
    assert held_with(fit(Color.GREEN, stayed, found=0.55, rms=0.1)) == ["p16"]
    moved = Pose(start.x + 2.0, start.y, start.angle)
    assert held_with(fit(Color.GREEN, moved, found=0.55, rms=0.1)) == []
    assert held_with(fit(Color.GREEN, stayed, found=0.55, rms=0.25)) == []
    assert held_with(fit(Color.GREEN, stayed, found=0.4, rms=0.1)) == []
    # the guess itself is one of the landings, but a fit from the guess is no start's:
    # there the guessed piece still needs most of its outline
    at_guess = Known("p16", Color.GREEN, Shape.SQUARE, start, guessed=True, starts=(start,))
    assert not LOCATOR._shows(at_guess, fit(Color.GREEN, stayed, found=0.55, rms=0.1), start)


def test_a_piece_resting_on_one_placed_from_its_start_is_placed_too(monkeypatch):
    """A knocked red square lies at one of its starts, 60 mm from its prior, and the new
    blue square rests on it there: both are placed from their starts, the new one once
    the square that holds it is (its prior's place holds nothing up there)."""
    below, above = Pose(200.0, 17.0, 0.0), Pose(200.0, 51.2, 0.0)
    knocked = Known("p2", Color.RED, Shape.SQUARE, Pose(140.0, 17.0, 0.0), starts=(below,))
    new = Known("p9", Color.BLUE, Shape.SQUARE, Pose(60.0, 17.0, 0.0), guessed=True,
                starts=(above,))
    colour = {"p2": Color.RED, "p9": Color.BLUE}

    def fits(look, board, starts, artwork):
        return [fit(Color.BLUE if pose == above else Color.RED, pose, 0.95, 0.05)
                for _, pose in starts]

    monkeypatch.setattr(locate, "fit_outlines", fits)
    taken: list = []
    placed, held = LOCATOR._from_starts(None, [knocked, new], taken)
    assert held == []
    assert {p.known.id: p.pose for p, _ in placed} == {"p2": below, "p9": above}
    assert all(p.known.color is colour[p.known.id] for p in taken)


def test_a_new_piece_on_one_of_its_colour_counts_the_outline_that_runs_into_it():
    """A new blue square resting on a blue square shows no edge along the side it rests
    on: a tight fit that found 60 % of its outline shows it there, where the side runs
    into the located square's face; not on a red square (the side should show), not with
    loose residuals, and not with less than 45 % found."""
    below, above = Pose(200.0, 17.0, 0.0), Pose(200.0, 51.2, 0.0)
    new = Known("p9", Color.BLUE, Shape.SQUARE, above, guessed=True)

    def under(color: Color) -> list:
        return [LOCATOR._located(Known("p2", color, Shape.SQUARE, below), fit(color, below))]

    part = fit(Color.BLUE, above, found=0.6, rms=0.06)
    assert LOCATOR._shown(new, part, under(Color.BLUE)) > 0.8
    assert LOCATOR._shows(new, part, None, under(Color.BLUE))
    assert not LOCATOR._shows(new, part, None, under(Color.RED))
    assert not LOCATOR._shows(new, part, None, [])
    assert not LOCATOR._shows(new, fit(Color.BLUE, above, 0.6, 0.25), None, under(Color.BLUE))
    assert not LOCATOR._shows(new, fit(Color.BLUE, above, 0.4, 0.06), None, under(Color.BLUE))


def test_a_colour_is_learnt_only_from_faces_that_show_it_at_full_strength():
    """A pale face (a fit on a café's pale blue blob, or a face under a glare) does not
    narrow what the search takes for the colour; full faces do."""
    pale, full = np.array([192.5, 153.9, 113.6]), np.array([190.0, 84.0, 32.0])
    assert LOCATOR._as_seen({Color.BLUE: [pale]}) == {}
    seen = LOCATOR._as_seen({Color.BLUE: [pale, full, full + 4.0]})
    assert np.allclose(seen[Color.BLUE], full + 2.0)


def test_a_search_candidate_a_diamond_length_off_still_gives_its_fit(monkeypatch):
    """The coarse map's best match for a new yellow diamond lies 10 mm along its long axis
    from where it lies: the fit from there, whole and tight, places it; a fit from a
    prior that wandered as far does not show its piece."""
    lies = Pose(284.2, 59.5, 171.4)
    candidate = Candidate(Pose(279.0, 51.0, 165.0), 0.6)
    new = Known("p803", Color.YELLOW, Shape.DIAMOND)

    class Map:
        def search(self, *_args):
            return [candidate]

        def share_of(self, *_args):
            return 0.9

    whole = fit(Color.YELLOW, lies, 1.0, 0.07)
    monkeypatch.setattr(locate, "fit_outlines", lambda _l, _b, starts, *_a: [whole] * len(starts))
    below = Pose(284.0, 17.0, 0.0)  # what it rests on
    holder = [LOCATOR._located(Known("p2", Color.RED, Shape.SQUARE, below), fit(Color.RED, below))]
    options = LOCATOR._options(None, Map(), [new], holder, holder, float("inf"))
    assert [(piece.id, f.pose) for _, piece, f in options] == [("p803", lies)]
    assert not LOCATOR._shows(new, whole, candidate.pose)


def test_a_tight_half_fit_stays_only_where_it_runs_into_its_own_colour():
    """A yellow square fitted from its prior on half its outline, tightly, is kept only if
    the searches find no fuller fit, unless the half it did not find runs into a located
    yellow face (a piece pressed against its own colour): a square's fit slid along one
    pair of its sides finds half its outline as tightly."""
    at, beside = Pose(150.0, 17.0, 0.0), Pose(184.2, 17.0, 0.0)
    square = Known("p7", Color.YELLOW, Shape.SQUARE, at)
    half = LOCATOR._located(square, fit(Color.YELLOW, at, found=0.5, rms=0.08))

    def neighbour(color: Color) -> list:
        return [LOCATOR._located(Known("p2", color, Shape.SQUARE, beside), fit(color, beside))]

    assert LOCATOR._tentative(half, [half])
    assert LOCATOR._tentative(half, [half, *neighbour(Color.RED)])
    assert not LOCATOR._tentative(half, [half, *neighbour(Color.YELLOW)])
    assert LOCATOR._tentative(
        LOCATOR._located(square, fit(Color.YELLOW, at, found=0.5, rms=0.25)),
        [*neighbour(Color.YELLOW)],
    )
    assert not LOCATOR._tentative(LOCATOR._located(square, fit(Color.YELLOW, at)), [])
