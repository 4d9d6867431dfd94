"""The same fault scenarios against every sensor backend: the cable pulled, the hardware
silent, garbage on the line, and the recovery. Each backend reports one FaultEvent naming the
trouble, delivers no frame while it lasts (none that was never on the board, ever), and when
the hardware answers again delivers the board as it is now, then the recovery."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar, Protocol

import pytest
from gpiozero.pins.mock import MockFactory

from bgpi.base.faults import FaultSource
from bgpi.base.geometry import Geometry
from bgpi.hal.api import Emit, FaultEvent, SensorEvent
from bgpi.hal.gpio import ChainSettings, GpioSensors
from bgpi.hal.serial import LinkSettings, SerialSensors
from bgpi.hal.sim import ManualClock, SimBoard
from tests.hal.mock165 import ShiftRegisterChain
from tests.serial.conftest import Emulator

SCENARIOS = ("unplug", "silence", "garbage")
MOVED = 1 << 5 | 1 << 9  # the board after a checker was moved during the fault
ALL = (1 << 40) - 1  # a 40-input chain with every input reading closed
WAIT = 10.0  # seconds an event may take on a busy machine; not a measure of speed


class Rig(Protocol):
    expected: ClassVar[dict[str, str]]  # words the fault's message holds, by scenario

    def start(self, emit: Emit) -> None: ...
    def move(self) -> None: ...
    def unplug(self) -> None: ...
    def silence(self) -> None: ...
    def garbage(self) -> None: ...
    def recover(self) -> None: ...
    def close(self) -> None: ...


class SimRig:
    expected: ClassVar[dict[str, str]] = {
        "unplug": "unplugged",
        "silence": "silent",
        "garbage": "garbage",
    }

    def __init__(self) -> None:
        self.board = SimBoard(Geometry.default(point_slots=2, bar_slots=1), clock=ManualClock())

    def start(self, emit: Emit) -> None:
        self.board.start(emit)

    def move(self) -> None:
        for bit in (5, 9):
            entry = self.board.geometry.zone_slot(bit)
            assert entry is not None
            self.board.put_on(entry[0], entry[1], 0)

    def unplug(self) -> None:
        self.board.fail("the simulated board is unplugged")

    def silence(self) -> None:
        self.board.fail("the simulated board is silent")

    def garbage(self) -> None:
        self.board.fail("the simulated board sends garbage")

    def recover(self) -> None:
        self.board.recover()

    def close(self) -> None:
        self.board.close()


class GpioRig:
    expected: ClassVar[dict[str, str]] = {
        "unplug": "reading the sensor chain failed: OSError",
        "silence": "answered 0 of 5 bytes",
        "garbage": "reads 40 closed switches",
    }

    def __init__(self, factory: MockFactory) -> None:
        self.chain = ShiftRegisterChain(5, factory)
        self.sensors = GpioSensors(40, settings=ChainSettings(scan_hz=100.0), pin_factory=factory)
        self.board = 0  # the switches as the checkers close them
        self.broken: Callable[[int], Any] | None = None

    def start(self, emit: Emit) -> None:
        self.sensors.start(emit)
        spi = self.sensors._spi
        real = spi.read

        def read(count: int) -> Any:
            broken = self.broken
            return real(count) if broken is None else broken(count)

        spi.read = read

    def move(self) -> None:
        self.board = MOVED
        if self.chain.closed != ALL:
            self.chain.closed = MOVED

    def unplug(self) -> None:
        def fail(count: int) -> Any:
            raise OSError(121, "Remote I/O error")

        self.broken = fail

    def silence(self) -> None:
        self.broken = lambda count: []

    def garbage(self) -> None:
        self.chain.closed = ALL  # the data line floats low: every input "closed"

    def recover(self) -> None:
        self.broken = None
        self.chain.closed = self.board

    def close(self) -> None:
        self.sensors.close()


class SerialRig:
    expected: ClassVar[dict[str, str]] = {
        "unplug": "failed",
        "silence": "no heartbeat",
        "garbage": "corrupt packets",
    }

    def __init__(self, emulator: Emulator) -> None:
        self.emulator = emulator
        settings = LinkSettings(
            heartbeat_ms=100, heartbeat_timeout=1.0, reply_timeout=0.4, retry_interval=0.1
        )
        self.sensors = SerialSensors(152, port=str(emulator.link), settings=settings)
        self.noise: threading.Thread | None = None
        self.quiet = threading.Event()

    def start(self, emit: Emit) -> None:
        self.sensors.start(emit)

    def move(self) -> None:
        self.emulator.set_closed(MOVED)

    def unplug(self) -> None:
        self.emulator.unplug()

    def silence(self) -> None:
        self.emulator.freeze()

    def garbage(self) -> None:
        def babble() -> None:
            # Packets of the right shape with no valid CRC, many a second: a noisy line.
            while not self.quiet.wait(0.01):
                self.emulator.inject(b"\x05\x11\x22\x33\x44\x00" * 4)

        self.noise = threading.Thread(target=babble, daemon=True)
        self.noise.start()

    def recover(self) -> None:
        if self.noise is not None:
            self.quiet.set()
            self.noise.join()
        self.emulator.thaw()
        if not self.emulator.link.exists():
            self.emulator.plug()

    def close(self) -> None:
        self.sensors.close()


@pytest.fixture(params=["sim", "gpio", "serial"])
def rig(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Rig]:
    if request.param == "sim":
        made: Rig = SimRig()
        yield made
        made.close()
    elif request.param == "gpio":
        factory: MockFactory = request.getfixturevalue("mock_factory")
        made = GpioRig(factory)
        yield made
        made.close()
    else:
        with Emulator(tmp_path / "bgpi-scanner") as emulator:
            made = SerialRig(emulator)
            yield made
            made.close()


class Recorder:
    def __init__(self) -> None:
        self.events: queue.Queue[object] = queue.Queue()
        self.seen: list[object] = []

    def next(self, kind: type) -> Any:
        """The next event of ``kind``; the others passed over are kept in ``seen``."""
        while True:
            event = self.events.get(timeout=WAIT)
            self.seen.append(event)
            if isinstance(event, kind):
                return event


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_a_fault_is_reported_once_no_frame_passes_and_the_recovery_brings_the_board(
    rig: Rig, scenario: str
) -> None:
    recorder = Recorder()
    rig.start(recorder.events.put)
    assert recorder.next(SensorEvent).frame.bits == 0
    getattr(rig, scenario)()
    fault = recorder.next(FaultEvent)
    assert fault.source is FaultSource.SENSORS
    assert fault.message is not None and rig.expected[scenario] in fault.message
    rig.move()  # a checker moves while the board cannot be read
    rig.recover()
    frame = recorder.next(SensorEvent)
    back = recorder.next(FaultEvent)
    assert back.message is None
    # Between the fault and its end: the board as it is now, then the word it is back.
    after_fault = recorder.seen[recorder.seen.index(fault) + 1 :]
    assert after_fault == [frame, back]
    assert frame.frame.bits == MOVED
    frames = [e.frame.bits for e in recorder.seen if isinstance(e, SensorEvent)]
    assert frames == [0, MOVED]
