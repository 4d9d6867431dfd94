"""The Raspberry Pi pins bgpi uses, as BCM GPIO numbers; ``hardware/pins.md`` draws the same
table (a test keeps the two equal).

One SPI bus (SPI0) serves both the sensor chain and the LEDs: the 74HC165 chain answers on
CE1, its clock gated by CE1 through CLK INH, so the LED writes on MOSI (device CE0, the one
Adafruit's ``board.SPI()`` opens) never shift it. SPI1, I2C and the UART stay free.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Final

from bgpi.words import BLACK, WHITE, ButtonName

# The hardware SPI0 pins; a chain wired elsewhere works through gpiozero's (slow) software SPI.
SPI0_SCLK: Final = 11
SPI0_MOSI: Final = 10
SPI0_MISO: Final = 9
SPI0_CE0: Final = 8
SPI0_CE1: Final = 7


@dataclass(frozen=True, slots=True)
class PinMap:
    """BCM GPIO numbers of everything wired to the Pi's header."""

    sensor_clock: int = SPI0_SCLK
    sensor_data: int = SPI0_MISO
    sensor_select: int = SPI0_CE1
    sensor_latch: int = 25
    led_data: int = SPI0_MOSI
    white_roll: int = 5
    white_cube: int = 6
    black_roll: int = 13
    black_cube: int = 26

    def __post_init__(self) -> None:
        seen: dict[int, str] = {}
        for f in fields(self):
            gpio = getattr(self, f.name)
            if not isinstance(gpio, int) or not 0 <= gpio <= 27:
                raise ValueError(f"{f.name} is {gpio!r}, not a header GPIO (0-27)")
            if gpio in seen:
                raise ValueError(f"GPIO{gpio} is given to both {seen[gpio]} and {f.name}")
            seen[gpio] = f.name

    def button(self, player: int, button: ButtonName) -> int:
        """The GPIO of ``player``'s ``button``."""
        return {
            (WHITE, "roll"): self.white_roll,
            (WHITE, "cube"): self.white_cube,
            (BLACK, "roll"): self.black_roll,
            (BLACK, "cube"): self.black_cube,
        }[player, button]

    def as_dict(self) -> dict[str, int]:
        """``{name: gpio}`` in declaration order."""
        return {f.name: getattr(self, f.name) for f in fields(self)}
