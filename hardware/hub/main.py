"""Hub firmware entry point (MicroPython, RP2040): wires the engine to pins, SPI, UART, LEDs.

Inputs (see README.md and hub_config.json):

- gates and strips: a chain of 74HC165 shift registers read over SPI (one bit per beam or
  element, ``first_bit``/``count`` per input, ``active_low`` when a cut beam reads 0);
- dice and piece reader: the tray module's UART, one ASCII line per change:
  ``D <die> <face 1-6 | R>`` (R = rolling) and ``T <tag hex>`` (``T -`` = no tag);
- LED strips: one neopixel (WS2812) data pin per strip.

The protocol runs on the USB serial port (stdin/stdout, Ctrl-C interception off).
"""

import json
import sys

import machine
import neopixel
import utime
from engine import HubEngine
from inputs import ROLLING, Scanner

try:
    import wire  # deployed next to this file
except ImportError:  # CPython, in the tests and the simulator
    from firmware_host.link import wire

CONFIG_FILE = "hub_config.json"


class Clock:
    """Microseconds since boot as an unbounded int (``ticks_us`` wraps; this does not)."""

    def __init__(self) -> None:
        self.last = utime.ticks_us()
        self.total = 0

    def __call__(self) -> int:
        now = utime.ticks_us()
        self.total += utime.ticks_diff(now, self.last)
        self.last = now
        return self.total


