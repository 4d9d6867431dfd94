"""The Pico itself: the chain on its pins (``board.py``), its USB serial port, its LED, and
:func:`main`, which ``main.py`` runs at power-up.

The USB port is also MicroPython's REPL: Ctrl-C is switched off so that 0x03 inside a packet
cannot stop the scanner, and the link returns to the REPL when a tool such as mpremote sends its
Ctrl-C (``link.ESCAPES``), so the Pico can still be updated over the same cable.
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


class UsbPort:
    """The USB serial port (MicroPython's stdin and stdout), never blocking the scan loop."""

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
        if not _ready(self._tx, select.POLLOUT):
            return False
        self._out.write(data)
        return True


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
    return Scanner(Chain(spi, latch, board.NBITS), Link(UsbPort(), time), time, led)


def main():
    """Scan until a REPL's Ctrl-C; restart the Pico if the scanner fails."""
    micropython.kbd_intr(-1)
    try:
        build().run()
    except Exception as exc:  # whatever went wrong, the board must not stay blind
        micropython.kbd_intr(3)
        sys.print_exception(exc)
        # Restart; the host sees the silence, reconnects and asks for a full frame.
        time.sleep_ms(2000)
        machine.reset()
    micropython.kbd_intr(3)
