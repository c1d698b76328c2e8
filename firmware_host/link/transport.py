"""The hub link over a serial port: a background reader thread and an asyncio-friendly API.

Design: one daemon thread owns the port. It opens any pyserial URL with
``serial.serial_for_url`` (a ``/dev/serial/by-id/...`` path, ``socket://host:port``, a pty
path), runs a :class:`~firmware_host.link.session.LinkSession` on it, reads with a short
timeout so the session's timers run between reads, and on any fault (lost link, port
error, failed command) closes the port and opens it again after a growing delay. Nothing
in the service's asyncio loop ever waits on the port:

- events reach ``on_event`` in the reader thread, or an :class:`asyncio.Queue` from
  :meth:`HubLink.event_queue` (filled with ``loop.call_soon_threadsafe``);
- :meth:`HubLink.command` is awaitable: it returns once the hub acknowledged the command
  and raises :class:`~firmware_host.link.session.CommandFailed` if it did not.

In the service's asyncio code, with a hub (or the simulator's) on that port::

    link = HubLink("socket://localhost:7000", on_event=print)
    link.start()
    await link.command({"type": "snapshot_request"})
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import serial

from firmware_host.link.session import (
    HubEvent,
    LinkError,
    LinkSession,
    VersionMismatch,
)

log = logging.getLogger("firmware_host.link")

READ_TIMEOUT = 0.01
"""Seconds one read may wait; the session's timers run at least this often."""


def backoff_delays(
    initial: float = 0.1, factor: float = 2.0, maximum: float = 5.0
) -> Iterator[float]:
    """Delays between reconnect attempts: ``initial``, growing by ``factor`` up to ``maximum``.

    >>> from itertools import islice
    >>> list(islice(backoff_delays(0.1, 2, 0.5), 5))
    [0.1, 0.2, 0.4, 0.5, 0.5]
    """
    delay = initial
    while True:
        yield delay
        delay = min(maximum, delay * factor)


