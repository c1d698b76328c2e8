"""Stand-in for MicroPython's ``machine``: pins, SPI and UART whose wires the tests set."""

resets = 0


class Pin:
    OUT = 1
    IN = 0

    def __init__(self, number: int, mode: int = IN, value: int = 0) -> None:
        self.number = number
        self._value = value

    def value(self, v: int | None = None) -> int:
        if v is not None:
            self._value = v
        return self._value


class SPI:
    """``readinto`` returns the bytes last put in ``SPI.wires`` (the shift-register chain)."""

    wires = b""

    def __init__(self, bus: int, baudrate: int, sck: Pin, miso: Pin) -> None:
        self.bus = bus

    def readinto(self, buf: bytearray) -> None:
        data = SPI.wires[: len(buf)]
        buf[:] = data + bytes(len(buf) - len(data))


class UART:
    """``read`` returns what the test put in ``UART.incoming`` (the tray module's lines)."""

    incoming = b""

    def __init__(self, bus: int, baudrate: int, tx: Pin, rx: Pin) -> None:
        self.bus = bus

    def read(self) -> bytes | None:
        data, UART.incoming = UART.incoming, b""
        return data or None


def reset() -> None:
    global resets
    resets += 1
