"""The hub's ``hello`` inventory against the table and panel files: the hub must have every
beam, strip element, die, reader and LED pixel the files use.

>>> from firmware_host.config.table import load_table
>>> hello = {"entry_beams": 30, "top_beams": 30, "curtain": 120, "edge": 90, "dice": 6,
...          "piece_reader": True, "led_strips": [27, 27, 27]}
>>> for what, fix in inventory_problems(hello, load_table(), None):
...     print(what)
>>> hello["entry_beams"] = 24
>>> [str(what) for what, _ in inventory_problems(hello, load_table(), None)]
['the table file uses 30 entry-gate beams, the hub has 24']
"""

from __future__ import annotations

from typing import Any

from firmware_host.config.panel import HubTracksConfig
from firmware_host.config.table import Table
from firmware_host.i18n import Message, lazy, lazy_n

HUB_CONFIG = "hardware/hub/hub_config.json"
"""Where the hub's own inventory is set (copied to the hub with the firmware)."""


def inventory_problems(
    hello: dict[str, Any], table: Table | None, hub_tracks: HubTracksConfig | None
) -> list[tuple[Message, Message]]:
    """``(what is wrong, what to do)`` for each thing the files use that the hub lacks."""
    problems: list[tuple[Message, Message]] = []
    if table is not None:
        config = table.config
        counts = config.edge_strip.count
        edge = counts.left + counts.bottom + counts.right
        needs = [
            ("entry_beams", _entry_beams, config.entry_gate.count, "entry_gate.count"),
            ("top_beams", _top_beams, len(config.top_gate.heights), "top_gate.heights"),
            ("curtain", _curtain_beams, config.curtain.count, "curtain.count"),
            ("edge", _edge_elements, edge, "edge_strip.count"),
            ("dice", _dice, config.dice.count, "dice.count"),
        ]
        for key, uses, used, table_key in needs:
            if hello[key] < used:
                problems.append(
                    (
                        uses(used, hello[key]),
                        lazy(
                            "make {key} in the table file match the table as built, or the "
                            "hub's {file} (then copy it to the hub)",
                            key=table_key,
                            file=HUB_CONFIG,
                        ),
                    )
                )
        if config.piece_reader.present and not hello["piece_reader"]:
            problems.append(
                (
                    lazy("the table file has a piece reader, the hub reports none"),
                    lazy("check the tray cable to the hub, or set piece_reader.present: false"),
                )
            )
    if hub_tracks is not None:
        strips = hello["led_strips"]
        for seat, track in enumerate(hub_tracks.tracks):
            if track.strip >= len(strips):
                problems.append(
                    (
                        lazy_n(
                            "seat {seat}'s LED track is on strip {strip}, the hub has {count} "
                            "strip",
                            "seat {seat}'s LED track is on strip {strip}, the hub has {count} "
                            "strips",
                            len(strips),
                            seat=seat + 1,
                            strip=track.strip,
                        ),
                        lazy(
                            "fix {key} in the panel file, or add the strip to led_strips in {file}",
                            key=f"hub_tracks.tracks[{seat}].strip",
                            file=HUB_CONFIG,
                        ),
                    )
                )
            elif max(track.pixels()) >= strips[track.strip]:
                problems.append(
                    (
                        lazy_n(
                            "seat {seat}'s LED track reaches pixel {pixel}, strip {strip} has "
                            "{count} pixel",
                            "seat {seat}'s LED track reaches pixel {pixel}, strip {strip} has "
                            "{count} pixels",
                            strips[track.strip],
                            seat=seat + 1,
                            pixel=max(track.pixels()),
                            strip=track.strip,
                        ),
                        lazy(
                            "fix {key} in the panel file, or the strip's count in {file}",
                            key=f"hub_tracks.tracks[{seat}]",
                            file=HUB_CONFIG,
                        ),
                    )
                )
    return problems


def _entry_beams(used: int, has: int) -> Message:
    return lazy_n(
        "the table file uses {count} entry-gate beam, the hub has {has}",
        "the table file uses {count} entry-gate beams, the hub has {has}",
        used,
        has=has,
    )


def _top_beams(used: int, has: int) -> Message:
    return lazy_n(
        "the table file uses {count} top-gate beam, the hub has {has}",
        "the table file uses {count} top-gate beams, the hub has {has}",
        used,
        has=has,
    )


def _curtain_beams(used: int, has: int) -> Message:
    return lazy_n(
        "the table file uses {count} curtain beam, the hub has {has}",
        "the table file uses {count} curtain beams, the hub has {has}",
        used,
        has=has,
    )


def _edge_elements(used: int, has: int) -> Message:
    return lazy_n(
        "the table file uses {count} edge-strip element, the hub has {has}",
        "the table file uses {count} edge-strip elements, the hub has {has}",
        used,
        has=has,
    )


def _dice(used: int, has: int) -> Message:
    return lazy_n(
        "the table file uses {count} die, the hub has {has}",
        "the table file uses {count} dice, the hub has {has}",
        used,
        has=has,
    )
