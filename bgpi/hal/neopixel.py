"""WS2812 ("NeoPixel") strips through Adafruit's libraries.

Two wirings (``hardware/wiring.md``):

- ``"spi"`` (recommended): ``neopixel_spi`` writes the strip's bit stream on SPI MOSI, GPIO20
  (SPI1, the default) or GPIO10 (SPI0). No root, and it works the same on the Pi 3, 4, 5 and
  Zero 2 W. A frame must leave as *one* SPI transfer: a pause inside it longer than the
  strip's reset time makes the pixels after it show the colours meant for the first ones.
  Adafruit_PureIO cuts writes into ``SPI_BUFSIZE`` bytes (4096 when unset), and the kernel's
  spidev refuses a transfer longer than its ``bufsiz``; :func:`spi_driver` sets the first and
  checks the second.
- ``"pwm"``: ``neopixel`` on GPIO18 (or 12, 21, 10). Needs root; on a Pi 3/4 it runs through
  ``rpi_ws281x``, on a Pi 5 through ``Adafruit-Blinka-Raspberry-Pi5-Neopixel``.

Both drivers are Adafruit ``PixelBuf`` objects, which hold colour order and brightness and touch
the hardware only in ``_transmit``; :class:`NeoPixelStrip` takes a driver factory, so tests
run the real ``PixelBuf`` with the transmission captured.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import partial
from itertools import permutations
from pathlib import Path
from typing import Any, Final, Literal, Protocol

from bgpi.base.words import RGB
from bgpi.hal.api import Closing, check_frame
from bgpi.hal.errors import INSTALL, BackendClosedError, BackendUnavailableError, one_line
from bgpi.hal.pins import SPI1_MOSI, SPI_MOSI_BUSES, led_pin_error

Wiring = Literal["spi", "pwm"]

PWM_PACKAGES: Final = (
    "adafruit-circuitpython-neopixel, plus rpi_ws281x on a Pi 3/4 or "
    "Adafruit-Blinka-Raspberry-Pi5-Neopixel on a Pi 5"
)
DEFAULT_PWM_PIN: Final = 18
# SPI bus -> Blinka's names of its clock and MOSI pins.
_BLINKA_PINS: Final = {0: ("SCLK", "MOSI"), 1: ("SCLK_1", "MOSI_1")}
# Every order of a strip's colour bytes that Adafruit's PixelBuf takes: RGB strips (WS2812)
# and RGBW strips (SK6812 RGBW), whose white channel bgpi leaves dark.
PIXEL_ORDERS: Final = tuple(
    "".join(order) for size in ("RGB", "RGBW") for order in permutations(size)
)
# neopixel_spi sends each bit of the strip as one SPI byte at 6.4 MHz, with 80 us of low
# (64 bytes) before and after the frame.
SPI_BITS_PER_BYTE: Final = 8
SPI_RESET_BYTES: Final = 64
# Where the kernel's spidev says how long a transfer it takes.
SPIDEV_BUFSIZ: Final = Path("/sys/module/spidev/parameters/bufsiz")


def pixel_order_error(order: str) -> str:
    """Why ``order`` is not a strip's byte order bgpi can drive, or ``""``."""
    if order in PIXEL_ORDERS:
        return ""
    return f"{order!r} is not an order of R, G, B (and W for an RGBW strip), such as GRB or GRBW"


def spi_frame_bytes(count: int, pixel_order: str) -> int:
    """The bytes of one SPI transfer that shows ``count`` pixels of ``pixel_order``."""
    return SPI_BITS_PER_BYTE * count * len(pixel_order) + 2 * SPI_RESET_BYTES


class PixelDriver(Protocol):
    """What bgpi uses of an Adafruit ``PixelBuf`` (``NeoPixel_SPI``, ``NeoPixel``)."""

    def __len__(self) -> int: ...

    def __setitem__(self, index: slice, value: list[RGB]) -> None: ...

    def fill(self, color: RGB) -> None: ...

    def show(self) -> None: ...


class DriverFactory(Protocol):
    """Makes a driver for ``count`` pixels that writes only on ``show()``."""

    def __call__(self, count: int, *, pixel_order: str, brightness: float) -> PixelDriver: ...