class HubLink:
    """A self-healing link to one hub at a pyserial ``url``.

    ``clock`` is the session clock (seconds, monotonic); ``backoff`` makes the iterator of
    reconnect delays (a new one after every successful hello); ``on_state`` is told
    ``"up"``, ``"down"`` or ``"error"`` with a reason; ``on_frame`` goes to every session
    (:class:`~firmware_host.link.session.LinkSession`: each frame with its status).
    """

    def __init__(
        self,
        url: str,
        on_event: Callable[[HubEvent], None] | None = None,
        on_state: Callable[[str, str], None] | None = None,
        on_frame: Callable[[str, int, int, bytes, str | None], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        backoff: Callable[[], Iterator[float]] = backoff_delays,
        session_options: dict[str, Any] | None = None,
    ) -> None:
        self.url = url
        self._listeners: list[Callable[[HubEvent], None]] = [on_event] if on_event else []
        self.on_state = on_state
        self.on_frame = on_frame
        self.clock = clock
        self.backoff = backoff
        self.session_options = session_options or {}
        self.error: LinkError | None = None
        self.hello: dict[str, Any] | None = None
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._up = threading.Event()
        self._port: serial.Serial | None = None
        self._session: LinkSession | None = None
        self._thread = threading.Thread(target=self._run, name=f"hub-link {url}", daemon=True)
        self.connections = 0
        self._open_problem: str | None = None

    # -- public API -------------------------------------------------------------------

    def start(self) -> HubLink:
        """Start the reader thread (it keeps trying to reach the hub until :meth:`stop`)."""
        self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the thread, close the port, fail commands still waiting."""
        self._stop.set()
        self._thread.join(timeout)

    def __enter__(self) -> HubLink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def wait_up(self, timeout: float) -> bool:
        """Block (not from the event loop) until a hello was received; False on timeout."""
        return self._up.wait(timeout)

    @property
    def is_up(self) -> bool:
        """Whether the hub answered and the session is running."""
        return self._up.is_set()

    @property
    def session(self) -> LinkSession | None:
        """The current session (for diagnostics)."""
        return self._session

    def add_listener(self, listener: Callable[[HubEvent], None]) -> None:
        """Also call ``listener(event)`` (in the reader thread) for every event."""
        with self._lock:
            self._listeners.append(listener)

    def event_queue(self, loop: asyncio.AbstractEventLoop | None = None) -> asyncio.Queue[HubEvent]:
        """An asyncio queue that receives every event from now on (call it in the loop)."""
        loop = loop or asyncio.get_running_loop()
        queue: asyncio.Queue[HubEvent] = asyncio.Queue()

        def put(event: HubEvent) -> None:
            loop.call_soon_threadsafe(queue.put_nowait, event)

        self.add_listener(put)
        return queue

    def send(self, message: dict[str, Any], done: Callable[[LinkError | None], None]) -> None:
        """Queue a command from any thread; ``done`` is called in the reader thread.

        Commands queued while the hub is away are sent once it is back.
        """
        with self._lock:
            if self.error is not None:
                done(self.error)
                return
            if self._stop.is_set():
                done(LinkError("the hub link was stopped"))
                return
            self._carrier().send(message, done)

    async def command(self, message: dict[str, Any]) -> None:
        """Send a command and wait until the hub acknowledged it (raises ``CommandFailed``)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()

        def settle(error: LinkError | None) -> None:
            def apply() -> None:
                if future.done():
                    return
                if error is None:
                    future.set_result(None)
                else:
                    future.set_exception(error)

            loop.call_soon_threadsafe(apply)

        self.send(message, settle)
        await future

    # -- the reader thread ------------------------------------------------------------

    def _carrier(self) -> LinkSession:
        """The session that holds commands (a session exists even while the port is shut)."""
        if self._session is None:
            self._session = self._new_session()
        return self._session

    def _new_session(self) -> LinkSession:
        return LinkSession(
            self.clock,
            self._write,
            on_event=self._deliver,
            on_fault=self._on_fault,
            on_hello=self._on_hello,
            on_frame=self.on_frame,
            **self.session_options,
        )

    def _write(self, data: bytes) -> None:
        port = self._port
        if port is None:
            return
        try:
            port.write(data)
        except (serial.SerialException, OSError) as exc:
            log.warning("writing to the hub at %s failed: %s", self.url, exc)

    def _deliver(self, event: HubEvent) -> None:
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:  # a consumer's bug must not stop the link for everyone
                log.exception("hub event listener %r failed on %s", listener, event)

    def _on_hello(self, hello: dict[str, Any]) -> None:
        self.hello = hello
        self.connections += 1
        self._up.set()
        self._state("up", f"hub firmware {'.'.join(map(str, hello['firmware']))}")

    def _on_fault(self, reason: str) -> None:
        self._up.clear()
        self._state("down", reason)

    def _state(self, state: str, reason: str) -> None:
        log.info("hub link %s: %s", state, reason)
        if self.on_state:
            self.on_state(state, reason)

    def _run(self) -> None:
        delays = self.backoff()
        try:
            while not self._stop.is_set():
                if self._open():
                    self._serve()
                    reached = self._session is not None and self._session.hello is not None
                    self._close()
                    if self.error is not None:
                        return
                    if reached:
                        delays = self.backoff()
                self._stop.wait(next(delays))
        finally:
            self._close()
            with self._lock:
                if self._session is not None:
                    self._session.close(self.error or LinkError("the hub link was stopped"))

    def _open(self) -> bool:
        try:
            port = serial.serial_for_url(
                self.url, baudrate=1_000_000, timeout=READ_TIMEOUT, exclusive=True
            )
        except (serial.SerialException, OSError, ValueError) as exc:
            problem = f"cannot open {self.url}: {exc}"
            if problem != self._open_problem:  # said once, not at every retry
                self._open_problem = problem
                self._state("down", problem)
            return False
        self._open_problem = None
        with self._lock:
            self._port = port
            old = self._session
            self._session = self._new_session()
            if old is not None:
                self._session.carry_over(old)
        return True

    def _serve(self) -> None:
        port = self._port
        session = self._session
        assert port is not None and session is not None
        while not self._stop.is_set() and not session.dead:
            try:
                data = port.read(max(1, port.in_waiting))
            except (serial.SerialException, OSError) as exc:
                with self._lock:
                    session.ring.dump(f"port error: {exc}")
                    session.dead = True
                self._on_fault(f"port error: {exc}")
                return
            with self._lock:
                try:
                    if data:
                        session.receive(data)
                    session.poll()
                except VersionMismatch as exc:
                    self.error = exc
                    self._state("error", str(exc))
                    return
                except Exception as exc:  # never let the reader thread die: start over
                    log.exception("hub link session failed")
                    session.ring.dump(f"internal error: {exc!r}")
                    session.dead = True
                    self._on_fault(f"internal error: {exc!r}")
                    return

    def _close(self) -> None:
        with self._lock:
            port, self._port = self._port, None
        if port is not None:
            try:
                port.close()
            except (serial.SerialException, OSError) as exc:
                log.debug("closing %s: %s", self.url, exc)
