"""The Pico itself: the chain on its pins (``board.py``), its USB serial port, its LED, and
:func:`main`, which ``main.py`` runs at power-up.

The USB port is also MicroPython's REPL: Ctrl-C is switched off so that 0x03 inside a packet
cannot stop the scanner, and the link returns to the REPL when a tool such as mpremote sends its
Ctrl-C (``link.ESCAPES``), so the Pico can still be updated over the same cable.

A hardware watchdog restarts a Pico whose scan loop hangs (the loop feeds it every scan); it is
disarmed before the firmware steps aside for the REPL, where nothing would feed it.
"""

import select
import sys
import time

import board
import machine
import micropython
from chain import Chain
from link import Link
from scanner import Scanner

# The watchdog's timeout: 500 missed scans. The RP2040's longest is 8388 ms.
WATCHDOG_MS = 1000
# RP2040 datasheet, 4.7 (watchdog): CTRL at 0x40058000, its ENABLE bit 30; writing a bit to the
# register's atomic-clear alias (+0x3000) clears it. MicroPython's WDT has no stop.
WATCHDOG_CTRL_CLEAR = 0x40058000 + 0x3000
WATCHDOG_ENABLE = 1 << 30
# Packets waiting for room in the USB buffer, and the bytes sent of them per scan at most.
TX_QUEUE = 512
TX_BURST = 64


class UsbPort:
    """The USB serial port (MicroPython's stdin and stdout), never blocking the scan loop.

    The rp2 port's stdout reports itself writable with a single byte free, and a longer write
    then waits for the host. So :meth:`write` only queues a packet (or refuses it when the
    queue is full: the host is not reading), and :meth:`pump`, once a scan, sends the queue a
    byte at a time while the port says there is room: each write fits, none waits.
    """

    def __init__(self):
        rx = select.poll()
        rx.register(sys.stdin, select.POLLIN)
        tx = select.poll()
        tx.register(sys.stdout, select.POLLOUT)
        # MicroPython's ipoll allocates nothing, so an idle loop makes no garbage to collect
        # (a collection would cost a scan); CPython's poll stands in for it in the emulator.
        self._rx = getattr(rx, "ipoll", rx.poll)
        self._tx = getattr(tx, "ipoll", tx.poll)
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._queue = bytearray()
        self._head = 0  # how much of the queue is sent
        self._byte = bytearray(1)  # the one-byte write, allocated once

    def read(self, limit):
        if not _ready(self._rx, select.POLLIN):
            return b""
        data = bytearray()
        while len(data) < limit and _ready(self._rx, select.POLLIN):
            byte = self._in.read(1)
            if not byte:
                break
            data += byte
        return data

    def write(self, data):
        # No room means the host is not reading: drop the packet (the scanner flags it)
        # rather than stall the scans until it does.
        if len(self._queue) - self._head + len(data) > TX_QUEUE:
            return False
        if self._head:
            # Drop the part sent (MicroPython's bytearray has no slice deletion).
            self._queue = self._queue[self._head :]
            self._head = 0
        self._queue += data
        self.pump()
        return True

    def pump(self):
        """Send what the USB buffer has room for now, TX_BURST bytes at most."""
        queue = self._queue
        head = self._head
        end = min(len(queue), head + TX_BURST)
        one = self._byte
        while head < end and _ready(self._tx, select.POLLOUT):
            one[0] = queue[head]
            self._out.write(one)
            head += 1
        self._head = head


def _ready(poll, event):
    for entry in poll(0):  # noqa: SIM110 - any() would allocate a generator on every scan
        if entry[1] & event:
            return True
    return False


def build():
    """The scanner on this Pico's pins."""
    latch = machine.Pin(board.LATCH, machine.Pin.OUT, value=1)
    spi = machine.SPI(
        board.SPI_ID,
        baudrate=board.SPI_BAUD,
        polarity=1,
        phase=0,
        bits=8,
        firstbit=machine.SPI.MSB,
        sck=machine.Pin(board.SCK),
        mosi=machine.Pin(board.MOSI),
        miso=machine.Pin(board.MISO),
    )
    led = machine.Pin(board.LED, machine.Pin.OUT, value=0)
    watchdog = machine.WDT(timeout=WATCHDOG_MS)
    return Scanner(Chain(spi, latch, board.NBITS), Link(UsbPort(), time), time, led, watchdog)


def disarm_watchdog():
    """Stop the watchdog, so that the REPL (and mpremote in it) is not reset under it."""
    machine.mem32[WATCHDOG_CTRL_CLEAR] = WATCHDOG_ENABLE


def main():
    """Scan until a REPL's Ctrl-C; restart the Pico if the scanner fails."""
    micropython.kbd_intr(-1)
    try:
        build().run()
        disarm_watchdog()
    except Exception as exc:  # whatever went wrong, the board must not stay blind
        micropython.kbd_intr(3)
        sys.print_exception(exc)
        # Restart; the host sees the silence, reconnects and asks for a full frame.
        time.sleep_ms(2000)
        machine.reset()
    micropython.kbd_intr(3)
