"""The position-file writer: what it writes is what the judge's parser reads back, exactly."""

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.config.board import EdgeFace
from firmware_host.games.dropit.rules.pieces import Color, Piece, Pose, Shape
from firmware_host.games.dropit.rules.position import parse_position
from firmware_host.model.position_file import position_data, position_yaml

coordinates = st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False)
pieces = st.lists(
    st.builds(
        Piece,
        id=st.just(""),
        color=st.sampled_from(list(Color)),
        shape=st.sampled_from(list(Shape)),
        pose=st.builds(Pose, coordinates, coordinates, st.floats(0, 360, exclude_max=True)),
    ),
    min_size=1,
    max_size=8,
)


@settings(max_examples=60, deadline=None)
@given(pieces=pieces, face=st.sampled_from(list(EdgeFace)), pick=st.integers(0, 7))
def test_the_judge_reads_back_exactly_what_was_written(pieces, face, pick):
    named = [Piece(f"p{i}", p.color, p.shape, p.pose) for i, p in enumerate(pieces, start=1)]
    dropped = named[pick % len(named)]
    position = parse_position(yaml.safe_load(position_yaml(named, dropped.id, face)), "x")
    assert position.edges is face
    assert position.dropped == dropped
    assert position.pieces == tuple(p for p in named if p is not dropped)


def test_a_missing_dropped_piece_is_refused():
    piece = Piece("p1", Color.RED, Shape.SQUARE, Pose(100.0, 17.0, 0.0))
    with pytest.raises(ValueError, match="exactly one piece with id 'p2'"):
        position_data([piece], "p2", EdgeFace.NONE)
