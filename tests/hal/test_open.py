from __future__ import annotations

import subprocess
import sys

import pytest

from bgpi.hal import Geometry, UnknownBackendError, open_buttons, open_pixels, open_sensors
from bgpi.hal.gpio import ChainSettings, GpioButtons, GpioSensors
from bgpi.hal.sim import SimBoard, SimButtons, SimPixels


def test_importing_bgpi_hal_loads_no_backend() -> None:
    code = (
        "import sys, bgpi.hal\n"
        "loaded = [m for m in ('gpiozero', 'neopixel_spi', 'board', 'bgpi.hal.gpio',"
        " 'bgpi.hal.neopixel', 'bgpi.hal.sim') if m in sys.modules]\n"
        "print(loaded)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert result.stdout.strip() == "[]", result.stderr


def test_backends_by_name() -> None:
    small = Geometry.default(point_slots=2, bar_slots=1)
    board = open_sensors("sim", small, seed=3)
    assert isinstance(board, SimBoard) and board.geometry == small
    assert isinstance(open_buttons("sim"), SimButtons)
    pixels = open_pixels("sim", 5)
    assert isinstance(pixels, SimPixels) and len(pixels) == 5
    sensors = open_sensors("gpio", small, settings=ChainSettings(scan_hz=100.0))
    assert isinstance(sensors, GpioSensors) and sensors.nbits == 50 and sensors.chips == 7
    assert isinstance(open_buttons("gpio"), GpioButtons)
    assert open_sensors("sim").nbits == 152


def test_an_unknown_backend_names_the_choices() -> None:
    with pytest.raises(UnknownBackendError, match=r"'i2c'.*sim, gpio, serial"):
        open_sensors("i2c")
    with pytest.raises(ValueError, match="sim, neopixel"):
        open_pixels("apa102", 3)
