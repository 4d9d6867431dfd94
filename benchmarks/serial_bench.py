"""The scanner link's figures: run ``python benchmarks/serial_bench.py``.

Runs the firmware in its emulator (firmware/emulator: the firmware's own code on fake pins, its
USB port a pseudo-terminal) with bgpi's serial backend on the other end, and prints:

- bytes per frame on the wire, and what an idle board costs;
- frames per second at the default scan rate: the scans the emulated scanner makes, and the
  frames that reach the host when a switch changes as often as debouncing lets it;
- the time from a switch changing on the fake chain to the host's ``SensorFrame`` (its
  timestamp), split into the scanner's part (debounce) and the link's (pty, pyserial, decoding).

The emulator is CPython on a PC, so the scan loop is slower and jitterier than on a Pico; the
debounce part of the latency is the firmware's design (3 scans at 500 Hz), the rest this
machine's.
"""

from __future__ import annotations

import argparse
import logging
import queue
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "firmware"))

from emulator import Emulator  # noqa: E402

from bgpi.hal import scanproto  # noqa: E402
from bgpi.hal.api import SensorEvent  # noqa: E402
from bgpi.hal.serial import SerialSensors  # noqa: E402

NBITS = 152


def bytes_per_frame() -> int:
    payload = scanproto.pack_frame(0, 0, 0, scanproto.CHANGE, bytes(scanproto.nbytes(NBITS)))
    return len(scanproto.encode(scanproto.FRAME, 0, payload))


def scan_rate(device: Emulator, seconds: float) -> float:
    before, started = device.chain.loads, time.monotonic()
    time.sleep(seconds)
    return (device.chain.loads - before) / (time.monotonic() - started)


def busiest(
    device: Emulator, events: queue.Queue[object], seconds: float
) -> tuple[float, float, float]:
    """A switch flipping every debounce period (3 scans): scans made, FRAMEs sent and frames
    emitted a second."""
    debounce = scanproto.DEFAULT_DEBOUNCE_SCANS

    def flip(loads: int) -> None:
        if loads % debounce == 0:
            device.chain.closed ^= 1

    while not events.empty():
        events.get()
    sent_before, loads_before = len(device.sent), device.chain.loads
    device.chain.on_load = flip
    started = time.monotonic()
    time.sleep(seconds)
    device.chain.on_load = None
    elapsed = time.monotonic() - started
    scans = device.chain.loads - loads_before
    time.sleep(0.1)
    sent = len(device.sent) - sent_before
    emitted = events.qsize()
    return scans / elapsed, sent / elapsed, emitted / elapsed


def latencies(
    device: Emulator, events: queue.Queue[object], count: int, seed: int
) -> tuple[list[float], list[float]]:
    """Switch change to SensorFrame, and switch change to the scanner's FRAME, in seconds."""
    rng = random.Random(seed)
    total, scanner = [], []
    for index in range(count):
        while not events.empty():
            events.get()
        time.sleep(rng.uniform(0.01, 0.03))  # changes land anywhere in the scan period
        sent_before = len(device.sent)
        changed = device.set_closed(device.closed ^ 1 << (index % NBITS))
        event = events.get(timeout=2)
        assert isinstance(event, SensorEvent)
        total.append(event.frame.timestamp - changed)
        frame = next(p for p in device.sent[sent_before:] if p.type == scanproto.FRAME)
        scanner.append(frame.time - changed)
    return total, scanner


def ms(values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return (
        f"median {statistics.median(values) * 1000:.2f} ms, 90th percentile {p90 * 1000:.2f} ms, "
        f"max {max(values) * 1000:.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="length of each rate run")
    parser.add_argument("--samples", type=int, default=300, help="latency samples")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, format="  (log: %(message)s)")

    size = bytes_per_frame()
    print(
        f"bytes per frame ({NBITS} switches): {size} on the wire "
        f"(34-byte packet, 1 COBS, 2 delimiters)"
    )
    print(f"idle board: 1 heartbeat frame a second = {size} B/s")
    with tempfile.TemporaryDirectory() as folder, Emulator(Path(folder) / "scanner") as device:
        events: queue.Queue[object] = queue.Queue()
        with SerialSensors(NBITS, port=str(device.link)) as sensors:
            sensors.start(events.put)
            rate = scan_rate(device, args.seconds)
            print(f"scans a second at the default {scanproto.DEFAULT_SCAN_HZ} Hz: {rate:.0f}")
            scans, sent, emitted = busiest(device, events, args.seconds)
            debounce = scanproto.DEFAULT_DEBOUNCE_SCANS
            print(
                f"busiest board (a switch flipping every {debounce} scans, so at most "
                f"{scanproto.DEFAULT_SCAN_HZ / debounce:.0f} frames/s): {scans:.0f} scans/s, "
                f"{sent:.0f} frames/s sent, {emitted:.0f} frames/s emitted by the host, "
                f"{sent * size / 1000:.1f} kB/s"
            )
            total, scanner = latencies(device, events, args.samples, args.seed)
            link = [t - s for t, s in zip(total, scanner, strict=True)]
            print(f"switch change to SensorFrame ({args.samples} changes): {ms(total)}")
            print(f"  of which the scanner (debounce: 3 scans of 2 ms): {ms(scanner)}")
            print(f"  of which the link (pty, pyserial, decode): {ms(link)}")
            stats = {k: v for k, v in sensors.stats().items() if v}
            print(f"link counts: {stats}")


if __name__ == "__main__":
    main()
