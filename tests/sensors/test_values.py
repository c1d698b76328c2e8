"""Bit sequences and piece tags."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.config.table import load_table
from firmware_host.errors import InputError
from firmware_host.games.dropit.rules.pieces import Color, Shape
from firmware_host.sensors import (
    Bits,
    PieceReader,
    piece_of_tag,
    tag_of,
)


@given(st.integers(1, 90).flatmap(lambda n: st.tuples(st.just(n), st.sets(st.integers(0, n - 1)))))
def test_bits_hold_exactly_the_indices_set(case):
    length, indices = case
    b = Bits.of(length, indices)
    assert b.indices() == tuple(sorted(indices))
    assert [i for i, bit in enumerate(b) if bit] == sorted(indices)
    assert len(b) == length and b.count() == len(indices)
    assert str(b) == "".join("1" if i in indices else "0" for i in range(length))


@given(st.integers(1, 64).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n - 1))))
def test_with_bit_sets_or_clears_one_bit(case):
    length, i = case
    full = Bits(length, (1 << length) - 1)
    assert full.with_bit(i, False).indices() == tuple(j for j in range(length) if j != i)
    assert Bits(length).with_bit(i, True).indices() == (i,)
    assert full.with_bit(i, True) == full


def test_bits_refuse_what_does_not_fit():
    with pytest.raises(ValueError):
        Bits(3, 8)
    with pytest.raises(ValueError):
        Bits.of(3, [3])
    with pytest.raises(IndexError):
        Bits(3)[3]
    with pytest.raises(IndexError):
        Bits(3).with_bit(-1, True)


@pytest.mark.parametrize("color", list(Color))
@pytest.mark.parametrize("shape", list(Shape))
def test_tags_name_the_piece_both_ways(color, shape):
    assert piece_of_tag(tag_of(color, shape)) == (color, shape)


def test_a_bad_tag_is_one_clear_error():
    with pytest.raises(InputError, match="'purple-square': not a piece tag"):
        piece_of_tag("purple-square")


def test_no_reader_or_an_empty_slot_reads_nothing():
    reader = PieceReader(load_table())
    assert reader.read(None) is None
    reader.present = False
    assert reader.read((Color.RED, Shape.CIRCLE)) is None
