"""The hub's ``hello`` inventory against the table and panel files: the hub must have every
beam, strip element, die, reader and LED pixel the files use.

>>> from firmware_host.config.table import load_table
>>> hello = {"entry_beams": 30, "top_beams": 30, "curtain": 120, "edge": 90, "dice": 6,
...          "piece_reader": True, "led_strips": [27, 27, 27]}
>>> for what, fix in inventory_problems(hello, load_table(), None):
...     print(what)
>>> hello["entry_beams"] = 24
>>> [what for what, _ in inventory_problems(hello, load_table(), None)]
['the table file uses 30 entry-gate beams, the hub has 24']
"""

from __future__ import annotations

from typing import Any

from firmware_host.config.panel import HubTracksConfig
from firmware_host.config.table import Table

HUB_CONFIG = "hardware/hub/hub_config.json"
"""Where the hub's own inventory is set (copied to the hub with the firmware)."""


def inventory_problems(
    hello: dict[str, Any], table: Table | None, hub_tracks: HubTracksConfig | None
) -> list[tuple[str, str]]:
    """``(what is wrong, what to do)`` for each thing the files use that the hub lacks."""
    problems: list[tuple[str, str]] = []
    if table is not None:
        config = table.config
        counts = config.edge_strip.count
        edge = counts.left + counts.bottom + counts.right
        needs = [
            ("entry_beams", "entry-gate beams", config.entry_gate.count, "entry_gate.count"),
            ("top_beams", "top-gate beams", len(config.top_gate.heights), "top_gate.heights"),
            ("curtain", "curtain beams", config.curtain.count, "curtain.count"),
            ("edge", "edge-strip elements", edge, "edge_strip.count"),
            ("dice", "dice", config.dice.count, "dice.count"),
        ]
        for key, name, used, table_key in needs:
            if hello[key] < used:
                problems.append(
                    (
                        f"the table file uses {used} {name}, the hub has {hello[key]}",
                        f"make {table_key} in the table file match the table as built, or "
                        f"the hub's {HUB_CONFIG} (then copy it to the hub)",
                    )
                )
        if config.piece_reader.present and not hello["piece_reader"]:
            problems.append(
                (
                    "the table file has a piece reader, the hub reports none",
                    "check the tray cable to the hub, or set piece_reader.present: false",
                )
            )
    if hub_tracks is not None:
        strips = hello["led_strips"]
        for seat, track in enumerate(hub_tracks.tracks):
            if track.strip >= len(strips):
                problems.append(
                    (
                        f"seat {seat + 1}'s LED track is on strip {track.strip}, "
                        f"the hub has {len(strips)} strips",
                        f"fix hub_tracks.tracks[{seat}].strip in the panel file, or add the "
                        f"strip to led_strips in {HUB_CONFIG}",
                    )
                )
            elif max(track.pixels()) >= strips[track.strip]:
                problems.append(
                    (
                        f"seat {seat + 1}'s LED track reaches pixel {max(track.pixels())}, "
                        f"strip {track.strip} has {strips[track.strip]} pixels",
                        f"fix hub_tracks.tracks[{seat}] in the panel file, or the strip's "
                        f"count in {HUB_CONFIG}",
                    )
                )
    return problems
