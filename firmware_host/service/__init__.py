"""The service behind ``tabletop run``: the table controller, its clocks, resume and the
simulated table (docs/service.md)."""
