"""The camera's verdict: sure only when no decision changes within the poses' uncertainty."""

import math
from dataclasses import replace

from firmware_host.camera.locate import Known, Located
from firmware_host.camera.reconcile import DISAGREE_MM, NUDGE_MM_S, SETTLE_S, disagreements
from firmware_host.camera.verdict import (
    FLOOR_SINK_MM,
    SURE_RMS_MM,
    UNCLEAR_MM,
    referee_located,
)
from firmware_host.config.board import EdgeFace, load_board
from firmware_host.games.dropit.rules.pieces import Color, Pose, Shape
from firmware_host.model import load_params
from firmware_host.model.space import BodyState, space_of

BOARD = load_board()
DROPPED = Known("d", Color.RED, Shape.SQUARE)
NEIGHBOUR = Known("n", Color.BLUE, Shape.SQUARE)


def scene(gap: float, sigma: float, seen: bool = True) -> list[Located]:
    """A blue square on the floor and the dropped red square beside it, ``gap`` mm apart."""
    blue = Located(NEIGHBOUR, Pose(100.0, 17.0, 0.0), seen, (sigma, sigma, 0.1), 0.9, 0.05)
    red = Located(DROPPED, Pose(134.0 + gap, 17.0, 0.0), True, (sigma, sigma, 0.1), 0.9, 0.05)
    return [blue, red]


def test_a_gap_clear_of_the_tolerance_is_sure():
    verdict = referee_located(BOARD, EdgeFace.NONE, scene(0.0, 0.05), "d")
    assert verdict is not None and verdict.sure
    assert [p.id for p in verdict.verdict.touching] == ["n"]
    verdict = referee_located(BOARD, EdgeFace.NONE, scene(2.0, 0.05), "d")
    assert verdict is not None and verdict.sure and verdict.verdict.touching == ()


def test_a_gap_at_the_tolerance_is_unsure_within_the_uncertainty():
    tolerance = BOARD.touch_tolerance
    certain = referee_located(BOARD, EdgeFace.NONE, scene(tolerance + 0.1, 0.01), "d")
    assert certain is not None and certain.sure
    doubtful = referee_located(BOARD, EdgeFace.NONE, scene(tolerance + 0.1, 0.1), "d")
    assert doubtful is not None and not doubtful.sure
    assert "touching" in doubtful.doubts[0]
    # the neighbour's own uncertainty counts as much as the dropped piece's
    uncertain_neighbour = scene(tolerance + 0.1, 0.01)
    uncertain_neighbour[0] = Located(NEIGHBOUR, Pose(100.0, 17.0, 0.0), True, (0.1, 0.1, 0.1))
    verdict = referee_located(BOARD, EdgeFace.NONE, uncertain_neighbour, "d")
    assert verdict is not None and not verdict.sure


def test_a_dropped_piece_seen_only_in_part_is_held_to_a_wider_uncertainty():
    def partial(gap: float) -> list[Located]:
        pieces = scene(gap, 0.05)
        pieces[1] = Located(DROPPED, pieces[1].pose, True, (0.05, 0.05, 0.1), 0.5, 0.05)
        return pieces

    gap = BOARD.touch_tolerance + 1.0
    whole = referee_located(BOARD, EdgeFace.NONE, scene(gap, 0.05), "d")
    assert whole is not None and whole.sure
    part = referee_located(BOARD, EdgeFace.NONE, partial(gap), "d")
    assert part is not None and not part.sure and part.alternatives
    assert "touching" in part.doubts[0]
    clear = referee_located(BOARD, EdgeFace.NONE, partial(gap + 3 * UNCLEAR_MM), "d")
    assert clear is not None and clear.sure


def test_a_piece_seen_in_part_against_a_face_of_its_own_colour_touches_it():
    """Where the dropped face runs into a neighbour of its colour no outline shows: the
    fit finds only part of it, yet that the two touch is what the camera saw."""

    def partial(neighbour: Known, rms: float = 0.05) -> list[Located]:
        blue, red = scene(0.1, 0.05)
        return [
            replace(blue, known=neighbour),
            Located(DROPPED, red.pose, True, (0.05, 0.05, 0.1), 0.55, rms),
        ]

    own_colour = Known("n", Color.RED, Shape.SQUARE)
    verdict = referee_located(BOARD, EdgeFace.NONE, partial(own_colour), "d")
    assert verdict is not None and verdict.sure
    assert [p.id for p in verdict.verdict.touching] == ["n"]
    assert sorted(str(r) for r in verdict.verdict.broken) == ["color", "shape"]
    # another colour's edge shows between them: the part found may be off, as before
    other = referee_located(BOARD, EdgeFace.NONE, partial(NEIGHBOUR), "d")
    assert other is not None and not other.sure and other.alternatives
    # so may a loose fit, against its own colour too
    loose = referee_located(BOARD, EdgeFace.NONE, partial(own_colour, rms=SURE_RMS_MM + 0.05), "d")
    assert loose is not None and not loose.sure


