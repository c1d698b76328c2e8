"""``tabletop --help`` and every sub-command's: what it does, its options with defaults and
choices, an example that parses, and no markup from docstrings."""

import contextlib
import io
import re
import shlex

import pytest

from firmware_host.cli import build_parser, main
from firmware_host.commands.help import EXAMPLES, parsers

PARSERS = {parser.prog: parser for parser in parsers(build_parser())}
MARKUP = re.compile(r"``|:(func|class|mod|data|meth|attr):`")


def test_every_command_has_examples_and_every_example_is_a_command():
    assert set(EXAMPLES) == set(PARSERS)


@pytest.mark.parametrize("prog", sorted(PARSERS))
def test_help_says_what_it_does_with_examples_and_no_markup(prog):
    text = PARSERS[prog].format_help()
    assert PARSERS[prog].description, prog
    assert "example" in text
    assert not MARKUP.search(text), text
    assert not re.search(r"  +\n", text)


@pytest.mark.parametrize(
    "example", sorted({(prog, line) for prog, lines in EXAMPLES.items() for line in lines})
)
def test_every_example_parses(example):
    _, line = example
    words = shlex.split(line.split("#")[0].split(">")[0])
    assert words[0] == "tabletop"
    args = build_parser().parse_args(words[1:])
    assert callable(args.run)


def test_defaults_and_choices_are_in_the_help():
    text = PARSERS["tabletop run"].format_help()
    assert "--noise PROFILE" in text and "(default: realistic)" in text
    assert "--game {dropit,clack,clever,gotta2}" in text
    assert "--speed X" in text and "(default: 1)" in text
    assert "waits for one" in text
    sim_hub = PARSERS["tabletop sim hub"].format_help()
    assert "(realistic)" in sim_hub or "(default: realistic)" in sim_hub


def test_help_is_printed_and_exits_0():
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as stop:
        main(["sim", "hub", "--help"])
    assert stop.value.code == 0
    assert out.getvalue().startswith("usage: tabletop sim hub")
