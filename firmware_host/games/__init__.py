"""The games the tabletop hosts, as pure domain logic (no hardware, web or physics imports)."""
