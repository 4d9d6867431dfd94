"""A chain of 74HC165 on gpiozero's mock pins, wired as ``hardware/wiring.md`` says, so the
gpio backend's reads go through the real gpiozero SPI code down to simulated pin edges.

The model is the chip's, not a byte source: SH/LD low loads every input, QH shows the first
chip's H input at once, and each rising edge of (CLK OR CLK INH) shifts the chain by one, with
the last chip's SER tied to ground. A backend that sampled on the wrong edge would lose a bit.
"""

from __future__ import annotations

from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin, MockSPIDevice

from bgpi.hal.pins import PinMap


class _LatchPin(MockPin):
    """The SH/LD line, telling the chain when it falls and rises."""

    chain: ShiftRegisterChain | None = None

    def _change_state(self, value: bool) -> Any:
        changed = super()._change_state(value)
        if changed and self.chain is not None:
            self.chain.on_latch(value)
        return changed


def _reverse_byte(byte: int) -> int:
    return int(f"{byte:08b}"[::-1], 2)


class ShiftRegisterChain(MockSPIDevice):
    """``chips`` 74HC165 in a chain; ``closed`` holds the reed switches, bit ``8k + j`` for
    input ``j`` (A=0 ... H=7) of chip ``k``, chip 0 nearest the Pi. A closed reed pulls its
    input low; an open one is pulled up."""

    def __init__(self, chips: int, factory: MockFactory, pins: PinMap | None = None) -> None:
        pins = pins or PinMap()
        self.chips = chips
        self.closed = 0
        self.loads = 0
        self._register = 0
        self._latch = factory.pin(pins.sensor_latch, pin_class=_LatchPin)
        self._latch.chain = self
        super().__init__(
            pins.sensor_clock,
            None,
            pins.sensor_data,
            pins.sensor_select,
            pin_factory=factory,
        )
        self._clock_or_inhibit = self._effective_clock()

    @property
    def levels(self) -> int:
        """The input levels: high (1) where the reed is open."""
        return ~self.closed & ((1 << 8 * self.chips) - 1)

    def on_latch(self, level: bool) -> None:
        if not level:
            self.loads += 1
            levels = self.levels
            self._register = 0
            for chip in range(self.chips):
                self._register |= _reverse_byte(levels >> 8 * chip & 0xFF) << 8 * chip
            self._drive()

    def on_clock(self) -> None:
        self._edge()

    def on_select(self) -> None:
        self._edge()

    def _effective_clock(self) -> bool:
        # CLK INH is wired to CE1: the chips see CLK OR CE1.
        return bool(self.clock_pin.state) or bool(self.select_pin.state)

    def _edge(self) -> None:
        level = self._effective_clock()
        rising = level and not self._clock_or_inhibit
        self._clock_or_inhibit = level
        if rising and self._latch.state:
            self._register >>= 1
            self._drive()

    def _drive(self) -> None:
        if self._register & 1:
            self.miso_pin.drive_high()
        else:
            self.miso_pin.drive_low()
