"""The sensing side of a builder's board: run ``python benchmarks/sensors_bench.py``.

Prints, each against a reference measured in the same run:

- counting a frame through a scrambled wiring map against the default order (the map is
  per-zone masks either way, so the ratio should be about 1);
- the gpio scan thread (the shared backend base class) against a bare loop of the same chain
  reads on gpiozero's mock pins: what the thread's life and fault checks cost per scan;
- on the emulated scanner over a pty: how long the serial backend takes to report a pulled
  cable and to bring the board back after the replug, against one switch change's trip to a
  frame (the link's own latency).
"""

from __future__ import annotations

import logging
import queue
import statistics
import sys
import tempfile
import threading
import time
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "firmware"))

from emulator import Emulator  # noqa: E402

from bgpi.base.frame import SensorFrame  # noqa: E402
from bgpi.base.geometry import Geometry  # noqa: E402
from bgpi.hal.api import FaultEvent, SensorEvent  # noqa: E402
from bgpi.hal.gpio import ChainSettings, GpioSensors  # noqa: E402
from bgpi.hal.serial import LinkSettings, SerialSensors  # noqa: E402
from bgpi.hal.sim import scrambled_geometry  # noqa: E402
from tests.hal.conftest import mock_pins  # noqa: E402
from tests.hal.mock165 import ShiftRegisterChain  # noqa: E402


def best(stmt: object, number: int) -> float:
    return min(timeit.repeat(stmt, number=number, repeat=5)) / number  # type: ignore[arg-type]


def counting() -> None:
    default, scrambled = Geometry.default(), scrambled_geometry(7)
    bits = default.bits_for({6: 5, 8: 3, 13: 5, 24: 2})
    frame = SensorFrame(bits, 152, 0.0)
    best(lambda: default.counts(frame), 20_000)  # warm up
    reference = best(lambda: default.counts(frame), 20_000)
    mapped = best(lambda: scrambled.counts(frame), 20_000)
    print(
        f"counts of a frame: default order {reference * 1e6:.2f} us, scrambled map "
        f"{mapped * 1e6:.2f} us: ratio {mapped / reference:.2f}"
    )


def gpio_scans(seconds: float = 2.0) -> None:
    with mock_pins() as factory:
        chain = ShiftRegisterChain(19, factory)
        chain.closed = 1 << 3
        sensors = GpioSensors(152, settings=ChainSettings(scan_hz=5000.0), pin_factory=factory)
        sensors.read()
        # The reference: the same reads, back to back, with no thread around them.
        count, started = 0, time.perf_counter()
        while time.perf_counter() - started < seconds:
            sensors._read_chain()
            count += 1
        bare = count / (time.perf_counter() - started)
        loads = chain.loads
        sensors.start(lambda event: None)
        started = time.perf_counter()
        time.sleep(seconds)
        threaded = (chain.loads - loads) / (time.perf_counter() - started)
        sensors.close()
        print(
            f"gpio chain on mock pins: bare reads {bare:.0f}/s, scan thread {threaded:.0f}/s "
            f"(asked 5000/s): ratio {threaded / bare:.2f}"
        )


def serial_fault_times(rounds: int = 3) -> None:
    settings = LinkSettings(heartbeat_ms=100, heartbeat_timeout=1.0, retry_interval=0.1)
    with tempfile.TemporaryDirectory() as tmp, Emulator(Path(tmp) / "bgpi-scanner") as device:
        events: queue.Queue[object] = queue.Queue()
        sensors = SerialSensors(152, port=str(device.link), settings=settings)
        sensors.start(events.put)
        events.get(timeout=5)

        def next_of(kind: type) -> object:
            while True:
                event = events.get(timeout=10)
                if isinstance(event, kind):
                    return event

        trips, downs, backs = [], [], []
        for index in range(rounds):
            changed = device.set_closed(device.closed ^ 1 << index)
            trips.append(next_of(SensorEvent).frame.timestamp - changed)  # type: ignore[attr-defined]
            pulled = time.monotonic()
            device.unplug()
            downs.append(next_of(FaultEvent).timestamp - pulled)  # type: ignore[attr-defined]
            threading.Event().wait(0.2)
            plugged = time.monotonic()
            device.plug()
            backs.append(next_of(FaultEvent).timestamp - plugged)  # type: ignore[attr-defined]
        sensors.close()
    trip, down, back = (statistics.median(v) for v in (trips, downs, backs))
    print(
        f"scanner link: a switch change reaches a frame in {trip * 1e3:.1f} ms (reference); "
        f"a pulled cable is reported in {down * 1e3:.1f} ms (ratio {down / trip:.1f}); the "
        f"replugged board is back in {back * 1e3:.0f} ms (ratio {back / trip:.1f}; retry "
        f"interval {settings.retry_interval * 1e3:.0f} ms, the Pico's boot included)"
    )


if __name__ == "__main__":
    logging.disable(logging.WARNING)  # the link's warnings are the scenario, not news
    counting()
    gpio_scans()
    serial_fault_times()
