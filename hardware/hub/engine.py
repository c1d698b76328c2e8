"""The hub's side of the link protocol, with no hardware in it.

:class:`HubEngine` buffers sensor events until the host acknowledges them, answers
``connect`` with ``hello``, ``ping`` with ``pong``, acknowledges and executes host
commands, and tells its device to put the LEDs in their idle state when the host has been
silent for 2 s. It takes bytes in (:meth:`HubEngine.feed`), writes bytes out through the
``write`` function it is given, and reads time from the ``clock_us`` function it is given,
so the same class runs on the RP2040 (``main.py``), in the tests, and as the simulator's
virtual hub behind a pty or a socket.

It runs under MicroPython and CPython: plain classes, no typing at run time; function
annotations use built-in names only (MicroPython parses and ignores them).
"""

try:
    import wire  # on the hub: wire.py is copied next to this file
except ImportError:
    from firmware_host.link import wire

HOST_SILENCE_US = 2000000
"""After this long without a valid frame from the host: LEDs idle, session closed."""

RETRANSMIT_US = 100000
"""Unacknowledged events are sent again after this long without progress."""

WINDOW = 16
"""Events sent and not yet acknowledged, at most."""

CAPACITY = 128
"""Events the buffer holds; the last RESERVE places are kept for overflow recovery."""

RESERVE = 24
"""Room for the overflow report and a whole snapshot (4 bitmaps, up to 16 dice, tag, end)."""


