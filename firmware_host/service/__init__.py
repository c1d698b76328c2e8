"""The service behind ``tabletop run`` (docs/service.md): Drop It's controller, its clocks,
resume and the simulated table; and what it needs to run under systemd: :mod:`.notify`
(sd_notify)."""
