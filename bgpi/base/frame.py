"""One reading of every reed switch: the value the hardware layer delivers and the sensor
geometry interprets. It sits at the bottom of the house beside :mod:`bgpi.base.words`, so the pure
core can count a frame without importing :mod:`bgpi.hal`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SensorFrame:
    """The state of every reed switch at one instant.

    ``bits`` has bit ``i`` set when switch ``i`` is closed (a magnet sits on it); which switch
    is which point and slot is the :class:`~bgpi.base.geometry.Geometry`'s business. An int
    keeps a 152-switch frame cheap to compare, hash and count.
    """

    bits: int
    nbits: int
    timestamp: float

    def __post_init__(self) -> None:
        if self.nbits < 1:
            raise ValueError(f"a sensor frame has at least one bit, got nbits={self.nbits}")
        if not 0 <= self.bits < 1 << self.nbits:
            raise ValueError(f"bits {self.bits:#x} do not fit in a frame of {self.nbits} bits")

    @classmethod
    def from_closed(cls, closed: Iterable[int], nbits: int, timestamp: float) -> SensorFrame:
        """A frame whose closed switches are ``closed`` (bit indices)."""
        bits = 0
        for bit in closed:
            if not 0 <= bit < nbits:
                raise ValueError(f"bit {bit} is outside a frame of {nbits} bits")
            bits |= 1 << bit
        return cls(bits, nbits, timestamp)

    def closed(self, bit: int) -> bool:
        """Whether switch ``bit`` is closed."""
        if not 0 <= bit < self.nbits:
            raise IndexError(f"bit {bit} is outside a frame of {self.nbits} bits")
        return bool(self.bits >> bit & 1)

    def closed_bits(self) -> tuple[int, ...]:
        """The indices of the closed switches, in order."""
        return tuple(bit for bit in range(self.nbits) if self.bits >> bit & 1)

    def changed(self, other: SensorFrame) -> tuple[int, ...]:
        """The bits that differ between this frame and ``other``."""
        diff = self.bits ^ other.bits
        return tuple(bit for bit in range(max(self.nbits, other.nbits)) if diff >> bit & 1)
