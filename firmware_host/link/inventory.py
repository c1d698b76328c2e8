r"""Checking the hub's ``hello`` inventory against the table file (the single truth).

>>> from firmware_host.config.table import load_table
>>> hello = {"entry_beams": 30, "top_beams": 1, "curtain": 60, "edge": 90, "dice": 6,
...          "piece_reader": True}
>>> inventory_mismatch(hello, load_table()) is None
True
>>> line = inventory_mismatch(dict(hello, curtain=120), load_table())
>>> print(line.replace(": ", ":\n").replace(" (", "\n("))
hub inventory differs from the table file config/tables/reference.yaml:
curtain beams:
hub 120, table 60
(make hardware/hub/hub_config.json inputs.curtain.count match the table, or edit the table file)
"""

from __future__ import annotations

from typing import Any

from firmware_host.config.table import Table

FIELDS = (
    ("entry_beams", "entry gate beams", "inputs.entry_gate.count"),
    ("top_beams", "top gate beams", "inputs.top_gate.count"),
    ("curtain", "curtain beams", "inputs.curtain.count"),
    ("edge", "edge elements", "inputs.edge.count"),
    ("dice", "dice", "tray.dice"),
    ("piece_reader", "piece reader", "tray.piece_reader"),
)
"""hello field, what it counts, and the hub_config.json key that sets it."""


def table_inventory(table: Table) -> dict[str, Any]:
    """What the hub's hello must say for ``table``."""
    edge = table.config.edge_strip.count
    return {
        "entry_beams": len(table.entry_beams),
        "top_beams": len(table.top_gate_heights),
        "curtain": len(table.curtain_heights),
        "edge": edge.left + edge.bottom + edge.right,
        "dice": table.config.dice.count,
        "piece_reader": table.config.piece_reader.present,
    }


def inventory_mismatch(
    hello: dict[str, Any], table: Table, source: str = "config/tables/reference.yaml"
) -> str | None:
    """One line saying what differs between ``hello`` and ``table`` (read from ``source``)
    and what to change, or None when they agree."""
    wanted = table_inventory(table)
    differences = [
        (name, hello.get(key), wanted[key], config_key)
        for key, name, config_key in FIELDS
        if hello.get(key) != wanted[key]
    ]
    if not differences:
        return None
    text = "; ".join(f"{name}: hub {hub}, table {want}" for name, hub, want, _ in differences)
    keys = ", ".join(config_key for *_, config_key in differences)
    return (
        f"hub inventory differs from the table file {source}: {text} "
        f"(make hardware/hub/hub_config.json {keys} match the table, or edit the table file)"
    )
