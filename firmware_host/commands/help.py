"""The ``--help`` of ``tabletop`` and of every sub-command: what it does, its options with
their defaults and choices, and an example or two.

The sub-command modules give each option's help; here every parser gets a description (its
one-line help when it has none), its examples as the epilog, and a formatter that adds each
option's default where the option's help does not already say it.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator

from firmware_host import __version__

OVERVIEW = f"""\
tabletop {__version__}: the software of an electronic café table for Drop It and dice games.

It referees each drop from the table's sensors and camera, keeps the score, lights the LED
tracks and serves the scoreboard page; a simulator plays the whole table on a laptop.
Every command prints one clear line and exits with status 2 on bad input."""

DESCRIPTIONS = {
    "tabletop run": (
        "The service the table runs all day: the hub's readings are refereed, the game is "
        "journaled, the LED tracks and the scoreboard page show it. With --port or a hub "
        "plugged in it uses the hub; with none it waits for one (the page says so). --sim "
        "runs the simulator instead (the page shows 'Simulated table')."
    ),
    "tabletop judge": (
        "Referees one landing from the pieces' final poses, without simulating: valid or "
        "which rules broke, the level, the bonus, the points, what the shape touches."
    ),
    "tabletop referee": (
        "Referees a whole recorded game of Drop It from final poses (a game file, "
        "docs/game-file.md): each turn's verdict, the jokers, the totals and the winners."
    ),
}

EXAMPLES: dict[str, tuple[str, ...]] = {
    "tabletop": (
        "tabletop run --sim --autoplay        # watch a simulated game on the page",
        "tabletop judge examples/positions/worked_example.yaml",
        "tabletop doctor                      # check a table before opening",
    ),
    "tabletop board": ("tabletop board --json",),
    "tabletop table": ("tabletop table", "tabletop table --json --table my-table.yaml"),
    "tabletop judge": (
        "tabletop judge examples/positions/worked_example.yaml",
        "tabletop judge examples/positions/blocked.yaml --json",
    ),
    "tabletop referee": ("tabletop referee examples/games/four_players_base.yaml --json",),
    "tabletop simulate": ("tabletop simulate --drops 10 --seed 3 --positions out/",),
    "tabletop hub": ("tabletop hub monitor --seconds 10",),
    "tabletop hub monitor": (
        "tabletop hub monitor --count 20",
        "tabletop hub monitor --port /dev/ttyACM0 --heartbeat",
    ),
    "tabletop games": ("tabletop games", "tabletop games --game clack --json"),
    "tabletop replay": ("tabletop replay 3", "tabletop replay 3 --yaml > game.yaml"),
    "tabletop page": ("tabletop page --demo examples/games/four_players_base.yaml --interval 2",),
    "tabletop sim": ("tabletop sim eval --drops 36 --seed 1 --json",),
    "tabletop sim hub": (
        "tabletop sim hub --autoplay --speed 5",
        "tabletop sim hub --socket 7000 --seconds 60",
    ),
    "tabletop sim eval": ("tabletop sim eval --drops 36 --seed 1 --noise harsh --json",),
    "tabletop sim frames": ("tabletop sim frames --scenes 5 --out frames/",),
    "tabletop camera": ("tabletop camera check",),
    "tabletop camera look": (
        "tabletop camera look frame1.png frame2.png --pieces pieces.yaml --dropped p9 --json",
    ),
    "tabletop camera check": ("tabletop camera check --snapshot check.png",),
    "tabletop camera calibrate": (
        "tabletop camera calibrate f1.png f2.png --pieces known.yaml --out colours.yaml",
    ),
    "tabletop doctor": ("tabletop doctor", "tabletop doctor --no-hub   # the files only"),
    "tabletop clever": ("tabletop clever --autoplay 7",),
    "tabletop run": (
        "tabletop run                                # a table: its hub, the page",
        "tabletop run --sim --autoplay --speed 2     # a simulated game plays itself",
        "tabletop run --game clack --sim --players Ann Ben",
    ),
}
"""Examples per command (``prog``); every command has at least one (a test checks)."""


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Keeps the description's and the examples' lines as written, and adds
    ``(default: X)`` to an option's help that does not already give its default."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if (
            default in (None, False, argparse.SUPPRESS)
            or not action.option_strings
            or "default" in text
            or f"({default})" in text
        ):
            return text
        shown = " ".join(map(str, default)) if isinstance(default, list | tuple) else default
        return f"{text} (default: {shown})"


def parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    """``parser`` and every sub-command's parser below it."""
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from parsers(sub)


def _one_line_helps(parser: argparse.ArgumentParser) -> dict[str, str]:
    helps = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                helps[f"{parser.prog} {choice.dest}"] = choice.help or ""
    return helps


def polish(top: argparse.ArgumentParser) -> None:
    """Give every parser from ``top`` down its description, examples and formatter."""
    helps: dict[str, str] = {}
    for parser in parsers(top):
        helps.update(_one_line_helps(parser))
    top.description = OVERVIEW
    for parser in parsers(top):
        parser.formatter_class = HelpFormatter
        if parser is not top:
            described = DESCRIPTIONS.get(parser.prog, parser.description)
            if not described:
                one_line = helps.get(parser.prog, "")
                described = one_line[:1].upper() + one_line[1:] + "." if one_line else None
            parser.description = described
        examples = EXAMPLES.get(parser.prog, ())
        if examples:
            lines = "\n".join(f"  {example}" for example in examples)
            parser.epilog = f"example{'s' if len(examples) > 1 else ''}:\n{lines}"
