"""Finding the hub the service talks to: the one named, the one plugged in, or a virtual one.

:func:`find_hub` takes ``--port URL`` when given; else the hub that
:func:`~firmware_host.link.ports.find_hub_port` finds (``$TABLETOP_HUB_PORT`` or
``/dev/serial/by-id``); else it starts a virtual table's hub in this process (the simulator's,
plugged in through :mod:`firmware_host.simulation`) and says so in one log line.
``sim=True`` (``--sim``) starts the virtual hub whatever is plugged in.

>>> choice = find_hub("socket://127.0.0.1:9", sim=False)
>>> choice.url, choice.virtual is None
('socket://127.0.0.1:9', True)
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from firmware_host.config.noise import load_profile
from firmware_host.config.table import Table, load_table
from firmware_host.link.ports import find_hub_port
from firmware_host.simulation import VirtualTable, VirtualTableFactory, plugged

log = logging.getLogger("firmware_host.link")


@dataclass
class HubChoice:
    """Where the hub is (:attr:`url`), and the virtual table serving it, if one was started
    (:meth:`close` stops it)."""

    url: str
    virtual: VirtualTable | None = None

    def close(self) -> None:
        """Stop the virtual hub, if this choice started one."""
        if self.virtual is not None:
            self.virtual.stop()


def find_hub(
    port: str | None,
    sim: bool,
    *,
    table: Table | None = None,
    noise: str = "realistic",
    seed: int = 0,
    speed: float | None = 1.0,
    by_id: Path | None = None,
) -> HubChoice:
    """The hub to use: ``port``, else a plugged-in hub, else (or with ``sim``) a virtual
    hub on a pty for ``table`` with noise profile ``noise`` from ``seed``."""
    if not sim:
        url = port or find_hub_port(by_id)
        if url is not None:
            return HubChoice(url)
    virtual_table: VirtualTableFactory = plugged("virtual_table", "--sim")
    hub = virtual_table(table or load_table(), load_profile(noise), seed, speed=speed).start()
    reason = "--sim given" if sim else "no hub found (no --port, none in /dev/serial/by-id)"
    log.warning("%s: using the virtual hub at %s (noise %s, seed %d)", reason, hub.url, noise, seed)
    return HubChoice(hub.url, hub)
