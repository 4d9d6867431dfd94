"""Shared by the scanner tests: the firmware's emulator on the path, the test vectors, and an
emulated scanner with the host's backend on it."""

from __future__ import annotations

import itertools
import json
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
VECTORS = FIRMWARE / "vectors.json"

# The emulator lives with the firmware (it is the firmware's simulated twin), not in bgpi.
if str(FIRMWARE) not in sys.path:
    sys.path.insert(0, str(FIRMWARE))

from emulator import Emulator  # noqa: E402

from bgpi.hal.api import FaultEvent, SensorEvent  # noqa: E402


def load_vectors() -> dict[str, Any]:
    vectors: dict[str, Any] = json.loads(VECTORS.read_text())
    return vectors


@pytest.fixture(scope="session")
def vectors() -> dict[str, Any]:
    return load_vectors()


def wait_for(condition: Callable[[], object], timeout: float = 3.0, what: str = "") -> None:
    """Poll ``condition`` until it holds; fail naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout} s waiting for {what or condition}")
        time.sleep(0.005)


class Events:
    """The host's emitted events, and every switch state the test ever set on the board:
    an emitted frame that is none of those would be a wrong observation."""

    def __init__(self, emulator: Emulator) -> None:
        self.emulator = emulator
        self.events: list[SensorEvent] = []
        self.faults: list[FaultEvent] = []  # the link down (a message) and back (None)
        self.states = {emulator.closed}

    def __call__(self, event: object) -> None:
        if isinstance(event, FaultEvent):
            self.faults.append(event)
            return
        assert isinstance(event, SensorEvent)
        self.events.append(event)

    def set(self, bits: int) -> float:
        self.states.add(bits)
        return self.emulator.set_closed(bits)

    def toggle(self, *switches: int) -> float:
        bits = self.emulator.closed
        for switch in switches:
            bits ^= 1 << switch
        return self.set(bits)

    @property
    def last(self) -> int | None:
        return self.events[-1].frame.bits if self.events else None

    def wait_last(self, bits: int, timeout: float = 3.0) -> None:
        wait_for(lambda: self.last == bits, timeout, f"a frame with bits {bits:#x}")

    def assert_truthful(self) -> None:
        wrong = [e.frame.bits for e in self.events if e.frame.bits not in self.states]
        assert not wrong, f"frames never on the board: {[hex(b) for b in wrong]}"
        bits = [e.frame.bits for e in self.events]
        assert all(a != b for a, b in itertools.pairwise(bits)), "a frame emitted twice"


@pytest.fixture
def emulator(tmp_path: Path) -> Iterator[Emulator]:
    with Emulator(tmp_path / "bgpi-scanner") as device:
        yield device
    assert not device.crashes, device.crashes
