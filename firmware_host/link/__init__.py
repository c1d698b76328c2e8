"""The link to the sensor hub: frame codec, protocol session, serial transport, monitor.

- :mod:`~firmware_host.link.wire`: frames and messages (also runs on the hub);
- :mod:`~firmware_host.link.session`: the host's protocol state machine (no I/O, no threads);
- :mod:`~firmware_host.link.transport`: :class:`HubLink`, the session over any pyserial URL
  in a background thread, with an asyncio API;
- :mod:`~firmware_host.link.rtt`, :mod:`~firmware_host.link.clock_sync`,
  :mod:`~firmware_host.link.frame_ring`: round-trip estimate, hub->host time, fault log.
"""
