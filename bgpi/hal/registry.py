"""Every backend by name, in one place: which module and class each is, and which of the
config's settings it takes. The config's choices, ``open_sensors`` and friends, and the shell
all ask here, so a new backend is one entry.

Nothing here imports a backend module: :meth:`Backend.load` does, when one is chosen.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Final

from bgpi.hal.api import Clock
from bgpi.hal.errors import UnknownBackendError
from bgpi.hal.pins import PinMap


class Kind(Enum):
    """What a backend drives."""

    SENSORS = "sensor"
    BUTTONS = "button"
    PIXELS = "pixel"
    BUZZER = "buzzer"


@dataclass(frozen=True, slots=True)
class Settings:
    """What the configuration gives backends, by meaning; each backend takes its part.

    ``clock``: the timestamps of the simulated backends (the wall clock when run for real).
    """

    pins: PinMap = field(default_factory=PinMap)
    scan_hz: float = 200.0
    port: str = "/dev/bgpi-scanner"
    bounce_time: float = 0.02
    led_wiring: str = "spi"
    pixel_order: str = "GRB"
    clock: Clock = time.monotonic
    buzzer_pin: int | None = None
    buzzer: str = "passive"


def _chain(settings: Settings) -> dict[str, Any]:
    from bgpi.hal.gpio import ChainSettings  # noqa: PLC0415 - the backend loads when chosen

    return {"pins": settings.pins, "settings": ChainSettings(scan_hz=settings.scan_hz)}


@dataclass(frozen=True, slots=True)
class Backend:
    """One backend: ``target`` is ``"module:Class"``; ``options`` picks its keyword
    arguments out of the :class:`Settings`. A sensor backend is made with the number of bits
    of the chain, or with the whole geometry when ``by_geometry`` (the simulator, which
    places checkers on switches by it)."""

    kind: Kind
    name: str
    target: str
    options: Callable[[Settings], dict[str, Any]]
    by_geometry: bool = False

    def load(self) -> Callable[..., Any]:
        """The backend's class, importing its module (and so its hardware library) now."""
        module, _, attr = self.target.partition(":")
        factory: Callable[..., Any] = getattr(importlib.import_module(module), attr)
        return factory


BACKENDS: Final = (
    Backend(
        Kind.SENSORS, "sim", "bgpi.hal.sim:SimBoard", lambda s: {"clock": s.clock}, by_geometry=True
    ),
    Backend(Kind.SENSORS, "gpio", "bgpi.hal.gpio:GpioSensors", _chain),
    Backend(Kind.SENSORS, "serial", "bgpi.hal.serial:SerialSensors", lambda s: {"port": s.port}),
    Backend(Kind.BUTTONS, "sim", "bgpi.hal.sim:SimButtons", lambda s: {"clock": s.clock}),
    Backend(
        Kind.BUTTONS,
        "gpio",
        "bgpi.hal.gpio:GpioButtons",
        lambda s: {"pins": s.pins, "bounce_time": s.bounce_time},
    ),
    Backend(Kind.PIXELS, "sim", "bgpi.hal.sim:SimPixels", lambda s: {}),
    # The buzzer follows the buttons' backend: a board whose buttons are on the Pi's GPIO has
    # its buzzer there too, and the simulator sounds nothing on hardware.
    Backend(Kind.BUZZER, "sim", "bgpi.hal.sim:SimBuzzer", lambda s: {}),
    Backend(
        Kind.BUZZER,
        "gpio",
        "bgpi.hal.buzzer:GpioBuzzer",
        lambda s: {"pin": s.buzzer_pin, "kind": s.buzzer},
    ),
    Backend(
        Kind.PIXELS,
        "neopixel",
        "bgpi.hal.neopixel:NeoPixelStrip",
        # Brightness and gamma are applied by the renderer, within the power budget.
        lambda s: {
            "wiring": s.led_wiring,
            "pixel_order": s.pixel_order,
            "data_pin": s.pins.led_data,
        },
    ),
)


def names(kind: Kind) -> tuple[str, ...]:
    """The backends of ``kind``, the simulator first."""
    return tuple(backend.name for backend in BACKENDS if backend.kind is kind)


def backend(kind: Kind, name: str) -> Backend:
    """The backend of ``kind`` called ``name``; :class:`UnknownBackendError` naming the
    choices otherwise."""
    for candidate in BACKENDS:
        if candidate.kind is kind and candidate.name == name:
            return candidate
    raise UnknownBackendError(
        f"unknown {kind.value} backend {name!r}: choose one of {', '.join(names(kind))}"
    )
