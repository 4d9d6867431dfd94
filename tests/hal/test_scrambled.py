"""A board wired in its own order: with the builder's map in the config, every backend's
frames count the checkers on the zones where they really are."""

from __future__ import annotations

import queue
import time
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from bgpi.base.frame import SensorFrame
from bgpi.base.geometry import Geometry
from bgpi.base.wiringmap import map_toml, unused_toml
from bgpi.base.words import BAR_BLACK, WHITE
from bgpi.hal import open_sensors
from bgpi.hal.api import SensorEvent
from bgpi.hal.serial import LinkSettings
from bgpi.hal.sim import SimBoard, scrambled_geometry
from bgpi.service.config import load
from tests.hal.mock165 import ShiftRegisterChain
from tests.serial.conftest import Emulator

# Three on point 6, one on point 13, two on the black bar.
CHECKERS = {6: 3, 13: 1, BAR_BLACK: 2}


def config_with(tmp_path: Path, wiring: Geometry, backend: str) -> Path:
    path = tmp_path / "bgpi.toml"
    sensors = f'[sensors]\nbackend = "{backend}"\nport = "{tmp_path / "bgpi-scanner"}"\n'
    path.write_text(f"{sensors}{unused_toml(wiring)}\n\n{map_toml(wiring)}", encoding="utf-8")
    return path


def expected_counts() -> tuple[int, ...]:
    counts = [0] * 29
    for zone, count in CHECKERS.items():
        counts[zone] = count
    return tuple(counts)


def check(frame: SensorFrame, path: Path, wiring: Geometry) -> None:
    geometry = load(path).geometry
    assert geometry == wiring
    assert geometry.counts(frame) == expected_counts()
    # On a board wired in the default order these checkers would close other inputs.
    assert frame.bits != Geometry.default().bits_for(CHECKERS)


def test_the_simulator_wired_by_the_map(tmp_path: Path) -> None:
    wiring = scrambled_geometry(41, spare=5)
    path = config_with(tmp_path, wiring, "sim")
    board = open_sensors("sim", load(path).geometry)
    assert isinstance(board, SimBoard)
    for zone, count in CHECKERS.items():
        for _ in range(count):
            board.place(zone, WHITE)
    check(board.read(), path, wiring)


def test_the_gpio_chain_with_a_map(tmp_path: Path, mock_factory: MockFactory) -> None:
    wiring = scrambled_geometry(42, spare=5)  # 157 inputs: 20 chips
    path = config_with(tmp_path, wiring, "gpio")
    chain = ShiftRegisterChain(20, mock_factory)
    chain.closed = wiring.bits_for(CHECKERS)
    sensors = open_sensors("gpio", load(path).geometry, pin_factory=mock_factory)
    try:
        assert sensors.nbits == 157
        check(sensors.read(), path, wiring)
    finally:
        sensors.close()


def test_the_serial_scanner_with_a_map(tmp_path: Path) -> None:
    wiring = scrambled_geometry(43)  # the emulated scanner reads 152 inputs
    path = config_with(tmp_path, wiring, "serial")
    settings = LinkSettings(heartbeat_ms=100, reply_timeout=0.4, retry_interval=0.1)
    with Emulator(tmp_path / "bgpi-scanner") as emulator:
        emulator.set_closed(wiring.bits_for(CHECKERS))
        config = load(path)
        sensors = open_sensors(
            "serial", config.geometry, port=config.sensors.port, settings=settings
        )
        events: queue.Queue[object] = queue.Queue()
        try:
            deadline = time.monotonic() + 10
            sensors.start(events.put)
            while True:
                event = events.get(timeout=10)
                assert isinstance(event, SensorEvent)
                if event.frame.bits == wiring.bits_for(CHECKERS) or time.monotonic() > deadline:
                    break
            check(event.frame, path, wiring)
        finally:
            sensors.close()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_scrambled_wiring_keeps_every_switch(seed: int) -> None:
    wiring = scrambled_geometry(seed, spare=4, point_slots=3, bar_slots=2)
    assert sorted(entry for entry in wiring.bits if entry is not None) == sorted(
        entry for entry in Geometry.default(point_slots=3, bar_slots=2).bits if entry
    )
    assert len(wiring.unused()) == 4 and wiring != scrambled_geometry(seed + 1, spare=4)
