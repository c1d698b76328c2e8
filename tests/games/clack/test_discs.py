"""The Clack! disc set as data: the shipped set's properties, matching with wild faces, loading."""

from collections import Counter
from itertools import product

import pytest

from firmware_host.errors import InputError
from firmware_host.games.clack.discs import Color, Shape, load_disc_set, symbol

DISCS = load_disc_set()


def test_the_set_has_36_discs_of_three_symbols_with_distinct_shapes_and_colours():
    assert len(DISCS.discs) == 36
    assert sorted(d.id for d in DISCS.discs) == list(range(1, 37))
    for disc in DISCS.discs:
        pairs = disc.pairs
        assert len(pairs) == 3
        assert len({shape for _, shape in pairs}) == 3
        assert len({color for color, _ in pairs}) == 3
    assert len({frozenset(d.pairs) for d in DISCS.discs}) == 36


def test_every_colour_shape_pair_is_on_four_or_five_discs():
    counts = Counter(pair for d in DISCS.discs for pair in d.pairs)
    assert set(counts) == set(product(Color, Shape))
    assert set(counts.values()) == {4, 5}
    assert sum(counts.values()) == 108


def test_every_die_outcome_has_matches():
    for shape_face, color_face in product(DISCS.shape_die, DISCS.color_die):
        found = len(DISCS.matching(shape_face, color_face))
        if shape_face == "white" and color_face == "white":
            assert found == 36
        elif "white" in (shape_face, color_face):
            assert found in (21, 22)
        else:
            assert found in (4, 5)


def test_matching_with_wild_faces():
    disc = DISCS.disc(1)
    assert disc is not None
    assert disc.symbols == ["red arrow", "green star", "yellow foot"]
    assert disc.matches("arrow", "red")
    assert disc.matches("star", "green")
    assert not disc.matches("arrow", "green")  # shape and colour must be on the same symbol
    assert not disc.matches("flower", "red")
    assert disc.matches("arrow", "white")  # white colour: the shape in any colour
    assert not disc.matches("puzzle", "white")
    assert disc.matches("white", "green")  # white shape: the colour in any shape
    assert not disc.matches("white", "purple")
    assert disc.matches("white", "white")  # both white: every disc


def test_symbol_parsing():
    assert symbol("purple foot") == (Color.PURPLE, Shape.FOOT)
    for bad in ["purple", "pink foot", "purple hand", "a b c"]:
        with pytest.raises(ValueError):
            symbol(bad)


GOOD_HEAD = """version: 1
shape_die: [arrow, star, puzzle, flower, foot, white]
color_die: [red, green, yellow, blue, purple, white]
"""


def _all_pairs_discs() -> str:
    lines = ["discs:"]
    for i, (color, shape) in enumerate(product(Color, Shape), start=1):
        lines.append(f"  - {{id: {i}, symbols: [{color} {shape}]}}")
    return "\n".join(lines) + "\n"


def _load(tmp_path, text):
    path = tmp_path / "clack.yaml"
    path.write_text(text)
    return load_disc_set(path), str(path)


def test_a_minimal_valid_set_loads(tmp_path):
    discs, _ = _load(tmp_path, GOOD_HEAD + _all_pairs_discs())
    assert len(discs.discs) == 25


@pytest.mark.parametrize(
    ("change", "where", "problem"),
    [
        (("[red arrow]", "[pink arrow]"), "discs[0].symbols", "unknown colour 'pink'"),
        (("[red arrow]", "[red arrow, red arrow]"), "discs[0].symbols", "appears twice"),
        (("{id: 2,", "{id: 1,"), "discs[1].id", "also used by discs[0]"),
        (("foot, white]", "foot, foot]"), "shape_die", "missing white"),
        (("  - {id: 25, symbols: [purple foot]}", ""), "discs", "no disc shows a purple foot"),
        (("version: 1", "version: 1\ncolour: red"), "colour", "unknown key"),
    ],
)
def test_bad_sets_name_the_file_and_key(tmp_path, change, where, problem):
    text = (GOOD_HEAD + _all_pairs_discs()).replace(*change)
    path = tmp_path / "clack.yaml"
    path.write_text(text)
    with pytest.raises(InputError) as caught:
        load_disc_set(path)
    assert caught.value.source == str(path)
    assert caught.value.where == where
    assert problem in caught.value.problem
