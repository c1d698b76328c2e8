"""The dice tray reader: a throw is read only once every die it names was thrown and has
come to rest after the game asked; a rolling die is never read."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.games.table_game import Roll
from firmware_host.sensors import DieReading
from firmware_host.service.dice_tray import DiceTray


def rolling(die):
    return DieReading(die, True, None)


def rest(die, face):
    return DieReading(die, False, face)


def test_a_throw_is_read_once_every_named_die_is_at_rest():
    tray = DiceTray(3)
    tray.want(Roll((0, 2), "Ann"))
    assert tray.see(rolling(0)) is None
    assert tray.see(rolling(2)) is None
    assert tray.rolling() == (0, 2)
    assert tray.see(rest(2, 5)) is None  # die 0 still rolls: not read
    assert tray.see(rest(0, 1)) == (1, 5)  # in the roll's order of dice
    assert tray.wanted is None
    assert tray.see(rest(0, 3)) is None  # nothing is waited for now


def test_dice_lying_still_when_the_game_asks_must_be_thrown_again():
    tray = DiceTray(2)
    tray.see(rolling(0))
    tray.see(rest(0, 4))  # thrown before the game asked
    tray.want(Roll((0,), "Ben"))
    assert tray.see(rest(1, 2)) is None
    tray.see(rolling(0))
    assert tray.see(rest(0, 3)) == (3,)


def test_a_die_rolling_when_the_game_asks_counts_when_it_lands():
    tray = DiceTray(1)
    tray.see(rolling(0))
    tray.want(Roll((0,), "Ann"))
    assert tray.see(rest(0, 0)) == (0,)


def test_a_die_thrown_again_before_it_is_read_gives_its_last_face():
    tray = DiceTray(2)
    tray.want(Roll((0, 1), "Ann"))
    tray.see(rolling(0))
    tray.see(rest(0, 1))
    tray.see(rolling(0))  # picked up and thrown again
    tray.see(rolling(1))
    assert tray.see(rest(1, 4)) is None  # die 0 rolls again
    assert tray.see(rest(0, 5)) == (5, 4)


def test_reports_of_dice_the_tray_lacks_and_rolls_of_them_are_refused():
    tray = DiceTray(2)
    with pytest.raises(ValueError, match="die 5"):
        tray.see(rest(5, 1))
    with pytest.raises(ValueError, match="die 2"):
        tray.want(Roll((0, 2), "Ann"))


@given(
    st.lists(
        st.tuples(st.integers(0, 2), st.booleans(), st.integers(0, 5)), min_size=0, max_size=40
    )
)
def test_only_faces_of_dice_at_rest_after_a_throw_are_ever_read(reports):
    tray = DiceTray(3)
    tray.want(Roll((0, 1, 2), "Ann"))
    thrown = set()
    faces = {}
    for die, is_rolling, face in reports:
        reading = rolling(die) if is_rolling else rest(die, face)
        if is_rolling:
            thrown.add(die)
            faces.pop(die, None)
        else:
            faces[die] = face
        read = tray.see(reading)
        if read is not None:
            assert thrown == {0, 1, 2} and set(faces) == {0, 1, 2}
            assert read == (faces[0], faces[1], faces[2])
            return
    assert not (thrown == {0, 1, 2} and set(faces) == {0, 1, 2})
