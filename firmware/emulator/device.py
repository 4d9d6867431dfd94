"""An emulated scanner on a pseudo-terminal: the firmware's own code (``main.py`` and all)
running on a thread with fake pins and clock, its USB port one end of a pty. The host opens the
other end by a stable name, as it would open the udev rule's ``/dev/bgpi-scanner``.

Tests set switches on the fake chain, then break things the way hardware breaks: a corrupted
or truncated packet, a dropped one, noise on the line, a hung scanner, a pulled cable.
"""

from __future__ import annotations

import os
import random
import select
import threading
import time
import tty
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from emulator.fakes import (
    Board,
    Chain165,
    PowerOff,
    RealTime,
    Reset,
    Stream,
    make_binascii,
    make_machine,
    make_micropython,
    make_sys,
)
from emulator.pyexec import Flash
from emulator.repl import Repl
from emulator.sandbox import Sandbox

# The Pico's pins to the chain as hardware/pico.md wires them (a test holds board.py, this and
# pico.md to each other).
SCK, MISO, LATCH = 18, 16, 17

BootHook = Callable[[Sandbox], None]


@dataclass(frozen=True, slots=True)
class Packet:
    """A packet the scanner wrote (``fate``: "sent", or the fault done to it) or read."""

    time: float
    type: int
    seq: int
    payload: bytes
    fate: str = "sent"


class _Tx:
    """``sys.stdout.buffer``: writes to the pty, doing to each packet what the test asked.

    The firmware writes a packet a byte at a time (``pico.UsbPort.pump``); the bytes of one
    packet are gathered here and go out together, so a fault hits a whole packet. Anything
    else (a traceback's text) goes out as written."""

    def __init__(self, emulator: Emulator, fd: int) -> None:
        self._emulator = emulator
        self._fd = fd
        self._packet = bytearray()

    def write(self, data: bytes) -> int:
        data = bytes(data)
        if not self._packet and not data.startswith(b"\x00"):
            return self._emulator._transmit(self._fd, data)
        self._packet += data
        if len(self._packet) > 2 and self._packet.endswith(b"\x00"):
            packet, self._packet = bytes(self._packet), bytearray()
            self._emulator._transmit(self._fd, packet)
        return len(data)


class _Rx:
    """``sys.stdin.buffer``: reads from the pty and notes the requests that went by."""

    def __init__(self, emulator: Emulator, fd: int) -> None:
        self._emulator = emulator
        self._fd = fd

    def read(self, size: int) -> bytes:
        data = os.read(self._fd, size)
        self._emulator._note_rx(data)
        return data


