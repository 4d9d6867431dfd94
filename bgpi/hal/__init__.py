"""The hardware layer: interfaces (:mod:`bgpi.hal.api`), the sensor geometry, dice, and the
backends that drive a real or simulated board.

Importing this package touches no hardware library: a backend module is imported only when
one of the ``open_*`` functions is asked for it by name.
"""

from __future__ import annotations

from typing import Any, Final

from bgpi.base.geometry import Geometry
from bgpi.base.words import (
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
from bgpi.hal.api import (
    ButtonEvent,
    Buttons,
    Buzzer,
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
from bgpi.hal.pins import PinMap
from bgpi.hal.registry import Kind, Settings, names
from bgpi.hal.registry import backend as find_backend

SENSOR_BACKENDS: Final = names(Kind.SENSORS)
BUTTON_BACKENDS: Final = names(Kind.BUTTONS)
PIXEL_BACKENDS: Final = names(Kind.PIXELS)


def open_sensors(backend: str, geometry: Geometry | None = None, **options: Any) -> Sensors:
    """The reed switches of ``backend`` (``"sim"``, ``"gpio"`` or ``"serial"``) for ``geometry``
    (default: :meth:`Geometry.default`); ``options`` go to :class:`~bgpi.hal.sim.SimBoard`,
    :class:`~bgpi.hal.gpio.GpioSensors` or :class:`~bgpi.hal.serial.SerialSensors`. The
    simulator is wired by the geometry itself; the hardware backends read its number of bits
    and deliver them as the chain gives them, for the geometry to name."""
    geometry = geometry if geometry is not None else Geometry.default()
    chosen = find_backend(Kind.SENSORS, backend)
    wiring = geometry if chosen.by_geometry else geometry.nbits
    sensors: Sensors = chosen.load()(wiring, **options)
    return sensors


def open_buttons(backend: str, **options: Any) -> Buttons:
    """The players' buttons of ``backend`` (``"sim"`` or ``"gpio"``)."""
    buttons: Buttons = find_backend(Kind.BUTTONS, backend).load()(**options)
    return buttons


def open_buzzer(backend: str, **options: Any) -> Buzzer:
    """The board's buzzer of ``backend`` (``"sim"``, silent, or ``"gpio"``)."""
    buzzer: Buzzer = find_backend(Kind.BUZZER, backend).load()(**options)
    return buzzer


def open_pixels(backend: str, count: int, **options: Any) -> Pixels:
    """An LED strip of ``count`` pixels from ``backend`` (``"sim"`` or ``"neopixel"``)."""
    pixels: Pixels = find_backend(Kind.PIXELS, backend).load()(count, **options)
    return pixels


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
    "Buzzer",
    "Clock",
    "Dice",
    "Emit",
    "Event",
    "Geometry",
    "GeometryError",
    "HalError",
    "Kind",
    "PinMap",
    "PixelFrameError",
    "Pixels",
    "SeededDice",
    "SensorEvent",
    "SensorFrame",
    "Sensors",
    "Settings",
    "SystemDice",
    "UnknownBackendError",
    "Zone",
    "bar_zone",
    "open_buttons",
    "open_buzzer",
    "open_pixels",
    "open_sensors",
    "tray_zone",
    "zone_name",
]