class HubEngine:
    """The protocol engine of one hub.

    ``inventory`` is the hello's content (``firmware``, ``entry_beams``, ``top_beams``,
    ``curtain``, ``edge``, ``dice``, ``piece_reader``, ``led_strips``). ``device`` has
    ``show_leds(strip, start, rgb)``, ``idle_leds()``, ``set_sampling(period_us)``,
    ``snapshot(t_us)`` (a list of event dicts: the whole sensor state) and ``reset()``.
    """

    def __init__(
        self, inventory: dict, device: object, clock_us: object, write: object, boot_id: int
    ) -> None:
        self.inventory = inventory
        self.device = device
        self.clock_us = clock_us
        self.write = write
        self.boot_id = boot_id & 0xFFFFFFFF
        self.decoder = wire.Decoder()
        self.connected = False
        self.idle = True
        self.buffer = []  # [(seq, frame)], oldest first, unacknowledged
        self.sent = 0  # how many of self.buffer have been sent since the last go-back
        self.next_seq = 0
        self.expected_cmd = 0
        self.naked_cmd = -1  # the expected command number a gap nak was sent for
        self.dropped = 0
        self.invalid = 0  # frames with a good CRC ignored for their content
        self.last_rx_us = clock_us()
        self.last_byte_us = self.last_rx_us
        self.last_progress_us = self.last_rx_us

    # -- events -----------------------------------------------------------------------

    def emit(self, msg: dict) -> bool:
        """Queue one event dict for the host; False if the buffer was full (counted)."""
        if self.dropped:
            self._recover()
        if len(self.buffer) >= CAPACITY - RESERVE:
            self.dropped += 1
            return False
        self._append(msg)
        self.pump()
        return True

    def _append(self, msg: dict) -> None:
        self.buffer.append((self.next_seq, wire.encode_message(self.next_seq, msg)))
        self.next_seq = wire.seq_add(self.next_seq, 1)

    def _recover(self) -> None:
        """After an overflow: report it, then the whole state, once there is room."""
        if len(self.buffer) >= CAPACITY - RESERVE:
            return  # still full: keep counting
        now = self.clock_us()
        state = self.device.snapshot(now)
        self._append({"type": "overflow", "dropped": min(self.dropped, 0xFFFF), "t_us": now})
        for msg in state:
            self._append(msg)
        self._append({"type": "snapshot_done", "t_us": now})
        self.dropped = 0

    def pump(self) -> None:
        """Send buffered events that fit in the window (only while a host is connected)."""
        if not self.connected:
            return
        limit = min(len(self.buffer), WINDOW)
        if self.sent == 0 and limit:
            self.last_progress_us = self.clock_us()  # the timer runs from the first sent
        while self.sent < limit:
            self.write(self.buffer[self.sent][1])
            self.sent += 1

    def _acknowledge(self, next_seq: int) -> None:
        if not self.buffer:
            return
        count = (next_seq - self.buffer[0][0]) & 0xFF
        if 0 < count <= len(self.buffer):
            del self.buffer[:count]
            self.sent = max(0, self.sent - count)
            self.last_progress_us = self.clock_us()

    # -- time -------------------------------------------------------------------------

    def tick(self) -> None:
        """Call often (every scan): retransmission, host-silence and overflow recovery."""
        now = self.clock_us()
        if self.decoder.pending() and now - self.last_byte_us > wire.IDLE_FLUSH_US:
            self._frames(self.decoder.flush())
        if self.dropped:
            self._recover()
        if now - self.last_rx_us > HOST_SILENCE_US:
            if not self.idle:
                self.device.idle_leds()
                self.idle = True
            self.connected = False
        if self.connected and self.sent and now - self.last_progress_us > RETRANSMIT_US:
            self.sent = 0
            self.last_progress_us = now
        self.pump()

    # -- from the host ----------------------------------------------------------------

    def feed(self, data: bytes) -> None:
        """Handle bytes received from the host."""
        self.last_byte_us = self.clock_us()
        self._frames(self.decoder.feed(data))

    def _frames(self, frames: list) -> None:
        # A corrupt frame gets no answer (PROTOCOL.md, "Acknowledgements"): if it was a
        # command, the next one shows the gap, or the host's timer resends it.
        for seq, kind, payload in frames:
            self._frame(seq, kind, payload)
        self.pump()

    def _control(self, msg: dict) -> None:
        self.write(wire.encode_message(0, msg))

    def _frame(self, seq: int, kind: int, payload: bytes) -> None:
        self.last_rx_us = self.clock_us()  # any accepted frame is a sign of life
        self.idle = False
        try:
            msg = wire.decode_payload(kind, payload)
        except wire.WireError:
            msg = None
        if kind in wire.COMMAND_TYPES:
            if not self.connected:
                self._control(
                    {"type": "nak", "next_seq": self.expected_cmd, "reason": wire.NAK_NOT_CONNECTED}
                )
            else:
                self._command(seq, msg)  # invalid content: acknowledged, rejected
            return
        if seq != 0 or msg is None or kind not in wire.HOST_CONTROL:
            self.invalid += 1  # control frame with SEQ != 0, bad content, or not for a hub
            return
        if kind == wire.CONNECT:
            self._connect(msg)
        elif not self.connected:
            self._control(
                {"type": "nak", "next_seq": self.expected_cmd, "reason": wire.NAK_NOT_CONNECTED}
            )
        elif kind == wire.PING:
            self._control({"type": "pong", "host_us": msg["host_us"], "hub_us": self.clock_us()})
        elif kind == wire.ACK:
            self._acknowledge(msg["next_seq"])
        elif kind == wire.NAK:
            self._acknowledge(msg["next_seq"])  # a nak acknowledges what precedes next_seq
            if msg["reason"] in (wire.NAK_CORRUPT, wire.NAK_GAP) and self.sent:
                self.write(self.buffer[0][1])  # resend the oldest unacknowledged only
                self.last_progress_us = self.clock_us()

    def _connect(self, msg: dict) -> None:
        self.connected = msg["protocol"] == wire.PROTOCOL_VERSION
        self.expected_cmd = msg.get("first_seq", 0)
        self.naked_cmd = -1
        self.sent = 0
        self.last_progress_us = self.clock_us()
        hello = dict(self.inventory)
        hello["type"] = "hello"
        hello["protocol"] = wire.PROTOCOL_VERSION
        hello["host_us"] = msg.get("host_us", 0)
        hello["hub_us"] = self.clock_us()
        hello["boot_id"] = self.boot_id
        hello["first_seq"] = self.buffer[0][0] if self.buffer else self.next_seq
        self._control(hello)

    def _command(self, seq: int, msg: dict) -> None:
        if seq != self.expected_cmd:
            if wire.seq_after(seq, self.expected_cmd) and self.naked_cmd != self.expected_cmd:
                self.naked_cmd = self.expected_cmd  # one gap nak per expected number
                self._control(
                    {"type": "nak", "next_seq": self.expected_cmd, "reason": wire.NAK_GAP}
                )
            else:  # a repeat, or a gap already nak'd: the ack says where the hub is
                self._control({"type": "ack", "next_seq": self.expected_cmd})
            return
        self.expected_cmd = wire.seq_add(seq, 1)
        ok = msg is not None and self._valid(msg)
        if not ok:
            self._control(
                {"type": "nak", "next_seq": self.expected_cmd, "reason": wire.NAK_REJECTED}
            )
        self._control({"type": "ack", "next_seq": self.expected_cmd})
        if ok:
            self._execute(msg)

    def _valid(self, msg: dict) -> bool:
        if msg["type"] == "leds":
            strips = self.inventory["led_strips"]
            pixels = len(msg["rgb"]) // 3
            return msg["strip"] < len(strips) and msg["start"] + pixels <= strips[msg["strip"]]
        if msg["type"] == "sampling":
            return 200 <= msg["period_us"] <= 100000
        return True

    def _execute(self, msg: dict) -> None:
        kind = msg["type"]
        if kind == "leds":
            self.device.show_leds(msg["strip"], msg["start"], msg["rgb"])
        elif kind == "sampling":
            self.device.set_sampling(msg["period_us"])
        elif kind == "snapshot_request":
            now = self.clock_us()
            state = self.device.snapshot(now)
            if len(self.buffer) + len(state) + 1 > CAPACITY:
                self.dropped += 1  # no room now: recovery sends the snapshot later
                return
            for event in state:
                self._append(event)
            self._append({"type": "snapshot_done", "t_us": now})
        elif kind == "reset":
            self.device.reset()
