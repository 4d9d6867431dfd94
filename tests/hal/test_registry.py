"""One registry of backends: the config's choices, ``open_*`` and the shell's options all come
from it."""

from __future__ import annotations

import pytest

from bgpi.hal import UnknownBackendError, open_sensors
from bgpi.hal.api import Closing
from bgpi.hal.registry import BACKENDS, Kind, backend, names
from bgpi.service.app import backend_settings
from bgpi.service.config import ConfigError, parse


def test_every_backend_loads_a_class_that_closes() -> None:
    for entry in BACKENDS:
        factory = entry.load()
        assert isinstance(factory, type) and issubclass(factory, Closing), entry.target


def test_the_config_offers_exactly_the_registered_sensor_backends() -> None:
    for name in names(Kind.SENSORS):
        assert parse({"sensors": {"backend": name}}).sensors.backend == name
    with pytest.raises(ConfigError) as caught:
        parse({"sensors": {"backend": "i2c"}})
    assert str(names(Kind.SENSORS)) in caught.value.why


def test_options_come_from_the_config_by_meaning() -> None:
    config = parse(
        {
            "sensors": {"backend": "serial", "port": "/dev/ttyACM3", "scan_hz": 321.0},
            "buttons": {"bounce_ms": 45},
        }
    )
    settings = backend_settings(config)
    assert backend(Kind.SENSORS, "serial").options(settings) == {"port": "/dev/ttyACM3"}
    chain = backend(Kind.SENSORS, "gpio").options(settings)
    assert chain["settings"].scan_hz == 321.0 and chain["pins"] == config.pins
    assert backend(Kind.BUTTONS, "gpio").options(settings)["bounce_time"] == 0.045


def test_an_unknown_name_lists_the_registered_ones() -> None:
    with pytest.raises(UnknownBackendError, match="choose one of sim, neopixel"):
        backend(Kind.PIXELS, "apa102")
    with pytest.raises(UnknownBackendError, match="unknown sensor backend 'spi'"):
        open_sensors("spi")