def _quiet_blinka() -> None:
    # Blinka offers, on a terminal, to pip-install platform packages when `board` is imported;
    # bgpi says itself what is missing, in one line, and never installs behind the user's back.
    os.environ.setdefault("BLINKA_SKIP_DEPENDENCY_CHECK", "1")


def spi_driver(
    count: int,
    *,
    pixel_order: str,
    brightness: float,
    data_pin: int = SPI1_MOSI,
    spi: Any = None,
    bufsiz: Path = SPIDEV_BUFSIZ,
) -> PixelDriver:
    """A ``neopixel_spi.NeoPixel_SPI`` on the SPI bus whose MOSI is ``data_pin``, or on
    ``spi`` (a ``busio.SPI``-like bus) when given. ``bufsiz`` is the kernel's limit."""
    _quiet_blinka()
    if spi is None:
        _one_transfer(spi_frame_bytes(count, pixel_order), bufsiz)
    try:
        import neopixel_spi  # noqa: PLC0415 - hardware libraries load only when a backend opens
    except ImportError:
        raise BackendUnavailableError(
            "the neopixel backend (SPI wiring) needs adafruit-circuitpython-neopixel-spi: "
            + INSTALL
        ) from None
    if spi is None:
        spi = _spi_bus(data_pin)
    try:
        driver: PixelDriver = neopixel_spi.NeoPixel_SPI(
            spi, count, pixel_order=pixel_order, brightness=brightness, auto_write=False
        )
    except Exception as exc:  # whatever the library raised becomes one line
        raise BackendUnavailableError(
            f"the neopixel backend cannot start the strip on SPI: {one_line(exc)}"
        ) from None
    return driver


def _one_transfer(frame: int, bufsiz: Path) -> None:
    """Make a frame of ``frame`` bytes leave as one SPI transfer, or say why it cannot."""
    try:
        limit = int(bufsiz.read_text())
    except (OSError, ValueError):
        limit = None  # spidev not loaded (yet): opening the bus will say so
    if limit is not None and limit < frame:
        raise BackendUnavailableError(
            f"the neopixel backend needs spidev's buffer to hold a frame of {frame} bytes, "
            f"but {bufsiz} is {limit}: put 'options spidev bufsiz=32768' in "
            "/etc/modprobe.d/bgpi-spidev.conf (scripts/install.sh does) and reboot"
        )
    # Read by Adafruit_PureIO when the bus opens; below the frame it would cut the frame in
    # two transfers, with a pause between them in which the strip may latch.
    current = os.environ.get("SPI_BUFSIZE", "")
    if not current.isdigit() or int(current) < frame:
        os.environ["SPI_BUFSIZE"] = str(max(frame, limit or 0))


def _spi_bus(data_pin: int) -> Any:
    if data_pin not in SPI_MOSI_BUSES:
        raise ValueError(led_pin_error("spi", data_pin))
    bus = SPI_MOSI_BUSES[data_pin]
    clock, mosi = _BLINKA_PINS[bus]
    try:
        import board  # noqa: PLC0415
        import busio  # noqa: PLC0415
    except ImportError as exc:  # Blinka itself, or a platform module it needs (gpiod)
        missing = exc.name or "Adafruit-Blinka"
        raise BackendUnavailableError(f"the neopixel backend needs {missing}: {INSTALL}") from None
    except Exception as exc:  # Blinka refuses machines it does not know
        raise BackendUnavailableError(
            f"the neopixel backend cannot drive this machine: {one_line(exc)}"
        ) from None
    try:
        return busio.SPI(getattr(board, clock), MOSI=getattr(board, mosi))
    except Exception as exc:  # a missing /dev/spidev, a permission, an unknown pin
        overlay = ", and dtoverlay=spi1-1cs for SPI1" if bus else ""
        raise BackendUnavailableError(
            f"the neopixel backend cannot open SPI{bus} ({one_line(exc)}): enable it "
            f"(dtparam=spi=on in /boot/firmware/config.txt{overlay}), reboot, and add the "
            "user to the spi group (sudo usermod -aG spi $USER)"
        ) from None


