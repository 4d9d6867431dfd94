"""The hardware layer: interfaces (:mod:`bgpi.hal.api`), the sensor geometry, dice, and the
backends that drive a real or simulated board.

Importing this package touches no hardware library: a backend module is imported only when
one of the ``open_*`` functions is asked for it by name.
"""

from __future__ import annotations

from typing import Any, Final

from bgpi.hal.api import (
    ButtonEvent,
    Buttons,
    Clock,
    Dice,
    Emit,
    Event,
    Pixels,
    SensorEvent,
    SensorFrame,
    Sensors,
)
from bgpi.hal.dice import SeededDice, SystemDice
from bgpi.hal.errors import (
    BackendClosedError,
    BackendUnavailableError,
    GeometryError,
    HalError,
    PixelFrameError,
    UnknownBackendError,
)
from bgpi.hal.geometry import Geometry
from bgpi.hal.pins import PinMap
from bgpi.words import (
    BAR_BLACK,
    BAR_WHITE,
    BLACK,
    BUTTONS,
    CUBE,
    PLAYERS,
    POINTS,
    RGB,
    ROLL,
    TRAY_BLACK,
    TRAY_WHITE,
    WHITE,
    ZONES,
    ButtonName,
    Zone,
    bar_zone,
    tray_zone,
    zone_name,
)

SENSOR_BACKENDS: Final = ("sim", "gpio", "serial")
BUTTON_BACKENDS: Final = ("sim", "gpio")
PIXEL_BACKENDS: Final = ("sim", "neopixel")


def _unknown(kind: str, name: str, known: tuple[str, ...]) -> UnknownBackendError:
    return UnknownBackendError(f"unknown {kind} backend {name!r}: choose one of {', '.join(known)}")


def open_sensors(backend: str, geometry: Geometry | None = None, **options: Any) -> Sensors:
    """The reed switches of ``backend`` (``"sim"``, ``"gpio"`` or ``"serial"``) for ``geometry``
    (default: :meth:`Geometry.default`); ``options`` go to :class:`~bgpi.hal.sim.SimBoard`,
    :class:`~bgpi.hal.gpio.GpioSensors` or :class:`~bgpi.hal.serial.SerialSensors`."""
    geometry = geometry if geometry is not None else Geometry.default()
    if backend == "sim":
        from bgpi.hal.sim import SimBoard  # noqa: PLC0415 - load only the chosen backend

        return SimBoard(geometry, **options)
    if backend == "gpio":
        from bgpi.hal.gpio import GpioSensors  # noqa: PLC0415

        return GpioSensors(geometry.nbits, **options)
    if backend == "serial":
        from bgpi.hal.serial import SerialSensors  # noqa: PLC0415

        return SerialSensors(geometry.nbits, **options)
    raise _unknown("sensor", backend, SENSOR_BACKENDS)


def open_buttons(backend: str, **options: Any) -> Buttons:
    """The players' buttons of ``backend`` (``"sim"`` or ``"gpio"``)."""
    if backend == "sim":
        from bgpi.hal.sim import SimButtons  # noqa: PLC0415

        return SimButtons(**options)
    if backend == "gpio":
        from bgpi.hal.gpio import GpioButtons  # noqa: PLC0415

        return GpioButtons(**options)
    raise _unknown("button", backend, BUTTON_BACKENDS)


def open_pixels(backend: str, count: int, **options: Any) -> Pixels:
    """An LED strip of ``count`` pixels from ``backend`` (``"sim"`` or ``"neopixel"``)."""
    if backend == "sim":
        from bgpi.hal.sim import SimPixels  # noqa: PLC0415

        return SimPixels(count, **options)
    if backend == "neopixel":
        from bgpi.hal.neopixel import NeoPixelStrip  # noqa: PLC0415

        return NeoPixelStrip(count, **options)
    raise _unknown("pixel", backend, PIXEL_BACKENDS)


__all__ = [
    "BAR_BLACK",
    "BAR_WHITE",
    "BLACK",
    "BUTTONS",
    "BUTTON_BACKENDS",
    "CUBE",
    "PIXEL_BACKENDS",
    "PLAYERS",
    "POINTS",
    "RGB",
    "ROLL",
    "SENSOR_BACKENDS",
    "TRAY_BLACK",
    "TRAY_WHITE",
    "WHITE",
    "ZONES",
    "BackendClosedError",
    "BackendUnavailableError",
    "ButtonEvent",
    "ButtonName",
    "Buttons",
    "Clock",
    "Dice",
    "Emit",
    "Event",
    "Geometry",
    "GeometryError",
    "HalError",
    "PinMap",
    "PixelFrameError",
    "Pixels",
    "SeededDice",
    "SensorEvent",
    "SensorFrame",
    "Sensors",
    "SystemDice",
    "UnknownBackendError",
    "Zone",
    "bar_zone",
    "open_buttons",
    "open_pixels",
    "open_sensors",
    "tray_zone",
    "zone_name",
]
