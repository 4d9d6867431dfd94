"""The real board through gpiozero: reed switches on a chain of 74HC165 shift registers read
over SPI, and the players' buttons on GPIO inputs.

gpiozero is imported only when a device opens, so this module imports on any machine; a
missing library, pin factory or SPI bus fails at :meth:`start` with one line that says what
to do. Tests run the real gpiozero code on its ``MockFactory``.

Reading the chain (wiring in ``hardware/wiring.md``): SH/LD pulsed low loads every input at
once, then SPI clocks the bits out of the first chip's QH (the chip nearest the Pi): its H
input first, down to A, then the next chip's H. Read MSB first, byte ``k`` is chip ``k`` with
input H in bit 7, so the little-endian integer of the bytes has chip ``k``'s input ``j``
(A=0 ... H=7) in bit ``8k + j``, the bit index of :class:`~bgpi.hal.api.SensorFrame`.
"""

from __future__ import annotations

import logging
import os
import platform
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Final, TypeVar

from bgpi.base.words import BUTTONS, COLOUR_NAMES, PLAYERS, ButtonName, Player
from bgpi.hal.api import ButtonEvent, Clock, Closing, Emit, SensorFrame
from bgpi.hal.device import LinkDownError, ScannedSensors
from bgpi.hal.errors import INSTALL, BackendClosedError, BackendUnavailableError, one_line
from bgpi.hal.machines import NEEDED, UNSUPPORTED
from bgpi.hal.pins import PinMap

log = logging.getLogger(__name__)

# 200 scans a second: a checker set down is seen within 5 ms, a bouncing reed (about 1 ms)
# is caught mid-bounce at most once or twice, and reading 19 bytes at gpiozero's 500 kHz
# keeps the SPI bus busy about 7 % of the time.
DEFAULT_SCAN_HZ: Final = 200.0
# CPOL 1, CPHA 0: the Pi samples QH on the falling clock edge, half a period after the
# 74HC165 shifted on the rising one, so the first bit (present before any clock) is not lost.
SPI_MODE: Final = 2
DEFAULT_BOUNCE_TIME: Final = 0.02
# Fifteen checkers a side: no settled board closes more switches. A chain whose data line
# floats low (a loose cable, an unpowered chip) reads every input closed.
MAX_CLOSED: Final = 30

GPIO_GROUP: Final = "add the user to the gpio group (sudo usermod -aG gpio $USER)"
NO_PIN_FACTORY: Final = (
    f"the gpio backend found no GPIO library: on a Raspberry Pi install lgpio ({INSTALL}) and "
    f'{GPIO_GROUP}; elsewhere use backend = "sim"'
)
# Where lgpio opens the GPIO chip (gpiozero picks gpiochip0, or gpiochip4 on some Pi 5 kernels).
GPIO_CHIPS: Final = Path("/dev")
SPI_OFF: Final = (
    "the gpio backend cannot open SPI0: enable it (sudo raspi-config nonint do_spi 0, or "
    "dtparam=spi=on in /boot/firmware/config.txt), reboot, and add the user to the spi group "
    "(sudo usermod -aG spi $USER)"
)

_T = TypeVar("_T")


def gpiozero_module() -> ModuleType:
    try:
        import gpiozero  # noqa: PLC0415 - hardware libraries load only when a backend opens
    except ImportError:
        raise BackendUnavailableError(f"the gpio backend needs gpiozero: {INSTALL}") from None
    module: ModuleType = gpiozero
    return module


def open_device(what: str, make: Callable[[], _T]) -> _T:
    """Run ``make`` (which opens gpiozero devices), turning a failure into one clear line."""
    gz = gpiozero_module()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            device = make()
        except gz.BadPinFactory as exc:
            reasons = [str(w.message) for w in caught if issubclass(w.category, gz.PinWarning)]
            reason = reasons[0] if reasons else str(exc)
            raise BackendUnavailableError(no_pin_factory(reason)) from None
        except Exception as exc:  # whatever the library raised becomes one line
            raise BackendUnavailableError(
                f"the gpio backend cannot open {what}: {one_line(exc)}"
            ) from None
    fell_back = False
    for warning in caught:
        if issubclass(warning.category, gz.SPISoftwareFallback):
            fell_back = True
        else:
            warnings.warn_explicit(
                warning.message, warning.category, warning.filename, warning.lineno
            )
    if fell_back:
        # Bit-banging 152 bits from Python would hold the CPU; a disabled SPI bus is a setup
        # mistake to fix, not to work around.
        getattr(device, "close", lambda: None)()
        raise BackendUnavailableError(SPI_OFF)
    return device


