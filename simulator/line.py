"""The virtual hub's end of a serial line: a pty pair or a TCP socket.

A line moves bytes between the hub and one host, and can be unplugged and plugged back:

* :class:`PtyLine` - a pseudo-terminal in raw mode; the host opens the stable symlink
  :attr:`~PtyLine.url` (as ``/dev/serial/by-id`` gives a real hub). Unplugging closes the
  pty and removes the link; plugging back makes a new pty behind the same link.
* :class:`SocketLine` - a TCP server on 127.0.0.1 taking one host at a time
  (``socket://127.0.0.1:PORT``). Unplugging drops the host and refuses new ones.

Both are non-blocking: :meth:`read` waits at most ``timeout`` seconds.
"""

from __future__ import annotations

import contextlib
import os
import select
import socket
import tempfile
import tty
from pathlib import Path
from typing import Protocol


class Line(Protocol):
    """What the virtual hub needs of its line."""

    url: str

    def read(self, timeout: float) -> bytes:
        """Bytes from the host (empty when none came within ``timeout`` seconds)."""
        ...

    def write(self, data: bytes) -> None:
        """Send bytes to the host (lost while nobody listens, as on a real line)."""
        ...

    def unplug(self) -> None:
        """Cut the line."""
        ...

    def replug(self) -> None:
        """Restore the line (same URL)."""
        ...

    def close(self) -> None:
        """Release everything."""
        ...


class PtyLine:
    """A raw pty pair; the host opens :attr:`url`, a symlink to the slave side.

    ``link`` is where the symlink goes (default: a fresh temporary folder's ``hub``).
    """

    def __init__(self, link: Path | str | None = None) -> None:
        self._folder = None if link is not None else tempfile.mkdtemp(prefix="tabletop-sim-")
        self.url = str(link) if link is not None else os.path.join(self._folder or "", "hub")
        self.slave_path = ""
        self._master: int | None = None
        self._slave: int | None = None
        self.replug()

    def replug(self) -> None:
        """Make a new pty and point :attr:`url` at it."""
        if self._master is not None:
            return
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self.slave_path = os.ttyname(slave)
        temporary = self.url + ".new"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        os.symlink(self.slave_path, temporary)
        os.replace(temporary, self.url)

    def unplug(self) -> None:
        """Close the pty (the host sees its port fail) and remove the link."""
        for fd in (self._master, self._slave):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._master = self._slave = None
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.url)

    def read(self, timeout: float) -> bytes:
        master = self._master  # unplug() may run in another thread
        if master is None:
            select.select([], [], [], timeout)
            return b""
        try:
            ready, _, _ = select.select([master], [], [], timeout)
            return os.read(master, 4096) if ready else b""
        except (OSError, ValueError):
            return b""

    def write(self, data: bytes) -> None:
        if self._master is None:
            return
        with contextlib.suppress(OSError):
            os.write(self._master, data)

    def close(self) -> None:
        self.unplug()
        if self._folder is not None:
            with contextlib.suppress(OSError):
                os.rmdir(self._folder)


class SocketLine:
    """A TCP server on 127.0.0.1 (``port`` 0 picks a free one) serving one host at a time."""

    def __init__(self, port: int = 0) -> None:
        self._server = socket.create_server(("127.0.0.1", port))
        self._server.setblocking(False)
        self.url = f"socket://127.0.0.1:{self._server.getsockname()[1]}"
        self._client: socket.socket | None = None
        self._plugged = True

    def replug(self) -> None:
        self._plugged = True

    def unplug(self) -> None:
        self._plugged = False
        self._drop_client()

    def _drop_client(self) -> None:
        if self._client is not None:
            with contextlib.suppress(OSError):
                self._client.close()
            self._client = None

    def read(self, timeout: float) -> bytes:
        sockets = [self._server] + ([self._client] if self._client else [])
        try:
            ready, _, _ = select.select(sockets, [], [], timeout)
        except (OSError, ValueError):  # unplugged or closed by another thread meanwhile
            return b""
        data = b""
        for sock in ready:
            if sock is self._server:
                self._accept()
            else:
                try:
                    data = sock.recv(4096)
                except OSError:
                    data = b""
                if not data:
                    self._drop_client()
        return data

    def _accept(self) -> None:
        try:
            client, _ = self._server.accept()
        except OSError:
            return
        if not self._plugged:
            client.close()
            return
        self._drop_client()  # a new host takes the line, as a re-opened port does
        client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._client = client

    def write(self, data: bytes) -> None:
        if self._client is None:
            return
        try:
            self._client.sendall(data)
        except OSError:
            self._drop_client()

    def close(self) -> None:
        self._drop_client()
        self._server.close()