def pwm_driver(
    count: int, *, pixel_order: str, brightness: float, data_pin: int = DEFAULT_PWM_PIN
) -> PixelDriver:
    """A ``neopixel.NeoPixel`` on GPIO ``data_pin`` (PWM or PCM; needs root)."""
    _quiet_blinka()
    try:
        import board  # noqa: PLC0415
        import neopixel  # noqa: PLC0415
    except ImportError as exc:
        raise BackendUnavailableError(
            f"the neopixel backend (PWM wiring) needs {PWM_PACKAGES} "
            f"(missing: {exc.name or exc}): {INSTALL}"
        ) from None
    except Exception as exc:  # Blinka's own missing-platform-package message, shortened
        raise BackendUnavailableError(
            f"the neopixel backend (PWM wiring) needs {PWM_PACKAGES}: {one_line(exc)}"
        ) from None
    pin = getattr(board, f"D{data_pin}", None)
    if pin is None:
        raise ValueError(f"GPIO{data_pin} is not a pin of this board")
    try:
        driver: PixelDriver = neopixel.NeoPixel(
            pin, count, pixel_order=pixel_order, brightness=brightness, auto_write=False
        )
    except Exception as exc:  # whatever the library raised becomes one line
        raise BackendUnavailableError(
            f"the neopixel backend cannot start the strip on GPIO{data_pin}: {one_line(exc)}"
        ) from None
    return driver


def _wiring_driver(wiring: str, data_pin: int | None) -> DriverFactory:
    """The driver factory of ``wiring`` on ``data_pin`` (its default when None)."""
    if wiring not in ("spi", "pwm"):
        raise ValueError(f"wiring {wiring!r} is not 'spi' or 'pwm'")
    pin = data_pin if data_pin is not None else SPI1_MOSI if wiring == "spi" else DEFAULT_PWM_PIN
    error = led_pin_error(wiring, pin)
    if error:
        raise ValueError(error)
    return partial(spi_driver if wiring == "spi" else pwm_driver, data_pin=pin)


class NeoPixelStrip(Closing):
    """A strip of ``count`` WS2812 pixels showing whole frames.

    ``brightness`` (0 to 1) is a fixed cap applied by the driver, for a strip too bright at
    full power; dimming and power budgets are the renderer's. ``pixel_order`` is the order
    the strip wants its bytes in: GRB for WS2812. ``driver`` overrides the wiring's factory.
    """

    def __init__(
        self,
        count: int,
        *,
        brightness: float = 1.0,
        pixel_order: str = "GRB",
        wiring: Wiring = "spi",
        data_pin: int | None = None,
        driver: DriverFactory | None = None,
    ) -> None:
        if count < 1:
            raise ValueError(f"a strip has at least one pixel, got {count}")
        if not 0.0 <= brightness <= 1.0:
            raise ValueError(f"brightness is {brightness!r}, not between 0 and 1")
        if pixel_order_error(pixel_order):
            raise ValueError(f"pixel_order {pixel_order_error(pixel_order)}")
        if driver is None:
            driver = _wiring_driver(wiring, data_pin)
        self.wiring = wiring
        self.brightness = brightness
        self.pixel_order = pixel_order
        self._count = count
        self._driver = driver(count, pixel_order=pixel_order, brightness=brightness)
        if len(self._driver) != count:
            raise ValueError(f"the driver holds {len(self._driver)} pixels, not {count}")
        self._closed = False
        try:
            self._dark()
        except Exception as exc:  # the first write finds a strip that cannot be driven
            hint = "; the PWM wiring needs root, the SPI wiring does not" if wiring == "pwm" else ""
            raise BackendUnavailableError(
                f"the neopixel backend cannot write to the strip: {one_line(exc)}{hint}"
            ) from None

    def __len__(self) -> int:
        return self._count

    def show(self, frame: Sequence[RGB]) -> None:
        """Show ``frame``: one write to the strip."""
        if self._closed:
            raise BackendClosedError("the LED strip is closed")
        self._driver[:] = list(check_frame(frame, self._count))
        self._driver.show()

    def close(self) -> None:
        """Turn the strip dark and release it."""
        if self._closed:
            return
        self._closed = True
        self._dark()
        deinit = getattr(self._driver, "deinit", None)
        if deinit is not None:
            deinit()

    def _dark(self) -> None:
        self._driver.fill((0, 0, 0))
        self._driver.show()
