"""The host's side of the link protocol as a state machine: no I/O, no threads, no sleeping.

:class:`LinkSession` is fed the bytes read from the hub (:meth:`LinkSession.receive`) and
the passing of time (:meth:`LinkSession.poll`, with the ``clock`` it was given); it writes
frames through the ``write`` function it was given and reports through its callbacks.
:class:`~firmware_host.link.transport.HubLink` runs it over a serial port; the tests run it
with a simulated clock.
"""

from __future__ import annotations

import logging
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from firmware_host.errors import TabletopError
from firmware_host.link import wire
from firmware_host.link.clock_sync import ClockSync
from firmware_host.link.frame_ring import FrameRing
from firmware_host.link.rtt import RttEstimator

log = logging.getLogger("firmware_host.link")

PING_INTERVAL = 0.2
"""Seconds between pings (the heartbeat; the hub idles its LEDs after 2 s without one)."""

LOST_AFTER = 1.0
"""Seconds without any valid frame from the hub before the link counts as lost."""

CONNECT_INTERVAL = 0.25
"""Seconds between ``connect`` frames while waiting for the hub's ``hello``."""

WINDOW = 4
"""Host commands sent and not yet acknowledged, at most."""

HELD = 16
"""Events after a gap kept until it is filled: the hub's window (PROTOCOL.md)."""

MAX_RETRIES = 8
"""Retransmissions of one command before it is reported failed (with the timeout doubling
each time, about 2.5 s on a USB link)."""


class LinkError(TabletopError):
    """A link problem a person must act on, or a command that did not get through."""


class VersionMismatch(LinkError):
    """The hub speaks another protocol version; the message says what to reflash."""


class CommandFailed(LinkError):
    """A command was not acknowledged after its retries, or the hub rejected it."""


@dataclass(frozen=True)
class HubEvent:
    """One sensor event from the hub, delivered once and in order.

    ``message`` is the decoded message (``message["type"]`` is ``gate``, ``bitmap``,
    ``die``, ``piece``, ``snapshot_done`` or ``overflow``; see ``hardware/PROTOCOL.md``);
    ``host_time`` is the hub timestamp mapped to the session clock (None before the first
    clock-sync sample).
    """

    seq: int
    message: dict[str, Any]
    hub_us: int
    host_time: float | None

    @property
    def kind(self) -> str:
        """The message type's name."""
        return str(self.message["type"])


class _Invalid(NamedTuple):
    """An event frame whose content is invalid: what to report when its turn comes."""

    kind: int
    payload: bytes
    problem: str


@dataclass
class _Command:
    message: dict[str, Any]
    done: Callable[[LinkError | None], None]
    seq: int = -1
    sent_at: float = 0.0
    retries: int = 0


DELIVERED = "delivered"
REPEAT = "repeat"
OUT_OF_ORDER = "out_of_order"
INVALID = "invalid"
SENT = "sent"
"""What became of a frame (the ``status`` given to ``on_frame``): an event delivered, a
repeat (an event or command sent before), an event out of order (after a gap, dropped),
a frame whose content is invalid (acknowledged if it is the expected event, never
delivered), a command sent for the first time."""


@dataclass
class SessionStats:
    """Counters for diagnostics, kept across reconnects (``tabletop hub monitor`` prints
    them; ``tabletop doctor`` reports ``invalid``)."""

    events: int = 0
    duplicates: int = 0
    gaps: int = 0
    invalid: int = 0
    retransmits: int = 0
    commands_failed: int = 0
    acks: int = 0
    naks: int = 0
    restarts: int = 0
    faults: list[str] = field(default_factory=list)
    problems: dict[str, int] = field(default_factory=dict)
    """Each distinct invalid-content problem (one line) and how often it was seen."""


