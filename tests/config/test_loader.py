"""Every YAML file the product reads: numbers in every notation people write, a key given
twice refused with its line, coordinates beyond any table refused (one line, exit 2)."""

import math
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.config.loader import MAX_COORDINATE, load_yaml, parse_yaml
from firmware_host.errors import InputError

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "positions" / "worked_example.yaml"
GAME = ROOT / "examples" / "games" / "four_players_base.yaml"

finite = st.floats(allow_nan=False, allow_infinity=False)
notations = st.sampled_from(["{!r}", "{:e}", "{:E}", "{:.3e}", "{:.17g}", "{:.6f}", "{:+e}"])


@given(finite, notations)
def test_a_float_in_any_notation_reads_as_that_number(value, notation):
    text = notation.format(value)
    read = parse_yaml(f"x: {text}")["x"]
    assert isinstance(read, float if any(c in text for c in ".eE") else int), text
    assert read == float(text)


@given(st.integers(min_value=-(10**6), max_value=10**6), st.integers(0, 20))
def test_an_exponent_without_a_dot_is_a_number(mantissa, exponent):
    for text in (f"{mantissa}e{exponent}", f"{mantissa}E+{exponent}", f"{mantissa}e-{exponent}"):
        read = parse_yaml(f"x: {text}")["x"]
        assert isinstance(read, float) and math.isclose(read, float(text)), text


@given(st.integers(min_value=-(10**12), max_value=10**12))
def test_integers_stay_integers(value):
    assert parse_yaml(f"n: {value}") == {"n": value}


@pytest.mark.parametrize("text", ["'1e2'", '"1e2"', "e2", "1e", "1.2.3", "1e2x", "v1e2"])
def test_what_is_not_a_number_stays_text(text):
    assert isinstance(parse_yaml(f"x: {text}")["x"], str)


@given(
    st.lists(st.from_regex(r"[a-z]{1,6}", fullmatch=True), min_size=1, max_size=8, unique=True),
    st.data(),
)
def test_a_key_given_twice_is_refused_with_both_lines(keys, data):
    again = data.draw(st.sampled_from(keys))
    lines = [f"{key}: {n}" for n, key in enumerate(keys)]
    at = data.draw(st.integers(keys.index(again) + 1, len(lines)))
    lines.insert(at, f"{again}: 99")
    with pytest.raises(Exception, match=r"duplicate key") as caught:
        parse_yaml("\n".join(lines))
    assert f"first given on line {keys.index(again) + 1}" in str(caught.value)
    assert f"line {at + 1}, column 1" in str(caught.value)


def test_a_duplicate_key_in_a_file_names_the_file_and_line(tmp_path):
    path = tmp_path / "position.yaml"
    path.write_text("edges: color\npieces: []\nedges: shape\n")
    with pytest.raises(InputError) as caught:
        load_yaml(path)
    assert str(caught.value) == (
        f"{path}: line 3, column 1: duplicate key 'edges' (first given on line 1)"
    )


def tabletop(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "firmware_host", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def one_line_exit_2(done: subprocess.CompletedProcess[str], *expected: str) -> None:
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    for part in expected:
        assert part in done.stderr


@pytest.mark.parametrize("value", ["1.0e+308", "1e20", "-1.0e+20", "100001"])
def test_a_coordinate_beyond_any_table_is_one_line(tmp_path, value):
    text = EXAMPLE.read_text().replace("x: 22.0", f"x: {value}")
    position = tmp_path / "far.yaml"
    position.write_text(text)
    one_line_exit_2(
        tabletop("judge", str(position)),
        "tabletop judge: ",
        "pieces[0] (id p1).x: expected a coordinate in mm between",
        f"{MAX_COORDINATE:g}",
    )


def test_a_far_pose_in_a_game_file_is_one_line_for_referee_and_page(tmp_path):
    lines = GAME.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if "x:" in line)
    head, _, tail = lines[at].partition("x:")
    number = tail.strip().split(",")[0].split("}")[0].split()[0]
    lines[at] = head + "x:" + tail.replace(number, "1.0e+308", 1)
    game = tmp_path / "far.yaml"
    game.write_text("\n".join(lines) + "\n")
    one_line_exit_2(tabletop("referee", str(game)), "tabletop referee: ", "expected a coordinate")
    one_line_exit_2(
        tabletop("page", "--demo", str(game), "--port", "0"),
        "tabletop page: ",
        "expected a coordinate",
    )


def test_numbers_written_with_an_exponent_are_read(tmp_path):
    text = EXAMPLE.read_text().replace("x: 22.0", "x: 2.2e1").replace("y: 163.0", "y: 1630E-1")
    position = tmp_path / "exp.yaml"
    position.write_text(text)
    done = tabletop("judge", str(position), "--json")
    assert done.returncode == 0, done.stderr
    assert '"points": 7' in done.stdout
