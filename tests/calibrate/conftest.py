from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from tests.hal.conftest import mock_pins


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    with mock_pins() as factory:
        yield factory
