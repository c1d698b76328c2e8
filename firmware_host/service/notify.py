"""Telling systemd how the service is doing: the sd_notify protocol, in a few lines.

A ``Type=notify`` unit gets ``$NOTIFY_SOCKET``: a unix datagram socket (a path, or an
abstract name starting with ``@``). Each notification is one datagram of
``KEY=value`` lines. The service sends ``READY=1`` once it is serving, ``WATCHDOG=1``
more often than ``WatchdogSec`` (systemd restarts it otherwise), ``STATUS=...`` for
``systemctl status``, and ``STOPPING=1`` when it shuts down. Without
``$NOTIFY_SOCKET`` (run by hand, in tests) every call does nothing.

No library: the ``systemd`` Python bindings need libsystemd headers to build and the
small sd_notify packages on PyPI are barely kept; the protocol is one ``sendto``.

>>> notifier = Notifier(env={})       # not under systemd
>>> notifier.enabled, notifier.ready()
(False, False)
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping


class Notifier:
    """Sends notifications to ``$NOTIFY_SOCKET`` (from ``env``, default ``os.environ``)."""

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        environ = os.environ if env is None else env
        address = environ.get("NOTIFY_SOCKET", "")
        self.address: str | None = None
        if address.startswith("@"):
            self.address = "\0" + address[1:]
        elif address.startswith("/"):
            self.address = address
        watchdog_usec = environ.get("WATCHDOG_USEC", "")
        self.watchdog_seconds: float | None = (
            int(watchdog_usec) / 1e6 if watchdog_usec.isdigit() else None
        )
        """``WatchdogSec`` in seconds when systemd set a watchdog; ping at half of it."""

    @property
    def enabled(self) -> bool:
        """Whether systemd is listening."""
        return self.address is not None

    def notify(self, **fields: str) -> bool:
        """Send one notification of ``KEY=value`` fields (``notify(STATUS="ok")``).

        Returns True when it was sent; a socket error is returned as False (systemd
        going away must not stop the game).
        """
        if self.address is None:
            return False
        for key, value in fields.items():
            if "\n" in value:
                raise ValueError(f"{key}: a notification value must be one line")
        message = "\n".join(f"{key}={value}" for key, value in fields.items()).encode()
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            try:
                sock.sendto(message, self.address)
            except OSError:
                return False
        return True

    def ready(self, status: str | None = None) -> bool:
        """``READY=1`` (with a status line): the service is up."""
        return self.notify(READY="1", **({"STATUS": status} if status else {}))

    def watchdog(self) -> bool:
        """``WATCHDOG=1``: still alive (send every :attr:`watchdog_seconds` / 2)."""
        return self.notify(WATCHDOG="1")

    def status(self, text: str) -> bool:
        """``STATUS=text``: shown by ``systemctl status tabletop``."""
        return self.notify(STATUS=text)

    def stopping(self) -> bool:
        """``STOPPING=1``: shutting down on purpose."""
        return self.notify(STOPPING="1")
