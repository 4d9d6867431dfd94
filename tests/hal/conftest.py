from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory


@contextmanager
def mock_pins() -> Iterator[MockFactory]:
    """gpiozero's mock pins as the default factory, reset and put back afterwards."""
    saved = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = saved


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    with mock_pins() as factory:
        yield factory
