"""Stand-in for MicroPython's ``neopixel``: keeps the pixels and what was last shown."""


class NeoPixel:
    def __init__(self, pin: object, n: int) -> None:
        self.n = n
        self.pixels = [(0, 0, 0)] * n
        self.shown = list(self.pixels)
        self.writes = 0

    def __setitem__(self, i: int, rgb: tuple) -> None:
        self.pixels[i] = tuple(rgb)

    def __getitem__(self, i: int) -> tuple:
        return self.pixels[i]

    def __len__(self) -> int:
        return self.n

    def fill(self, rgb: tuple) -> None:
        self.pixels = [tuple(rgb)] * self.n

    def write(self) -> None:
        self.shown = list(self.pixels)
        self.writes += 1
