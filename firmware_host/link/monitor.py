"""A live view of the frames on the hub link, for the people who wire and service tables.

Two formats (docs/link.md, "tabletop hub monitor"): text, one line per frame with repeats,
frames out of order and invalid frames marked; or JSON Lines, one object per frame and a
final counters object for the whole run (every reconnect included).

>>> import io
>>> out = io.StringIO()
>>> monitor = Monitor("unused", out, json_lines=True, clock=lambda: 0.5)
>>> monitor.frame("in", 7, wire.GATE, bytes([0, 3, 1]) + (1500).to_bytes(8, "little"), "repeat")
>>> print(out.getvalue().strip())
{"t": 0.0, "direction": "hub->host", "seq": 7, "type": "gate", "fields": {"gate": 0, \
"beam": 3, "cut": true, "t_us": 1500}, "status": "repeat"}
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any, TextIO

from firmware_host.config.table import Table
from firmware_host.link import wire
from firmware_host.link.frame_ring import describe
from firmware_host.link.inventory import inventory_mismatch
from firmware_host.link.session import DELIVERED, SENT
from firmware_host.link.transport import HubLink

HEARTBEAT = {wire.PING, wire.PONG}

MARKS = {"repeat": "[repeat]", "out_of_order": "[out of order]", "invalid": "[invalid]"}
"""How the text form marks a frame by its status (delivered events are not marked)."""


def frame_object(direction: str, seq: int, kind: int, payload: bytes) -> dict[str, Any]:
    """A frame as JSON-ready fields: ``direction``, ``seq``, ``type``, ``fields`` (the decoded
    message; bytes as hex), or ``fields`` None with ``error`` and ``payload`` (hex)."""
    out: dict[str, Any] = {
        "direction": "hub->host" if direction == "in" else "host->hub",
        "seq": seq,
        "type": wire.NAMES.get(kind, f"0x{kind:02x}"),
    }
    try:
        message = wire.decode_payload(kind, payload)
    except wire.WireError as exc:
        return {**out, "fields": None, "error": str(exc), "payload": payload.hex()}
    message.pop("type")
    out["fields"] = {k: v.hex() if isinstance(v, bytes) else v for k, v in message.items()}
    return out


class Monitor:
    """Prints every frame each way as it passes (heartbeats only when asked).

    ``count`` stops after that many frames from the hub were shown; ``seconds`` after that
    long; Ctrl-C stops it too. ``json_lines`` prints JSON objects instead of text. With a
    ``table``, a hub whose inventory differs from it is named in one line after each hello.
    :meth:`counters` gives the whole run's counters.
    """

    def __init__(
        self,
        url: str,
        out: TextIO,
        count: int | None = None,
        seconds: float | None = None,
        heartbeat: bool = False,
        json_lines: bool = False,
        table: Table | None = None,
        table_source: str = "config/tables/reference.yaml",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.url = url
        self.out = out
        self.count = count
        self.seconds = seconds
        self.heartbeat = heartbeat
        self.json_lines = json_lines
        self.table = table
        self.table_source = table_source
        self.clock = clock
        self.start = clock()
        self.shown_in = 0
        self.frames_in = 0
        self.frames_out = 0
        self.link: HubLink | None = None
        self.connected = False
        self.problem: str | None = None
        self.done = threading.Event()
        self.lock = threading.Lock()

    def _print(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def _emit(self, obj: dict[str, Any], text: str) -> None:
        t = round(self.clock() - self.start, 6)
        if self.json_lines:
            self._print(json.dumps({"t": t, **obj}))
        else:
            self._print(f"{t:10.6f} {text}")

    def frame(
        self, direction: str, seq: int, kind: int, payload: bytes, status: str | None
    ) -> None:
        """Print one frame (called in the link's reader thread)."""
        with self.lock:
            if direction == "in":
                self.frames_in += 1
            else:
                self.frames_out += 1
            if (kind in HEARTBEAT and not self.heartbeat) or self.done.is_set():
                return
            shown = status if status not in (DELIVERED, SENT) else None
            text = describe(seq, kind, payload)
            if shown in MARKS:
                text = f"{text} {MARKS[shown]}"
            arrow = "hub->host" if direction == "in" else "host->hub"
            self._emit(
                {**frame_object(direction, seq, kind, payload), "status": status}, f"{arrow} {text}"
            )
            if direction == "in":
                self.shown_in += 1
                if self.count is not None and self.shown_in >= self.count:
                    self.done.set()

    def state(self, state: str, reason: str) -> None:
        """Print link state changes (a link down is tried again: say so), and after a
        hello any inventory difference."""
        with self.lock:
            if state == "up":
                self.connected = True
            else:
                self.problem = reason
            retrying = "; retrying until the hub answers (Ctrl-C stops)" if state == "down" else ""
            self._emit(
                {"link": state, "reason": reason, **({"retrying": True} if retrying else {})},
                f"link {state}: {reason}{retrying}",
            )
            hello = self.link.hello if self.link is not None else None
            if state == "up" and hello is not None and self.table is not None:
                mismatch = inventory_mismatch(hello, self.table, self.table_source)
                if mismatch is not None:
                    self._emit({"inventory": mismatch}, mismatch)
        if state == "error":
            self.done.set()

    def counters(self) -> dict[str, Any]:
        """The whole run's counters (the session's are kept across reconnects)."""
        link = self.link
        session = link.session if link is not None else None
        counts: dict[str, Any] = {
            "frames_in": self.frames_in,
            "frames_out": self.frames_out,
            "shown_in": self.shown_in,
        }
        if session is not None:
            stats, decoder = session.stats, session.decoder
            counts.update(
                events=stats.events,
                repeats=stats.duplicates,
                out_of_order=stats.gaps,
                invalid=stats.invalid,
                bad_crc=decoder.bad_crc,
                bad_headers=decoder.bad_header,
                skipped_bytes=decoder.skipped,
                acks=stats.acks,
                naks=stats.naks,
                retransmissions=stats.retransmits,
                commands_failed=stats.commands_failed,
                hub_restarts=stats.restarts,
                faults=len(stats.faults),
            )
        counts["connections"] = link.connections if link is not None else 0
        return counts

    def summary(self) -> str:
        """The counters as the closing line (text) or object (JSON)."""
        counts = self.counters()
        if self.json_lines:
            return json.dumps({"counters": counts})
        words = [f"{self.shown_in} frames from the hub shown"]
        if "events" in counts:
            words.append(
                f"{counts['events']} events, {counts['repeats']} repeats, "
                f"{counts['out_of_order']} out of order, {counts['invalid']} invalid, "
                f"{counts['bad_crc']} bad CRC, {counts['bad_headers']} bad headers, "
                f"{counts['skipped_bytes']} bytes skipped, {counts['naks']} naks sent, "
                f"{counts['retransmissions']} retransmissions, {counts['faults']} faults, "
                f"{counts['connections']} connections"
            )
        return "; ".join(words)

    def run(self) -> HubLink:
        """Watch until the count, the time limit or Ctrl-C; returns the (stopped) link."""
        link = HubLink(self.url, on_frame=self.frame, on_state=self.state)
        self.link = link
        link.start()
        try:
            self.done.wait(self.seconds)
        except KeyboardInterrupt:
            self.done.set()
        finally:
            link.stop()
        return link