def test_an_unseen_neighbour_of_the_same_shape_makes_it_unsure_and_is_asked_about():
    verdict = referee_located(BOARD, EdgeFace.NONE, scene(0.0, 0.05, seen=False), "d")
    assert verdict is not None and not verdict.sure
    assert "did not see n" in verdict.doubts[0]
    assert [p.id for p in verdict.verdict.touching] == ["n"] and not verdict.verdict.valid
    (other, _), = verdict.alternatives
    assert other.touching == () and other.valid


def test_an_unseen_neighbour_that_breaks_no_rule_leaves_the_score_sure_not_the_touches():
    circle = Located(Known("c", Color.BLUE, Shape.CIRCLE), Pose(100.0, 17.0, 0.0), False)
    red = Located(DROPPED, Pose(134.0, 17.0, 0.0), True, (0.05, 0.05, 0.1), 0.9, 0.05)
    verdict = referee_located(BOARD, EdgeFace.NONE, [circle, red], "d")
    assert verdict is not None and not verdict.sure and verdict.scores_sure
    assert "did not see c" in verdict.doubts[0] and verdict.alternatives == ()
    seen = Located(Known("c", Color.BLUE, Shape.CIRCLE), Pose(100.0, 17.0, 0.0), True,
                   (0.05, 0.05, 0.1), 0.9, 0.05)
    verdict = referee_located(BOARD, EdgeFace.NONE, [seen, red], "d")
    assert verdict is not None and verdict.sure and verdict.scores_sure


def test_no_verdict_without_the_dropped_piece():
    pieces = scene(0.0, 0.05)
    pieces[1] = Located(DROPPED, None, False)
    assert referee_located(BOARD, EdgeFace.NONE, pieces, "d") is None


def test_the_physics_hears_of_floating_pieces():
    blue = Located(NEIGHBOUR, Pose(100.0, 17.0, 0.0), True, (0.05, 0.05, 0.1))
    on_top = Located(DROPPED, Pose(100.0, 17.0 + 34.0 + 0.1, 0.0), True, (0.05, 0.05, 0.1))
    assert disagreements(BOARD, load_params(), [blue, on_top]) == ()
    floating = Located(DROPPED, Pose(200.0, 120.0, 0.0), True, (0.05, 0.05, 0.1))
    held_wrong = disagreements(BOARD, load_params(), [blue, floating])
    assert held_wrong == ("d",)
    verdict = referee_located(BOARD, EdgeFace.NONE, [blue, floating], "d", held_wrong)
    assert verdict is not None and not verdict.sure


def test_a_newly_dropped_piece_must_rest_on_what_holds_it():
    """A new piece located 2 mm above its support (a fit on a rim's far edge) is held
    wrong; an old piece so placed may be the model's friction, not the camera."""
    blue = Located(NEIGHBOUR, Pose(100.0, 17.0, 0.0), True, (0.05, 0.05, 0.1))
    above = Pose(100.0, 17.0 + 34.0 + 2.0, 0.0)
    new = Located(DROPPED, above, True, (0.05, 0.05, 0.1))
    assert disagreements(BOARD, load_params(), [blue, new]) == ("d",)
    guessed = Located(replace(DROPPED, prior=above, guessed=True), above, True, (0.05, 0.05, 0.1))
    assert disagreements(BOARD, load_params(), [blue, guessed]) == ("d",)
    old = Located(replace(DROPPED, prior=above), above, True, (0.05, 0.05, 0.1))
    assert disagreements(BOARD, load_params(), [blue, old]) == ()
    resting = Located(DROPPED, Pose(100.0, 17.0 + 34.0 + 0.3, 0.0), True, (0.05, 0.05, 0.1))
    assert disagreements(BOARD, load_params(), [blue, resting]) == ()


PILE = [  # located by the camera on a realistic scene (seed 1), each within 0.1 mm
    ("p253", Color.RED, Shape.CIRCLE, 18.000, 18.000, 28.38),
    ("p255", Color.YELLOW, Shape.CIRCLE, 55.876, 18.000, 152.42),
    ("p256", Color.GREEN, Shape.CIRCLE, 91.809, 18.000, 98.06),
    ("p259", Color.YELLOW, Shape.SQUARE, 34.479, 48.794, 146.52),
    ("p262", Color.BLUE, Shape.DIAMOND, 130.283, 13.335, 303.55),
    ("p264", Color.GREEN, Shape.DIAMOND, 138.764, 41.521, 129.52),
    ("p265", Color.RED, Shape.TRIANGLE, 112.150, 39.286, 73.34),
    ("p269", Color.RED, Shape.CIRCLE, 75.634, 56.647, 198.58),
    ("p270", Color.BLUE, Shape.CIRCLE, 133.870, 72.392, 219.99),
    ("p271", Color.YELLOW, Shape.CIRCLE, 49.161, 80.924, 155.76),
]


