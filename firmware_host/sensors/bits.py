"""Fixed-length bit sequences: how the hub reports a strip or a gate (bit i = element i).

>>> bits = Bits.of(8, [0, 2, 3])
>>> str(bits), bits[2], bits[4], bits.indices()
('10110000', True, False, (0, 2, 3))
>>> str(bits.with_bit(7, True)), bits.value
('10110001', 13)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Bits:
    """``length`` bits held in the integer ``value`` (bit i is ``value >> i & 1``)."""

    length: int
    value: int = 0

    def __post_init__(self) -> None:
        if self.length < 0 or not 0 <= self.value < (1 << self.length):
            raise ValueError(f"value {self.value} does not fit in {self.length} bits")

    @classmethod
    def of(cls, length: int, indices: Iterable[int]) -> Bits:
        """The bits of ``length`` with exactly ``indices`` set."""
        value = 0
        for i in indices:
            if not 0 <= i < length:
                raise ValueError(f"bit {i} outside 0..{length - 1}")
            value |= 1 << i
        return cls(length, value)

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, i: int) -> bool:
        return bool(self.value >> self._checked(i) & 1)

    def _checked(self, i: int) -> int:
        if not 0 <= i < self.length:
            raise IndexError(f"bit {i} outside 0..{self.length - 1}")
        return i

    def __iter__(self) -> Iterator[bool]:
        return (bool(self.value >> i & 1) for i in range(self.length))

    def __str__(self) -> str:
        return "".join("1" if bit else "0" for bit in self)

    def count(self) -> int:
        """How many bits are set."""
        return self.value.bit_count()

    def indices(self) -> tuple[int, ...]:
        """The set bits, lowest first."""
        return tuple(i for i in range(self.length) if self.value >> i & 1)

    def with_bit(self, i: int, on: bool) -> Bits:
        """These bits with bit ``i`` set (``on``) or cleared."""
        mask = 1 << self._checked(i)
        return Bits(self.length, self.value | mask if on else self.value & ~mask)