class LinkSession:
    """One host<->hub conversation (one per opened port; state that must outlive a
    reconnect, such as the next expected event and the hub's boot id, is carried over with
    :meth:`carry_over`).

    Callbacks (all called from whoever calls :meth:`receive`/:meth:`poll`/:meth:`send`):
    ``on_event(HubEvent)``, ``on_hello(dict)``, ``on_fault(reason)`` (the session is then
    dead: the owner closes the port and starts a new session), ``on_frame(direction, seq,
    type, payload, status)`` for monitors (``status``: :data:`DELIVERED`, :data:`REPEAT`,
    :data:`OUT_OF_ORDER`, :data:`INVALID`, :data:`SENT` or None for control frames).
    """

    def __init__(
        self,
        clock: Callable[[], float],
        write: Callable[[bytes], None],
        on_event: Callable[[HubEvent], None],
        on_fault: Callable[[str], None],
        on_hello: Callable[[dict[str, Any]], None] | None = None,
        on_frame: Callable[[str, int, int, bytes, str | None], None] | None = None,
        window: int = WINDOW,
        max_retries: int = MAX_RETRIES,
        rtt: RttEstimator | None = None,
    ) -> None:
        self.clock = clock
        self._write = write
        self.on_event = on_event
        self.on_fault = on_fault
        self.on_hello = on_hello
        self.on_frame = on_frame
        self.window = window
        self.max_retries = max_retries
        self.rtt = rtt or RttEstimator()
        self.sync = ClockSync()
        self.ring = FrameRing()
        self.stats = SessionStats()
        self.decoder = wire.Decoder()
        self.hello: dict[str, Any] | None = None
        self.boot_id: int | None = None
        self.expected_event: int | None = None
        self.next_cmd = 0
        self.queued: deque[_Command] = deque()
        self.in_flight: OrderedDict[int, _Command] = OrderedDict()
        self.up = False
        self.dead = False
        self._answer = False  # sequenced frames received and not yet acknowledged
        self._gap = False  # among them, one after the expected number
        self._naked: int | None = None
        self._held: dict[int, dict[str, Any] | _Invalid] = {}  # events after a gap, by number
        now = clock()
        self.last_rx = now
        self.last_byte = now
        self.last_ping = now
        self.last_connect = now - CONNECT_INTERVAL

    # -- lifecycle --------------------------------------------------------------------

    def carry_over(self, old: LinkSession) -> None:
        """Continue from a previous session: event position, boot id, unacknowledged commands."""
        self.boot_id = old.boot_id
        self.expected_event = old.expected_event
        self.next_cmd = old.next_cmd
        self.rtt = old.rtt
        self.sync = old.sync
        self.ring = old.ring
        self.stats = old.stats
        self._naked = old._naked
        self._held = old._held
        for name in ("frames", "bad_crc", "bad_header", "skipped"):  # counters of the whole run
            setattr(self.decoder, name, getattr(old.decoder, name))
        for command in old.in_flight.values():
            self.in_flight[command.seq] = command
        self.queued = old.queued
        old.in_flight = OrderedDict()
        old.queued = deque()

    def close(self, error: LinkError) -> None:
        """Fail every command still waiting (the link is shut down for good)."""
        self.dead = True
        for command in [*self.in_flight.values(), *self.queued]:
            command.done(error)
        self.in_flight.clear()
        self.queued.clear()

    def _fault(self, reason: str) -> None:
        if self.dead:
            return
        self.dead = True
        self.up = False
        self.stats.faults.append(reason)
        self.ring.dump(reason)
        self.on_fault(reason)

    # -- sending ----------------------------------------------------------------------

    def _send(self, seq: int, message: dict[str, Any], status: str | None = None) -> None:
        kind = wire.message_type(message)
        payload = wire.encode_payload(message)
        self.ring.add("out", self.clock(), seq, kind, payload)
        if self.on_frame:
            self.on_frame("out", seq, kind, payload, status)
        self._write(wire.encode_frame(seq, kind, payload))

    def send(self, message: dict[str, Any], done: Callable[[LinkError | None], None]) -> None:
        """Queue a host command; ``done(None)`` once acknowledged, ``done(error)`` if not.

        The message is checked now (:class:`wire.WireError` if it cannot be encoded).
        """
        if wire.message_type(message) not in wire.COMMAND_TYPES:
            raise wire.WireError(f"{message['type']!r} is not a host command")
        wire.encode_payload(message)
        self.queued.append(_Command(message, done))
        self._pump()

    def _pump(self) -> None:
        if not self.up:
            return
        while self.queued and len(self.in_flight) < self.window:
            command = self.queued.popleft()
            command.seq = self.next_cmd
            self.next_cmd = wire.seq_add(self.next_cmd, 1)
            self.in_flight[command.seq] = command
            command.sent_at = self.clock()
            self._send(command.seq, command.message, SENT)

    def _resend_in_flight(self) -> None:
        now = self.clock()
        for command in self.in_flight.values():
            command.retries += 1
            command.sent_at = now
            self.stats.retransmits += 1
            self._send(command.seq, command.message, REPEAT)

    # -- time -------------------------------------------------------------------------

    def poll(self) -> None:
        """Run the timers: connect retries, heartbeat, retransmission, lost-link detection."""
        if self.dead:
            return
        now = self.clock()
        if self.decoder.pending() and now - self.last_byte > wire.IDLE_FLUSH_US / 1e6:
            self._frames(self.decoder.flush())
            if self.dead:
                return
        if not self.up:
            if now - self.last_connect >= CONNECT_INTERVAL:
                self.last_connect = now
                first = next(iter(self.in_flight), self.next_cmd)
                connect = {"type": "connect", "protocol": wire.PROTOCOL_VERSION, "first_seq": first}
                self._send(0, {**connect, "host_us": int(now * 1e6)})
            if now - self.last_rx > LOST_AFTER * 3:
                self._fault(f"no hello from the hub within {LOST_AFTER * 3:g} s")
            return
        if now - self.last_rx > LOST_AFTER:
            self._fault(f"nothing from the hub for {LOST_AFTER:g} s (lost link)")
            return
        if now - self.last_ping >= PING_INTERVAL:
            self.last_ping = now
            self._send(0, {"type": "ping", "host_us": int(now * 1e6)})
        if self.in_flight:
            oldest = next(iter(self.in_flight.values()))
            if now - oldest.sent_at >= self.rtt.timeout():
                if oldest.retries >= self.max_retries:
                    self._give_up(oldest)
                    return
                self.rtt.backoff()
                self._resend_in_flight()

    def _give_up(self, command: _Command) -> None:
        self.stats.commands_failed += 1
        del self.in_flight[command.seq]
        command.done(
            CommandFailed(
                f"hub command {command.message['type']} #{command.seq} not acknowledged "
                f"after {command.retries} retransmissions"
            )
        )
        # The hub may be waiting for that sequence number: start over with a new connect.
        self._fault(f"command #{command.seq} failed after {command.retries} retransmissions")

    # -- receiving --------------------------------------------------------------------

    def receive(self, data: bytes) -> None:
        """Handle bytes read from the hub."""
        if self.dead:
            return
        self.last_byte = self.clock()
        self._frames(self.decoder.feed(data))

    def _frames(self, frames: list[tuple[int, int, bytes]]) -> None:
        for seq, kind, payload in frames:
            now = self.clock()
            self.last_rx = now  # any accepted frame is a sign of life
            self.ring.add("in", now, seq, kind, payload)
            message: dict[str, Any] | None = None
            try:
                message = wire.decode_payload(kind, payload)
                problem = _misplaced(seq, kind)
            except wire.WireError as exc:
                problem = str(exc)
            status = self._status(seq, kind, problem)
            if self.on_frame:
                self.on_frame("in", seq, kind, payload, status)
            if kind in wire.EVENT_TYPES:
                if self.up and problem is not None:
                    self._event(seq, _Invalid(kind, payload, problem))
                elif self.up and message is not None:
                    self._event(seq, message)
            elif problem is not None:
                self._invalid(seq, kind, payload, problem)
            elif message is not None:
                self._handle(seq, kind, message)
            if self.dead:
                return
        self._answer_events()

    def _status(self, seq: int, kind: int, problem: str | None) -> str | None:
        """What becomes of a received frame (see :data:`DELIVERED`)."""
        if kind not in wire.EVENT_TYPES or not self.up or self.expected_event is None:
            return INVALID if problem is not None else None
        if seq == self.expected_event:
            return DELIVERED if problem is None else INVALID
        if seq in self._held or not wire.seq_after(seq, self.expected_event):
            return REPEAT
        return OUT_OF_ORDER

    def _invalid(self, seq: int, kind: int, payload: bytes, problem: str) -> None:
        """A frame with a good CRC and invalid content: counted, logged once per problem."""
        self.stats.invalid += 1
        name = wire.NAMES.get(kind, f"type 0x{kind:02x}")
        line = f"the hub sent an invalid {name} frame: {problem}"
        seen = self.stats.problems.get(line, 0)
        self.stats.problems[line] = seen + 1
        if not seen:
            log.warning("%s (#%d %s); it is acknowledged and skipped", line, seq, payload.hex())

    def _answer_events(self) -> None:
        """One ``ack`` (or a ``nak`` for a gap not nak'd yet) for the sequenced frames just
        received: sent after every read, so within a read's timeout of the first."""
        if not (self.up and self._answer):
            return
        self._answer = False
        expected = self.expected_event
        if self._gap and self._naked != expected:
            self._naked = expected
            self.stats.naks += 1
            self._send(0, {"type": "nak", "next_seq": expected, "reason": wire.NAK_GAP})
        else:
            self.stats.acks += 1
            self._send(0, {"type": "ack", "next_seq": expected})
        self._gap = False

    def _handle(self, seq: int, kind: int, message: dict[str, Any]) -> None:
        if kind == wire.HELLO:
            self._hello(message)
        elif kind == wire.PONG:
            self._clock_sample(message)
        elif not self.up:
            return
        elif kind == wire.ACK:
            self._acked(message["next_seq"])
        elif kind == wire.NAK:
            self._nak(message["next_seq"], message["reason"])

    def _clock_sample(self, answer: dict[str, Any]) -> None:
        """A pong (or a hello, which answers a connect the same way) syncs the clocks."""
        sent = answer["host_us"] / 1e6
        self.sync.sample(sent, answer["hub_us"], self.clock())
        self.rtt.sample(self.clock() - sent, ends_backoff=False)

    def _hello(self, hello: dict[str, Any]) -> None:
        if hello["protocol"] != wire.PROTOCOL_VERSION:
            error = VersionMismatch(
                f"the hub speaks link protocol {hello['protocol']} (firmware "
                f"{'.'.join(map(str, hello['firmware']))}), this host speaks "
                f"{wire.PROTOCOL_VERSION}: reflash the hub with hardware/hub/ from this "
                "release (see hardware/hub/README.md)"
            )
            self.dead = True
            self.ring.dump(str(error))
            raise error
        if self.boot_id is not None and hello["boot_id"] != self.boot_id:
            log.warning(
                "the hub restarted (boot id %08x -> %08x): events it had not sent are lost; "
                "requesting a snapshot",
                self.boot_id,
                hello["boot_id"],
            )
            self.sync.reset()
            self.expected_event = None
            self._naked = None
            self._held.clear()
            self.stats.restarts += 1
            restarted = True
        else:
            restarted = False
        self.boot_id = hello["boot_id"]
        self._clock_sample(hello)
        if self.expected_event is None:
            self.expected_event = hello["first_seq"]
        self.hello = hello
        self.up = True
        self.last_ping = self.clock() - PING_INTERVAL
        if self.on_hello:
            self.on_hello(hello)
        self._resend_in_flight_after_connect()
        if restarted:  # the hub's state is unknown: ask for all of it, first
            self.queued.appendleft(_Command({"type": "snapshot_request"}, _snapshot_answered))
        self._pump()

    def _resend_in_flight_after_connect(self) -> None:
        now = self.clock()
        for command in self.in_flight.values():
            command.sent_at = now
            self._send(command.seq, command.message, REPEAT)

    def _event(self, seq: int, message: dict[str, Any] | _Invalid) -> None:
        """An event frame (or why its content is invalid: it is then acknowledged like any
        other, reported, and not delivered). One that comes after a gap, within the hub's
        window, is kept until the gap is filled."""
        expected = self.expected_event
        assert expected is not None
        self._answer = True
        if seq != expected:
            ahead = (seq - expected) & 0xFF
            if ahead >= 128 or seq in self._held:
                self.stats.duplicates += 1
                return
            self.stats.gaps += 1
            self._gap = True
            if ahead < HELD:
                self._held[seq] = message
            return
        self._take(seq, message)
        while self.expected_event in self._held:
            self._take(self.expected_event, self._held.pop(self.expected_event))
        if self._held:  # frames after another missing one
            self._gap = True

    def _take(self, seq: int, message: dict[str, Any] | _Invalid) -> None:
        self.expected_event = wire.seq_add(seq, 1)
        if isinstance(message, _Invalid):
            self._invalid(seq, *message)
            return
        self.stats.events += 1
        hub_us = message["t_us"]
        self.on_event(HubEvent(seq, message, hub_us, self.sync.to_host(hub_us)))

    def _acked(self, next_seq: int) -> None:
        now = self.clock()
        for seq in list(self.in_flight):
            if not wire.seq_after(next_seq, seq):
                break
            command = self.in_flight.pop(seq)
            if command.retries == 0:
                self.rtt.sample(now - command.sent_at)
            command.done(None)
        self._pump()

    def _nak(self, next_seq: int, reason: int) -> None:
        if reason == wire.NAK_NOT_CONNECTED:
            self._fault("the hub says it has no session (it restarted or timed us out)")
            return
        if reason == wire.NAK_REJECTED:
            rejected = self.in_flight.pop(wire.seq_add(next_seq, -1), None)
            if rejected is not None:
                self.stats.commands_failed += 1
                rejected.done(CommandFailed(f"the hub rejected {rejected.message['type']} command"))
            self._acked(next_seq)
            return
        self._acked(next_seq)  # every nak acknowledges what precedes next_seq
        if reason in (wire.NAK_CORRUPT, wire.NAK_GAP):
            self._resend_in_flight()


def _misplaced(seq: int, kind: int) -> str | None:
    """Why a well-formed frame from the hub is not for a host, or None."""
    if kind in wire.EVENT_TYPES:
        return None
    if kind not in wire.HUB_CONTROL:
        return f"a {wire.NAMES[kind]} frame is not sent by a hub"
    if seq != 0:
        return f"control frame with SEQ {seq} (must be 0)"
    return None


def _snapshot_answered(error: LinkError | None) -> None:
    if error is not None:
        log.warning("the snapshot request after the hub's restart failed: %s", error)
