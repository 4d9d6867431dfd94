"""The Raspberry Pi pins bgpi uses, as BCM GPIO numbers; ``hardware/pins.md`` draws the same
table (a test keeps the two equal).

The sensor chain (SPI mode 2) and the LEDs (mode 0) have a bus each: the chain SPI0 on CE1,
the strip SPI1's MOSI. On one shared bus a controller that sets the clock's idle level only
after it has selected the device (the Pi 5's RP1 may) would give the chain a clock edge
while CLK INH is low, shifting every reading by a bit. I2C and the UART stay free.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Final

from bgpi.base.i18n import _
from bgpi.base.words import BLACK, WHITE, ButtonName, Player

# The hardware SPI0 pins; a chain wired elsewhere works through gpiozero's (slow) software SPI.
SPI0_SCLK: Final = 11
SPI0_MOSI: Final = 10
SPI0_MISO: Final = 9
SPI0_CE0: Final = 8
SPI0_CE1: Final = 7
# SPI1 (``dtoverlay=spi1-1cs``): the LEDs need only its MOSI; its CE0 claims GPIO18.
SPI1_SCLK: Final = 21
SPI1_MOSI: Final = 20
SPI1_CE0: Final = 18

# The LED strip's data pin: SPI MOSI -> bus number (``wiring = "spi"``) ...
SPI_MOSI_BUSES: Final = {SPI0_MOSI: 0, SPI1_MOSI: 1}
# ... or a pin with a PWM, PCM or SPI peripheral that rpi_ws281x drives (``wiring = "pwm"``):
# GPIO12/18 PWM channel 0, GPIO13/19 channel 1, GPIO21 PCM, GPIO10 SPI0.
PWM_PINS: Final = (10, 12, 13, 18, 19, 21)


def led_pin_error(wiring: str, gpio: int) -> str:
    """Why ``gpio`` cannot carry the LED data with ``wiring`` ("spi" or "pwm"), or ``""``."""
    if wiring == "spi" and gpio not in SPI_MOSI_BUSES:
        return (
            f"GPIO{gpio} is no SPI MOSI: the spi wiring needs GPIO{SPI0_MOSI} (SPI0) or "
            f"GPIO{SPI1_MOSI} (SPI1)"
        )
    if wiring == "pwm" and gpio not in PWM_PINS:
        pins = ", ".join(f"GPIO{pin}" for pin in PWM_PINS)
        return f"GPIO{gpio} has no PWM, PCM or SPI output for the pwm wiring: use one of {pins}"
    return ""


# The buzzer's suggested pin (hardware/pins.md): free of every use above and of the pins
# the SPI overlays claim, and beside a ground (header pins 13 and 14) for a two-wire piezo.
BUZZER_PIN: Final = 27
# Pins the kernel holds: SPI0's (dtparam=spi=on, the sensor chain), and SPI1's with the
# LEDs' spi wiring (dtoverlay=spi1-1cs claims GPIO18-21).
SPI0_CLAIMED: Final = (SPI0_CE1, SPI0_CE0, SPI0_MISO, SPI0_MOSI, SPI0_SCLK)
SPI1_CLAIMED: Final = (SPI1_CE0, 19, SPI1_MOSI, SPI1_SCLK)


def buzzer_pin_error(gpio: int, pins: PinMap, led_wiring: str = "spi") -> str:
    """Why ``gpio`` cannot drive the buzzer beside ``pins``, or ``""``."""
    if not 2 <= gpio <= 27:
        return _("{gpio} is not a header GPIO free for output (2-27)").format(gpio=gpio)
    for name, used in pins.as_dict().items():
        if used == gpio:
            return _("GPIO{gpio} is already {name} ([pins])").format(gpio=gpio, name=name)
    claimed = SPI0_CLAIMED + (SPI1_CLAIMED if led_wiring == "spi" else ())
    if gpio in claimed:
        return _(
            "GPIO{gpio} is held by an SPI bus of the sensors or LEDs: try GPIO{suggested}"
        ).format(gpio=gpio, suggested=BUZZER_PIN)
    return ""


@dataclass(frozen=True, slots=True)
class PinMap:
    """BCM GPIO numbers of everything wired to the Pi's header."""

    sensor_clock: int = SPI0_SCLK
    sensor_data: int = SPI0_MISO
    sensor_select: int = SPI0_CE1
    sensor_latch: int = 25
    led_data: int = SPI1_MOSI
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

    def button(self, player: Player, button: ButtonName) -> int:
        """The GPIO of ``player``'s ``button``."""
        gpios: dict[tuple[Player, ButtonName], int] = {
            (WHITE, "roll"): self.white_roll,
            (WHITE, "cube"): self.white_cube,
            (BLACK, "roll"): self.black_roll,
            (BLACK, "cube"): self.black_cube,
        }
        return gpios[player, button]

    def as_dict(self) -> dict[str, int]:
        """``{name: gpio}`` in declaration order."""
        return {f.name: getattr(self, f.name) for f in fields(self)}
