"""MicroPython's own updater, mpremote, gets into the raw REPL of a running scanner on the
first try: its real transport code (``mpremote.transport_serial``) against the firmware on the
emulator, over a pty, with mpremote's own bytes and timing."""

from __future__ import annotations

import random
import time
from pathlib import Path

from emulator import Emulator
from mpremote.transport import TransportError
from mpremote.transport_serial import SerialTransport

from tests.serial.conftest import wait_for


def test_mpremote_enters_the_raw_repl_20_times_in_20(tmp_path: Path) -> None:
    rng = random.Random(20)
    entered = 0
    for attempt in range(20):
        with Emulator(tmp_path / f"scanner{attempt}") as device:
            wait_for(lambda d=device: len(d.sent) > 0, what="the scanner's first frame")
            # Land anywhere in the scan loop, with switches changing: frames going out.
            device.close_switches([rng.randrange(152)])
            time.sleep(rng.uniform(0, 0.01))
            transport = SerialTransport(str(device.link), baudrate=115200)
            try:
                transport.enter_raw_repl(soft_reset=True, timeout_overall=2)
            except TransportError:
                continue  # counted below: every try must get in
            else:
                entered += 1
                transport.exit_raw_repl()
                assert device.repl is not None and device.repl.entered_raw == 1
            finally:
                transport.close()
            assert not device.crashes
    assert entered == 20, f"mpremote got into the raw REPL {entered} times in 20"