def no_pin_factory(reason: str) -> str:
    """Why gpiozero found no pin factory, in one line: this machine, lgpio or the GPIO chip
    (``reason``: gpiozero's, when none of those explains it)."""
    try:
        import lgpio  # noqa: F401, PLC0415 - only to tell a missing library from a missing chip
    except ImportError:
        found = False
    else:
        found = True
    return explain_no_pin_factory(
        reason, machine=platform.machine(), lgpio_found=found, chips=open_chips(GPIO_CHIPS)
    )


def open_chips(dev: Path) -> list[tuple[Path, OSError | None]]:
    """Each GPIO chip device in ``dev``, with the error opening it gave (None: it opens)."""
    chips: list[tuple[Path, OSError | None]] = []
    for path in sorted(dev.glob("gpiochip*")):
        try:
            os.close(os.open(path, os.O_RDWR | os.O_CLOEXEC))
        except OSError as exc:
            chips.append((path, exc))
        else:
            chips.append((path, None))
    return chips


def explain_no_pin_factory(
    reason: str,
    *,
    machine: str,
    lgpio_found: bool,
    chips: Sequence[tuple[Path, OSError | None]],
) -> str:
    """The message for no pin factory, from what is known of the machine: an unsupported
    Pi, no lgpio, no GPIO chip device, one this user may not open; else gpiozero's reason."""
    if machine in UNSUPPORTED:
        return f"the gpio backend does not support {UNSUPPORTED[machine]}: bgpi needs {NEEDED}"
    if not lgpio_found:
        return f"{NO_PIN_FACTORY} ({reason})"
    if not chips:
        return (
            f"the gpio backend found lgpio but no GPIO chip (no {GPIO_CHIPS}/gpiochip*): not a "
            'Raspberry Pi, or a container not given the devices; elsewhere use backend = "sim"'
        )
    refused = [(path, error) for path, error in chips if error is not None]
    if len(refused) == len(chips):
        path, error = refused[0]
        if isinstance(error, PermissionError):
            return f"the gpio backend may not open {path}: {GPIO_GROUP} and log in again"
        return f"the gpio backend cannot open {path}: {one_line(error)}"
    return f"the gpio backend cannot use lgpio: {reason}"


@dataclass(frozen=True, slots=True)
class ChainSettings:
    """How the shift-register chain is read.

    ``scan_hz``: scans a second. ``closed_low``: a closed reed pulls its input to ground (the
    wiring in ``hardware/``); frames have a 1 for a closed switch either way. ``spi_mode``:
    the SPI clock mode (see :data:`SPI_MODE`). ``max_closed``: a scan with more closed
    switches is a fault, not a frame (``None``: no such check).
    """

    scan_hz: float = DEFAULT_SCAN_HZ
    closed_low: bool = True
    spi_mode: int = SPI_MODE
    max_closed: int | None = MAX_CLOSED

    def __post_init__(self) -> None:
        if not self.scan_hz > 0:
            raise ValueError(f"scan_hz must be positive, got {self.scan_hz}")
        if self.spi_mode not in (0, 1, 2, 3):
            raise ValueError(f"spi_mode {self.spi_mode!r} is not 0, 1, 2 or 3")