def test_a_pile_the_model_lets_give_way_is_not_the_cameras_disagreement():
    """The model's pile, free, gives way under the red circle p269 (what holds it slides
    apart by a few hundredths of a millimetre), the board's does not: with everything
    else fixed where the camera saw it, the model holds p269 too."""
    params = load_params()
    located = [
        Located(Known(i, color, shape, Pose(x, y, a)), Pose(x, y, a), True, (0.05, 0.05, 0.1))
        for i, color, shape, x, y, a in PILE
    ]
    states = [
        BodyState(i, c, s, x, y, math.radians(a), vy=-NUDGE_MM_S) for i, c, s, x, y, a in PILE
    ]
    space, bodies = space_of(BOARD, params, states)
    for _ in range(round(SETTLE_S / params.time_step)):
        space.step(params.time_step)
    assert 56.647 - bodies[7].position.y > DISAGREE_MM
    assert disagreements(BOARD, params, located) == ()


def test_an_unseen_piece_still_holds_up_what_rests_on_it():
    hidden = Located(NEIGHBOUR, Pose(100.0, 17.0, 0.0), False)
    on_top = Located(DROPPED, Pose(100.0, 51.05, 0.0), True, (0.05, 0.05, 0.1))
    assert disagreements(BOARD, load_params(), [hidden, on_top]) == ()


def test_the_markers_share_of_the_uncertainty_does_not_part_two_pieces():
    """Where the board is (the markers' share) moves every piece of a look alike: it can
    change which level a piece lies in, never what it touches."""
    gap = BOARD.touch_tolerance + 0.15
    own_only = scene(gap, 0.1)
    assert not referee_located(BOARD, EdgeFace.NONE, own_only, "d").sure
    mostly_board = [replace(p, spread=0.09) for p in scene(gap, 0.1)]
    verdict = referee_located(BOARD, EdgeFace.NONE, mostly_board, "d")
    assert verdict is not None and verdict.sure, verdict.doubts


def square_at(x: float, y: float) -> list[Located]:
    """The dropped red square alone, at ``(x, y)``, flat, its height known to 0.15 mm."""
    return [Located(DROPPED, Pose(x, y, 0.0), True, (0.15, 0.15, 0.1), 0.95, 0.08)]


def test_a_piece_on_the_floor_has_the_floors_height_not_the_fits():
    """The first level line slants up across a square 34 mm tall: with its top 0.3-0.4 mm
    under the line, the fit's height alone (0.3 mm either way) could put it above."""
    verdict = referee_located(BOARD, EdgeFace.NONE, square_at(72.0, 17.0), "d")
    assert verdict is not None and verdict.sure, verdict.doubts
    assert verdict.verdict.level == 1
    # seated on the floor: its lowest point half the band deep
    assert verdict.pieces[-1].pose.y == 17.0 - FLOOR_SINK_MM / 2
    # where the line runs within the band itself, still a question
    at_the_line = referee_located(BOARD, EdgeFace.NONE, square_at(67.0, 17.0), "d")
    assert at_the_line is not None and not at_the_line.sure
    assert "level" in at_the_line.doubts[0]


def test_a_piece_clear_of_the_floor_keeps_the_fits_height():
    """A square 1 mm up (on something) is held to its fit's uncertainty, at its pose."""
    verdict = referee_located(BOARD, EdgeFace.NONE, square_at(96.0, 18.0), "d")
    assert verdict is not None and not verdict.sure
    assert "level" in verdict.doubts[0]
    assert verdict.pieces[-1].pose == Pose(96.0, 18.0, 0.0)


def test_a_piece_on_the_floor_is_tried_flat_and_deep_at_once():
    """A square lay flat, 0.1 mm into the floor, its top 0.005 mm under the first level
    line; the camera located it 0.04 degrees tilted and 0.16 mm high. Seated on its lowest
    corner it lies a little high at the far one: only a trial both flat and at the deep
    end of the band finds it under the line."""
    located = Located(
        DROPPED, Pose(64.6305, 17.0626, 269.9476), True, (0.119, 0.151, 0.223), 0.98, 0.16,
        spread=0.031,
    )
    verdict = referee_located(BOARD, EdgeFace.NONE, [located], "d")
    assert verdict is not None and not verdict.sure
    assert "level" in verdict.doubts[0]
    assert {v.level for v, _ in verdict.alternatives} == {1}


def test_a_piece_located_a_little_above_the_floor_rests_on_it_if_nothing_holds_it():
    """The camera put a square 0.4 mm above the floor, its height's deviation 0.09 mm: the
    model, nothing under it, brings it down to the floor, so it rests there; 0.7 mm up is
    more than the fit is allowed to be off by that rule."""
    def square(y: float) -> list[Located]:
        return [Located(DROPPED, Pose(72.0, y, 0.0), True, (0.09, 0.09, 0.1), 0.95, 0.08)]

    params = load_params()
    low = referee_located(BOARD, EdgeFace.NONE, square(17.4), "d", physics=params)
    assert low is not None and low.pieces[-1].pose.y == 17.0 - FLOOR_SINK_MM / 2
    alone = referee_located(BOARD, EdgeFace.NONE, square(17.4), "d")
    assert alone is not None and alone.pieces[-1].pose.y == 17.4
    high = referee_located(BOARD, EdgeFace.NONE, square(17.7), "d", physics=params)
    assert high is not None and high.pieces[-1].pose.y == 17.7
