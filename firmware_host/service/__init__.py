"""What the service needs to run under systemd: :mod:`.notify` (sd_notify)."""