class GpioSensors(ScannedSensors):
    """The reed switches: ``nbits`` inputs on a chain of 74HC165, scanned by a thread that
    emits a frame whenever one differs from the last (the thread's life and its faults are
    :class:`~bgpi.hal.device.ScannedSensors`').

    A read is a fault, not a frame, when SPI fails, answers short, or shows more closed
    switches than ``settings.max_closed`` (a board holds 30 checkers: a chain reading more is
    a loose cable or a dead chip, whose data line floats low).

    ``pin_factory``: a gpiozero pin factory (gpiozero's default when ``None``). ``clock``: the
    timestamps of frames.
    """

    what = "gpio sensors"

    def __init__(
        self,
        nbits: int = 152,
        *,
        pins: PinMap | None = None,
        settings: ChainSettings | None = None,
        pin_factory: Any = None,
        clock: Clock = time.monotonic,
    ) -> None:
        if nbits < 1:
            raise ValueError(f"a sensor chain has at least one bit, got {nbits}")
        super().__init__(nbits, clock=clock)
        self.pins = pins if pins is not None else PinMap()
        self.settings = settings if settings is not None else ChainSettings()
        self._pin_factory = pin_factory
        self._mask = (1 << nbits) - 1
        self._latch: Any = None
        self._spi: Any = None
        self._due = 0.0

    @property
    def chips(self) -> int:
        """How many 74HC165 the chain needs (eight inputs each)."""
        return (self._nbits + 7) // 8

    def read(self) -> SensorFrame:
        """Scan the chain now; after :meth:`start`, a changed frame is also emitted."""
        with self._lock:
            frame = self._read_chain()
            self._deliver(frame)
            return frame

    def _read_chain(self) -> SensorFrame:
        self._open()
        self._latch.off()
        self._latch.on()
        data = bytes(self._spi.read(self.chips))
        timestamp = self._clock()
        if len(data) != self.chips:
            raise LinkDownError(
                f"the sensor chain answered {len(data)} of {self.chips} bytes: check its cable"
            )
        raw = int.from_bytes(data, "little") & self._mask
        return SensorFrame(
            raw ^ self._mask if self.settings.closed_low else raw, self._nbits, timestamp
        )

    def _open_frame(self) -> SensorFrame:
        self._due = time.monotonic()
        return self._read_chain()

    def _scan(self) -> None:
        try:
            with self._lock:
                self._check_open()
                frame = self._read_chain()
        except (LinkDownError, BackendClosedError):
            raise
        except Exception as exc:  # whatever the SPI library raised
            raise LinkDownError(f"reading the sensor chain failed: {one_line(exc)}") from None
        closed = frame.bits.bit_count()
        if self.settings.max_closed is not None and closed > self.settings.max_closed:
            raise LinkDownError(
                f"the sensor chain reads {closed} closed switches, more than a board's "
                f"{self.settings.max_closed} checkers: a loose chain cable or a dead chip"
            )
        self._deliver(frame)
        self._wait_for_next_scan()

    def _wait_for_next_scan(self) -> None:
        self._due += 1.0 / self.settings.scan_hz
        delay = self._due - time.monotonic()
        if delay < 0:
            # Behind (a slow machine, a long LED write): skip the missed scans, no burst.
            self._due, delay = time.monotonic(), 0.0
        self._stop.wait(delay)

    def _lost(self, reason: str) -> None:
        pass  # the SPI device stays open: the next read tries the chain again

    def _retry_delay(self, failures: int) -> float:
        self._due = time.monotonic()
        return float(min(0.05 * 2 ** (failures - 1), 2.0))

    def _release(self) -> None:
        for device in (self._spi, self._latch):
            if device is not None:
                device.close()
        self._spi = self._latch = None

    def _open(self) -> None:
        self._check_open()
        if self._spi is not None:
            return
        gz = gpiozero_module()
        pins = self.pins
        self._latch = open_device(
            f"the latch (SH/LD) on GPIO{pins.sensor_latch}",
            lambda: gz.DigitalOutputDevice(
                pins.sensor_latch, initial_value=True, pin_factory=self._pin_factory
            ),
        )
        factory = self._latch.pin_factory

        def make_spi() -> Any:
            spi = factory.spi(
                clock_pin=pins.sensor_clock,
                mosi_pin=None,
                miso_pin=pins.sensor_data,
                select_pin=pins.sensor_select,
            )
            try:
                spi.clock_mode = self.settings.spi_mode
            except BaseException:
                spi.close()
                raise
            return spi

        try:
            self._spi = open_device(
                f"the sensor SPI (clock GPIO{pins.sensor_clock}, data GPIO{pins.sensor_data}, "
                f"select GPIO{pins.sensor_select})",
                make_spi,
            )
        except BaseException:
            self._latch.close()
            self._latch = None
            raise


class GpioButtons(Closing):
    """The four buttons, each between its GPIO and ground, on the Pi's internal pull-ups."""

    def __init__(
        self,
        *,
        pins: PinMap | None = None,
        bounce_time: float = DEFAULT_BOUNCE_TIME,
        pin_factory: Any = None,
        clock: Clock = time.monotonic,
    ) -> None:
        self.pins = pins if pins is not None else PinMap()
        self.bounce_time = bounce_time
        self._pin_factory = pin_factory
        self._clock = clock
        self._buttons: list[Any] = []
        self._closed = False

    def start(self, emit: Emit) -> None:
        """Open the buttons and emit a :class:`ButtonEvent` on every press and release."""
        if self._closed:
            raise BackendClosedError("the gpio buttons are closed")
        if self._buttons:
            raise RuntimeError("the buttons are already started")
        gz = gpiozero_module()
        try:
            for player in PLAYERS:
                for name in BUTTONS:
                    self._buttons.append(self._button(gz, player, name, emit))
        except BaseException:
            self._release()
            raise

    def close(self) -> None:
        self._closed = True
        self._release()

    def _button(self, gz: ModuleType, player: Player, name: ButtonName, emit: Emit) -> Any:
        gpio = self.pins.button(player, name)
        button = open_device(
            f"the {COLOUR_NAMES[player]} {name} button on GPIO{gpio}",
            lambda: gz.Button(
                gpio, pull_up=True, bounce_time=self.bounce_time, pin_factory=self._pin_factory
            ),
        )

        def pressed() -> None:
            emit(ButtonEvent(player, name, True, self._clock()))

        def released() -> None:
            emit(ButtonEvent(player, name, False, self._clock()))

        button.when_pressed = pressed
        button.when_released = released
        return button

    def _release(self) -> None:
        buttons, self._buttons = self._buttons, []
        for button in buttons:
            button.close()
