"""The whole check, in order: config files, the camera (one frame: markers found, px per
mm), the hub (reachable, protocol version, inventory), the gates during a check window,
each LED track blinked in turn.

Time is injected (:class:`~firmware_host.outputs.clock.Clock`): the check window and the
blinking run on it, so tests run them in no time. Only the wait for the hub's hello is
real time, bounded by :data:`CONNECT_SECONDS`.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from gpiozero.exc import GPIOZeroError
from gpiozero.pins import Factory

from firmware_host.camera.check import check_frames
from firmware_host.camera.sources import BadFrame, CameraUnavailable, open_source
from firmware_host.config.panel import PanelConfig
from firmware_host.config.table import Table
from firmware_host.doctor.configs import ConfigFiles, LoadedConfig, check_configs, table_language
from firmware_host.doctor.gates import GateWatch, beam_list
from firmware_host.doctor.inventory import inventory_problems
from firmware_host.doctor.report import AREAS, Report
from firmware_host.i18n import Message, lazy, lazy_n, translator
from firmware_host.link import messages
from firmware_host.link.ports import find_hub_port
from firmware_host.link.session import LinkError
from firmware_host.link.transport import HubLink
from firmware_host.outputs.clock import Clock
from firmware_host.outputs.gpio_tracks import GpioTracks
from firmware_host.outputs.hub_tracks import HubTracks
from firmware_host.outputs.track_display import TrackDisplay
from firmware_host.outputs.track_lights import FRAME_SECONDS, Animation, frames

CONNECT_SECONDS = 5.0
"""How long to wait for the hub's hello."""

BLINK = Animation.RULE_BROKEN
"""The animation each track plays in turn: every light flashes three times."""


@dataclass(frozen=True)
class DoctorOptions:
    """What to check: the files, the hub's port (None: discover), the check window; the
    camera is checked only with the hub (off line, both are skipped)."""

    files: ConfigFiles = field(default_factory=ConfigFiles)
    port: str | None = None
    window: float = 20.0
    hub: bool = True
    leds: bool = True
    camera: bool = True


