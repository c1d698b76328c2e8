"""Choosing the score track backend the panel file asks for.

The panel file has at most one of ``led_tracks`` (GPIO, :class:`.GpioTracks`) and
``hub_tracks`` (the hub's strips, :class:`.HubTracks`).

>>> from firmware_host.config.panel import load_panel
>>> from firmware_host.outputs.clock import LoopClock
>>> panel = load_panel()                  # the reference table: tracks on the hub
>>> track_display(panel, LoopClock())
Traceback (most recent call last):
...
ValueError: the panel file puts the score tracks on the hub: open the hub link first
"""

from __future__ import annotations

from gpiozero.pins import Factory

from firmware_host.config.panel import PanelConfig
from firmware_host.link.transport import HubLink
from firmware_host.outputs.clock import Clock
from firmware_host.outputs.gpio_tracks import GpioTracks
from firmware_host.outputs.hub_tracks import HubTracks
from firmware_host.outputs.track_display import TrackDisplay


def track_display(
    panel: PanelConfig,
    clock: Clock,
    *,
    link: HubLink | None = None,
    pin_factory: Factory | None = None,
) -> TrackDisplay | None:
    """The score tracks of ``panel`` (None when it has none): on GPIO through
    ``pin_factory``, or on the hub's strips through ``link``."""
    if panel.led_tracks is not None:
        return GpioTracks(panel.led_tracks, clock, pin_factory=pin_factory)
    if panel.hub_tracks is not None:
        if link is None:
            raise ValueError(
                "the panel file puts the score tracks on the hub: open the hub link first"
            )
        return HubTracks(panel.hub_tracks, link, clock)
    return None