class Emulator:
    """A scanner of ``nbits`` switches reachable at ``link`` (a symlink to the pty).

    :meth:`plug` powers it up, :meth:`unplug` pulls the cable, :meth:`freeze` hangs it. The
    switches outlive a replug, as the wood does. ``sent`` and ``received`` record the packets
    each way; ``boots`` counts power-ups and resets. ``nbits`` other than ``board.NBITS`` is
    set in the firmware's ``board`` module, as a builder would edit it; ``on_boot`` may change
    other firmware modules before ``main.py`` runs (a test's way to build an odd scanner).
    ``watchdog=True`` lets the firmware's watchdog reset a hung (frozen) scanner.
    """

    def __init__(
        self,
        link: Path,
        nbits: int = 152,
        *,
        seed: int = 0,
        on_boot: BootHook | None = None,
        watchdog: bool = False,
    ) -> None:
        self.link = Path(link)
        self.watchdog = watchdog
        self.on_boot = on_boot
        self.chain = Chain165(nbits)
        self.sent: list[Packet] = []
        self.received: list[Packet] = []
        self.boots = 0
        self.resets = 0
        self.crashes: list[BaseException] = []
        self.in_repl = False
        self.repl: Repl | None = None
        # The Pico's file system as the REPL's tools see it (mpremote cp, sha256sum, ...).
        self.flash = Flash()
        self.board: Board | None = None
        self._rng = random.Random(seed)
        self._faults: list[str] = []
        self._lock = threading.RLock()
        self._clock: RealTime | None = None
        self._thread: threading.Thread | None = None
        self._master = self._slave = -1
        self._rx_decoder: Any = None
        self._proto: Any = None

    # -- the cable -------------------------------------------------------------------------

    def plug(self) -> None:
        """Make the pty, point the link at it and power the scanner up."""
        if self._thread is not None:
            raise RuntimeError("the emulated scanner is already plugged in")
        self._master, self._slave = os.openpty()
        # Raw from the start: no echo, no line editing, no Ctrl-C turned into a signal.
        tty.setraw(self._slave)
        temporary = self.link.with_name(self.link.name + ".new")
        temporary.unlink(missing_ok=True)
        temporary.symlink_to(os.ttyname(self._slave))
        temporary.replace(self.link)
        self._power_up()

    def unplug(self) -> None:
        """Cut the power and take the pty away: the host's reads fail, the link vanishes."""
        self._power_down()
        with self._lock:
            for fd in (self._master, self._slave):
                if fd >= 0:
                    os.close(fd)
            self._master = self._slave = -1
        self.link.unlink(missing_ok=True)

    def replug(self) -> None:
        self.unplug()
        self.plug()

    def close(self) -> None:
        if self._master >= 0:
            self.unplug()

    def __enter__(self) -> Emulator:
        self.plug()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the switches ----------------------------------------------------------------------

    @property
    def closed(self) -> int:
        return self.chain.closed

    def set_closed(self, bits: int) -> float:
        """Set every switch at once (bit ``i`` for switch ``i``); the time it happened."""
        self.chain.closed = bits
        return time.monotonic()

    def close_switches(self, switches: Iterable[int]) -> float:
        bits = self.chain.closed
        for switch in switches:
            bits |= 1 << switch
        return self.set_closed(bits)

    def open_switches(self, switches: Iterable[int]) -> float:
        bits = self.chain.closed
        for switch in switches:
            bits &= ~(1 << switch)
        return self.set_closed(bits)

    # -- faults ----------------------------------------------------------------------------

    def corrupt_next(self) -> None:
        """Flip one bit inside the next packet the scanner sends."""
        self._faults.append("corrupted")

    def truncate_next(self) -> None:
        """Send only the first half of the next packet, with no delimiter after it."""
        self._faults.append("truncated")

    def drop_next(self) -> None:
        """Lose the next packet on the way (the host sees a gap in the sequence numbers)."""
        self._faults.append("dropped")

    def inject(self, noise: bytes) -> None:
        """Put ``noise`` on the line now, between two packets."""
        with self._lock:
            if self._master >= 0:
                _write_all(self._master, noise)

    def reset(self) -> None:
        """Press the reset button: the firmware starts over on the same cable."""
        if self._clock is not None:
            self._clock.reset_pending = True

    def freeze(self) -> None:
        """Hang the scanner: it stops scanning, reading and writing until :meth:`thaw`."""
        if self._clock is not None:
            self._clock.running.clear()

    def thaw(self) -> None:
        if self._clock is not None:
            self._clock.running.set()

    # -- inside ----------------------------------------------------------------------------

    def _power_up(self) -> None:
        self._clock = RealTime()
        self.in_repl = False
        self._thread = threading.Thread(target=self._run, name="scanner-emulator", daemon=True)
        self._thread.start()

    def _power_down(self) -> None:
        with self._lock:
            thread, clock = self._thread, self._clock
            if thread is None or clock is None:
                return
            clock.powered = False
            clock.running.set()
        thread.join()
        self._thread = None

    def _run(self) -> None:
        assert self._clock is not None
        while True:
            self.boots += 1
            board = Board(self.chain, LATCH, SCK, MISO)
            self.board = board
            if self.watchdog:
                self._clock.bites = lambda b=board: b.watchdog is not None and b.watchdog.expired()
            stdin = Stream(self._master, _Rx(self, self._master))
            stdout = Stream(self._master, _Tx(self, self._master))
            sandbox = Sandbox(
                {
                    "machine": make_machine(board),
                    "micropython": make_micropython(board),
                    "time": self._clock,
                    "sys": make_sys(stdin, stdout, board),
                    "binascii": make_binascii(),
                }
            )
            self._proto = sandbox.load("scanproto")
            self._rx_decoder = self._proto.Decoder()
            sandbox.load("board").NBITS = self.chain.nbits
            if self.on_boot is not None:
                self.on_boot(sandbox)
            try:
                sandbox.load("main")
            except PowerOff:
                return
            except Reset:
                with self._lock:
                    # A reset restarts the clocks, as it does on a Pico.
                    old, self._clock = self._clock, RealTime()
                    self._clock.powered = old.powered
                continue
            except BaseException as exc:  # a crash of the firmware itself: keep it for the test
                self.crashes.append(exc)
                return
            # main() returned: the REPL's Ctrl-C arrived, the Pico now sits in its REPL.
            self.in_repl = True
            if not self._serve_repl():
                return
            with self._lock:
                self._clock = RealTime()
            self.in_repl = False

    def _serve_repl(self) -> bool:
        """Be MicroPython's REPL until power-off (False) or the reset button (True)."""
        clock = self._clock
        assert clock is not None
        master = self._master
        self.repl = repl = Repl(lambda data: self._write_master(master, data), self.flash)
        while clock.powered and not clock.reset_pending and not repl.hard_reset:
            ready, _, _ = select.select([master], [], [], 0.02)
            if ready:
                try:
                    data = os.read(master, 256)
                except OSError:  # unplugged
                    return False
                repl.feed(data)
        if repl.hard_reset:
            self.resets += 1
        return clock.powered

    def _write_master(self, fd: int, data: bytes) -> None:
        with self._lock:
            if self._master == fd >= 0:
                _write_all(fd, data)

    def _transmit(self, fd: int, data: bytes) -> int:
        fault = self._faults.pop(0) if self._faults else ""
        self._note_tx(data, fault or "sent")
        if fault == "dropped":
            return len(data)
        if fault == "corrupted":
            body = bytearray(data)
            index = self._rng.randrange(1, len(body) - 1)
            # One bit, and never to 0x00: a new delimiter would make two bad packets of one.
            flips = [1 << bit for bit in range(8) if body[index] ^ 1 << bit]
            body[index] ^= self._rng.choice(flips)
            data = bytes(body)
        elif fault == "truncated":
            data = data[: len(data) // 2]
        with self._lock:
            _write_all(fd, data)
        return len(data)

    def _note_tx(self, data: bytes, fate: str) -> None:
        proto = self._proto
        segment = data.strip(b"\x00")
        try:
            type_, seq, payload = proto.decode(segment)
        except proto.ProtocolError:
            return  # text, such as a traceback printed by the firmware
        self.sent.append(Packet(time.monotonic(), type_, seq, payload, fate))

    def _note_rx(self, data: bytes) -> None:
        now = time.monotonic()
        for type_, seq, payload in self._rx_decoder.feed(data):
            self.received.append(Packet(now, type_, seq, payload))


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]