class Doctor:
    """One run of the checks, reported to ``out`` in the table file's language (English
    when it does not load); ``pin_factory`` is gpiozero's for GPIO tracks (None: the Pi's
    own)."""

    def __init__(
        self,
        options: DoctorOptions,
        clock: Clock,
        out: TextIO,
        *,
        pin_factory: Factory | None = None,
        link_options: dict[str, Any] | None = None,
    ) -> None:
        self.options = options
        self.clock = clock
        self.report = Report(out, translator(table_language(options.files.table)))
        self.pin_factory = pin_factory
        self.link_options = link_options or {}
        self.gates: GateWatch | None = None
        """The gate watch of the check window, once it started."""
        self._link_down = ""
        self._answered = threading.Event()

    def _link_state(self, state: str, reason: str) -> None:
        if state == "down":
            self._link_down = reason
        else:  # "up" after a hello, "error" when the hub cannot be used (its version)
            self._answered.set()

    async def examine(self) -> int:
        """Run every check; returns the number of problems (0: all OK)."""
        loaded = check_configs(self.report, self.options.files)
        await self._camera(loaded.table)
        if not self.options.hub:
            await self._gpio_leds(loaded.panel)
            return self.report.summary()
        port = self.options.port or find_hub_port()
        if port is None:
            self.report.problem(
                "hub",
                lazy("no hub found in /dev/serial/by-id"),
                lazy("plug the hub's USB cable into the Pi, or give --port"),
            )
            await self._gpio_leds(loaded.panel)
            return self.report.summary()
        link = HubLink(port, on_state=self._link_state, **self.link_options).start()
        try:
            if await self._hub_up(link, port, loaded):
                await self._watch_gates(link, loaded)
                await self._leds(link, loaded.panel)
                self._invalid_frames(link)
            else:
                await self._gpio_leds(loaded.panel)
        finally:
            await asyncio.to_thread(link.stop)
        return self.report.summary()

    async def _camera(self, table: Table | None) -> None:
        if not (self.options.hub and self.options.camera):
            flag = "--no-hub" if not self.options.hub else "--no-camera"
            self.report.skipped("camera", lazy("skipped ({flag})", flag=flag))
            return
        if table is None:
            self.report.problem(
                "camera", lazy("not checked: the table file did not load"), _FIX_TABLE
            )
            return
        setup = table.camera
        if setup is None:
            self.report.ok("camera", lazy("no camera (camera: none)"))
            return
        folder = Path(self.options.files.table).resolve().parent

        def grab() -> tuple[str, list[Any]]:
            with open_source(setup, folder) as source:
                return source.describe(), source.grab(1)

        try:
            name, frames = await asyncio.to_thread(grab)
        except (CameraUnavailable, BadFrame) as exc:
            self.report.problem(
                "camera",
                exc.text,
                lazy("see docs/camera-setup.md, then run tabletop camera check"),
            )
            return
        self.report.ok("camera", lazy("{camera}: a frame grabbed", camera=name))
        check = check_frames(setup, table.board, frames, [name])
        for finding in check.findings:
            if finding.area not in ("markers", "scale"):
                continue
            what = lazy("{area}: {what}", area=AREAS[finding.area], what=finding.what)
            if finding.ok:
                self.report.ok("camera", what)
            else:
                fix = lazy("{fix} (tabletop camera check)", fix=finding.fix)
                self.report.problem("camera", what, fix)

    async def _hub_up(self, link: HubLink, port: str, loaded: LoadedConfig) -> bool:
        up = await asyncio.to_thread(self._answered.wait, CONNECT_SECONDS)
        if link.error is not None:
            self.report.problem("hub", str(link.error).split(":")[0], _after_colon(link.error))
            return False
        if not up or link.hello is None:
            silent = (
                lazy(
                    "the hub at {port} did not answer within {seconds} s ({reason})",
                    port=port,
                    seconds=CONNECT_SECONDS,
                    reason=self._link_down,
                )
                if self._link_down
                else lazy(
                    "the hub at {port} did not answer within {seconds} s",
                    port=port,
                    seconds=CONNECT_SECONDS,
                )
            )
            self.report.problem(
                "hub",
                silent,
                lazy(
                    "check the USB cable and that nothing else holds the port "
                    "(sudo systemctl stop tabletop), then unplug and replug the hub"
                ),
            )
            return False
        hello = link.hello
        firmware = ".".join(map(str, hello["firmware"]))
        self.report.ok(
            "hub",
            lazy(
                "hub at {port}: protocol {protocol}, firmware {firmware}",
                port=port,
                protocol=str(hello["protocol"]),
                firmware=firmware,
            ),
        )
        hub_tracks = loaded.panel.hub_tracks if loaded.panel is not None else None
        problems = inventory_problems(hello, loaded.table, hub_tracks)
        for what, fix in problems:
            self.report.problem("hub", what, fix)
        if not problems:
            self.report.ok("hub", lazy("the hub has every sensor and LED the table and panel use"))
        return True

    def _invalid_frames(self, link: HubLink) -> None:
        """Frames from the hub with a good CRC and invalid content (acknowledged and
        skipped by the link), one problem per kind of fault."""
        session = link.session
        if session is None:
            return
        for line, count in session.stats.problems.items():
            self.report.problem(
                "hub",
                lazy_n("{line} ({count} time)", "{line} ({count} times)", count, line=line),
                lazy(
                    "reflash the hub with hardware/hub/ from this release (see "
                    "hardware/hub/README.md); tabletop hub monitor marks such frames [invalid]"
                ),
            )

    async def _watch_gates(self, link: HubLink, loaded: LoadedConfig) -> None:
        if loaded.table is None:
            self.report.problem(
                "gates", lazy("not watched: the table file did not load"), _FIX_TABLE
            )
            return
        config = loaded.table.config
        hello = link.hello or {}
        watch = GateWatch(  # beams the hub lacks are an inventory problem already
            min(config.entry_gate.count, hello.get("entry_beams", 0)),
            min(len(config.top_gate.heights), hello.get("top_beams", 0)),
        )
        self.gates = watch
        events = link.event_queue()

        async def consume() -> None:
            while True:
                watch.feed((await events.get()).message)

        consumer = asyncio.get_running_loop().create_task(consume())
        try:
            await link.command(messages.snapshot_request())
        except LinkError as exc:
            consumer.cancel()
            self.report.problem(
                "gates", lazy("the hub did not send its state: {error}", error=str(exc)), _REPLUG
            )
            return
        self.report.say(
            lazy(
                "Within {seconds} s: sweep a hand slowly along the whole entry gate "
                "(the opening on top), then pass it through the top gate just above the board.",
                seconds=self.options.window,
            )
        )
        await self.clock.sleep(self.options.window)
        consumer.cancel()
        for gate in ("entry", "top"):
            never_cut, never_clear = watch.never_cut(gate), watch.never_clear(gate)
            if never_cut:
                self.report.problem(
                    "gates",
                    _NEVER_CUT[gate](beam_list(never_cut)),
                    lazy(
                        "check those beams' emitters and receivers are lined up and plugged "
                        "in (beams count from the left); run the doctor again"
                    ),
                )
            if never_clear:
                self.report.problem(
                    "gates",
                    _NEVER_CLEAR[gate](beam_list(never_clear)),
                    lazy(
                        "remove whatever blocks them (a piece, dust on the lens), check the "
                        "receiver's cable; run the doctor again"
                    ),
                )
            if not never_cut and not never_clear:
                self.report.ok("gates", _EVERY_BEAM[gate])

    async def _leds(self, link: HubLink, panel: PanelConfig | None) -> None:
        if not self.options.leds:
            return
        if panel is None or panel.hub_tracks is None:
            await self._gpio_leds(panel)
            return
        tracks = HubTracks(panel.hub_tracks, link, self.clock)
        await self._blink(tracks)
        try:  # the tracks go dark, each frame acknowledged: the hub takes LED frames
            for seat in range(tracks.seats):
                for frame in tracks.frames(seat, (False,) * 25, False, False):
                    await link.command(frame)
        except (LinkError, ValueError) as exc:
            self.report.problem(
                "leds", lazy("the hub did not take an LED frame: {error}", error=str(exc)), _REPLUG
            )
            return
        if tracks.failures:
            self.report.problem(
                "leds",
                lazy_n(
                    "{count} LED frame did not reach the hub while blinking",
                    "{count} LED frames did not reach the hub while blinking",
                    tracks.failures,
                ),
                lazy(
                    "check the hub's USB cable and power; watch the link with tabletop hub monitor"
                ),
            )
        else:
            self.report.ok("leds", lazy("each track blinked in turn on the hub's strips"))

    async def _gpio_leds(self, panel: PanelConfig | None) -> None:
        if not self.options.leds or panel is None or panel.led_tracks is None:
            return
        try:
            tracks = GpioTracks(panel.led_tracks, self.clock, pin_factory=self.pin_factory)
        except GPIOZeroError as exc:
            self.report.problem(
                "leds",
                lazy("cannot drive the GPIO LED tracks: {error}", error=str(exc)),
                lazy("run on the Raspberry Pi as a user in the gpio group (see docs/install.md)"),
            )
            return
        try:
            await self._blink(tracks)
        finally:
            tracks.close()
        self.report.ok("leds", lazy("each track blinked in turn on GPIO"))

    async def _blink(self, tracks: TrackDisplay) -> None:
        length = len(frames(BLINK, tracks.exact[0])) * FRAME_SECONDS[BLINK]
        for seat in range(tracks.seats):
            self.report.say(
                lazy(
                    "Blinking seat {seat}'s track: check every light of it flashes.",
                    seat=seat + 1,
                )
            )
            tracks.animate(BLINK, [seat])
            await self.clock.sleep(length)
        tracks.close()


_REPLUG = lazy("unplug and replug the hub, then run the doctor again")
_FIX_TABLE = lazy("fix the table file first")


def _never_cut_entry(beams: Message) -> Message:
    return lazy("entry gate: {beams} never cut", beams=beams)


def _never_cut_top(beams: Message) -> Message:
    return lazy("top gate: {beams} never cut", beams=beams)


def _never_clear_entry(beams: Message) -> Message:
    return lazy("entry gate: {beams} never clear", beams=beams)


def _never_clear_top(beams: Message) -> Message:
    return lazy("top gate: {beams} never clear", beams=beams)


_NEVER_CUT = {"entry": _never_cut_entry, "top": _never_cut_top}
_NEVER_CLEAR = {"entry": _never_clear_entry, "top": _never_clear_top}
_EVERY_BEAM = {
    "entry": lazy("entry gate: every beam cut and cleared"),
    "top": lazy("top gate: every beam cut and cleared"),
}


def _after_colon(error: Exception) -> str | Message:
    text = str(error)
    return text.split(": ", 1)[1] if ": " in text else _REPLUG