class ShiftChain:
    """The 74HC165 chain: pulse LOAD low to latch, then clock every byte in over SPI."""

    def __init__(self, cfg: dict, total_bits: int) -> None:
        self.load = machine.Pin(cfg["load_pin"], machine.Pin.OUT, value=1)
        self.spi = machine.SPI(
            cfg["spi"],
            baudrate=cfg["baud"],
            sck=machine.Pin(cfg["sck_pin"]),
            miso=machine.Pin(cfg["miso_pin"]),
        )
        self.buf = bytearray((total_bits + 7) // 8)

    def read(self) -> int:
        """All bits of the chain as one int (bit 0 = first bit shifted in)."""
        self.load.value(0)
        self.load.value(1)
        self.spi.readinto(self.buf)
        return int.from_bytes(bytes(self.buf), "little")


class Tray:
    """The dice tray and piece reader's UART lines, turned into current readings."""

    def __init__(self, cfg: dict) -> None:
        self.uart = machine.UART(
            cfg["uart"],
            baudrate=cfg["baud"],
            tx=machine.Pin(cfg["tx_pin"]),
            rx=machine.Pin(cfg["rx_pin"]),
        )
        self.dice = [ROLLING] * cfg["dice"]
        self.tag = b""
        self.partial = b""

    def poll(self) -> None:
        """Read whatever lines arrived; unknown or malformed lines are ignored."""
        data = self.uart.read()
        if not data:
            return
        self.partial += data
        while b"\n" in self.partial:
            line, self.partial = self.partial.split(b"\n", 1)
            self.line(line.strip())
        if len(self.partial) > 64:
            self.partial = b""

    def line(self, line: bytes) -> None:
        """Apply one line from the tray module."""
        parts = line.split()
        try:
            if len(parts) == 3 and parts[0] == b"D":
                die = int(parts[1].decode())
                face = ROLLING if parts[2] == b"R" else int(parts[2].decode()) - 1
                if 0 <= die < len(self.dice) and ROLLING <= face <= 5:
                    self.dice[die] = face
            elif len(parts) == 2 and parts[0] == b"T":
                tag = b"" if parts[1] == b"-" else bytes.fromhex(parts[1].decode())
                if len(tag) <= wire.MAX_TAG:
                    self.tag = tag
        except ValueError:
            return


class Device:
    """What the engine drives: LED strips, sampling period, snapshot, reset."""

    def __init__(self, cfg: dict, scanner: Scanner) -> None:
        self.strips = [
            neopixel.NeoPixel(machine.Pin(s["pin"]), s["count"]) for s in cfg["led_strips"]
        ]
        self.scanner = scanner
        self.period_us = cfg["sampling_us"]

    def show_leds(self, strip: int, start: int, rgb: bytes) -> None:
        """Set pixels ``start``.. of one strip and show them."""
        pixels = self.strips[strip]
        for i in range(len(rgb) // 3):
            pixels[start + i] = (rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2])
        pixels.write()

    def idle_leds(self) -> None:
        """The safe idle state: every LED off."""
        for pixels in self.strips:
            pixels.fill((0, 0, 0))
            pixels.write()

    def set_sampling(self, period_us: int) -> None:
        """Change the scan period."""
        self.period_us = period_us

    def snapshot(self, t_us: int) -> list:
        """The whole debounced sensor state as events."""
        return self.scanner.snapshot(t_us)

    def reset(self) -> None:
        """Restart the board (the host sees a new boot id in the next hello)."""
        utime.sleep_ms(20)  # let the USB stack send the ack first
        machine.reset()


def inventory(cfg: dict) -> dict:
    """The hello's inventory from the config."""
    inputs = cfg["inputs"]
    return {
        "firmware": list(cfg["firmware"]),
        "entry_beams": inputs["entry_gate"]["count"],
        "top_beams": inputs["top_gate"]["count"],
        "curtain": inputs["curtain"]["count"],
        "edge": inputs["edge"]["count"],
        "dice": cfg["tray"]["dice"],
        "piece_reader": cfg["tray"]["piece_reader"],
        "led_strips": [s["count"] for s in cfg["led_strips"]],
    }


def field(chain_bits: int, spec: dict) -> int:
    """One input's bits out of the whole chain, 1 = cut/blocked/pressed."""
    mask = (1 << spec["count"]) - 1
    bits = (chain_bits >> spec["first_bit"]) & mask
    return bits ^ mask if spec["active_low"] else bits


class Hub:
    """The whole firmware: ``port`` has ``read_available() -> bytes`` and ``write(data)``."""

    def __init__(self, cfg: dict, port: object, boot_id: int) -> None:
        self.cfg = cfg
        inv = inventory(cfg)
        self.scanner = Scanner(inv)
        self.clock = Clock()
        self.device = Device(cfg, self.scanner)
        self.port = port
        self.engine = HubEngine(inv, self.device, self.clock, port.write, boot_id)
        self.total_bits = max(s["first_bit"] + s["count"] for s in cfg["inputs"].values())
        self.chain = ShiftChain(cfg["shift_chain"], self.total_bits)
        self.tray = Tray(cfg["tray"])
        self.next_scan = self.clock()

    def step(self) -> None:
        """One pass of the main loop: host bytes, a scan when due, engine timers."""
        data = self.port.read_available()
        if data:
            self.engine.feed(data)
        now = self.clock()
        if now >= self.next_scan:
            self.next_scan = now + self.device.period_us
            self.scan(now)
        self.engine.tick()

    def scan(self, now: int) -> None:
        """Sample every input once and queue the events it confirms."""
        bits = self.chain.read()
        self.tray.poll()
        inputs = self.cfg["inputs"]
        events = self.scanner.sample(
            now,
            field(bits, inputs["entry_gate"]),
            field(bits, inputs["top_gate"]),
            field(bits, inputs["curtain"]),
            field(bits, inputs["edge"]),
            self.tray.dice,
            self.tray.tag,
        )
        for event in events:
            self.engine.emit(event)


class UsbPort:
    """The USB serial port as raw bytes (MicroPython's stdin/stdout)."""

    def __init__(self) -> None:
        import select

        import micropython

        micropython.kbd_intr(-1)  # 0x03 is data here, not Ctrl-C
        self.poll = select.poll()
        self.poll.register(sys.stdin, select.POLLIN)

    def read_available(self) -> bytes:
        """Bytes waiting on the port (may be empty), without blocking."""
        out = b""
        while len(out) < 256 and self.poll.poll(0):
            out += sys.stdin.buffer.read(1)
        return out

    def write(self, data: bytes) -> None:
        """Send bytes to the host."""
        sys.stdout.buffer.write(data)


def load_config(path: str = CONFIG_FILE) -> dict:
    """Read the hub config (JSON; MicroPython has no YAML)."""
    with open(path) as f:
        cfg = json.load(f)
    if cfg.get("version") != 1:
        raise ValueError("%s: version must be 1" % path)
    return cfg


def main() -> None:
    """Run the firmware forever."""
    import os

    hub = Hub(load_config(), UsbPort(), int.from_bytes(os.urandom(4), "little"))
    while True:
        hub.step()


if __name__ == "__main__":
    main()
