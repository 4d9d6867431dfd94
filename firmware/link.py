"""Packets to and from the host over a byte port, in scanproto's format.

The port's ``read(limit)`` returns the bytes waiting (up to ``limit``, perhaps none), its
``write(data)`` takes a whole packet or returns False without blocking, and its optional
``pump()`` sends what it queued; ``pico.UsbPort`` is the Pico's, the emulator's is a
pseudo-terminal.
"""

import scanproto

# Bytes taken from the port per loop at most: a request is 6-12 bytes, so this never delays a
# scan. They are taken one at a time, and never past a REPL's Ctrl-C (ESCAPES): mpremote sends
# its Ctrl-A (enter the raw REPL) right behind its Ctrl-C, and that byte must stay in the USB
# buffer for the REPL, not be eaten by the scanner on its way out.
RX_CHUNK = 64
CTRL_C = 0x03
# The host writes a request in one go. Bytes left without a delimiter this long are a
# fragment: dropped, so the next request (or a REPL's Ctrl-C) starts clean.
RX_IDLE_MS = 50
# What mpremote, pyboard.py and a terminal send to stop a program. No request starts so (its
# COBS code byte is followed by a type of 0x10 or more), so these always mean "give me the
# REPL".
ESCAPES = (b"\r\x03", b"\x03\x03")


class Link:
    """Sends packets with a running sequence number and takes requests in.

    Flags for the next FRAME's status word: :attr:`dropped` (a packet was not sent) and
    :attr:`rx_bad` (a request arrived damaged). :attr:`escape` turns true when a REPL's Ctrl-C
    arrives. :attr:`old_hello` turns true when a HELLO from a host of protocol 1 arrives, to
    be answered in that protocol with this one's version.
    """

    def __init__(self, port, clock):
        self.seq = 0
        self.dropped = False
        self.rx_bad = False
        self.escape = False
        self.old_hello = False
        self._port = port
        self._clock = clock
        self._decoder = scanproto.Decoder()
        self._faults = 0
        self._last_rx = clock.ticks_ms()

    def send(self, type_, payload):
        """Send one packet; False if the port had no room and it was dropped."""
        wire = scanproto.encode(type_, self.seq, payload)
        # A dropped packet uses its number too, so the host sees the gap and asks again.
        self.seq = (self.seq + 1) & 0xFF
        if self._port.write(wire):
            return True
        self.dropped = True
        return False

    def pump(self):
        """Let the port send what it has queued (a port without a queue has nothing to do)."""
        pump = getattr(self._port, "pump", None)
        if pump is not None:
            pump()

    def send_legacy(self, type_, payload):
        """Answer a host of protocol 1 in its own framing; False if there was no room."""
        wire = scanproto.encode_legacy(type_, self.seq, payload)
        self.seq = (self.seq + 1) & 0xFF
        return self._port.write(wire)

    def receive(self):
        """The requests that arrived complete since the last call, as (type, seq, payload)."""
        clock = self._clock
        now = clock.ticks_ms()
        decoder = self._decoder
        data = self._take()
        if not data:
            if decoder.pending and clock.ticks_diff(now, self._last_rx) > RX_IDLE_MS:
                decoder.reset()
                self.rx_bad = True
            return ()
        self._last_rx = now
        requests = decoder.feed(data)
        legacy = decoder.legacy
        if legacy is not None:
            decoder.legacy = None
            if legacy[0] == scanproto.HELLO:
                self.old_hello = True
        faults = decoder.faults()
        if faults != self._faults:
            self._faults = faults
            self.rx_bad = True
        if decoder.pending[:2] in ESCAPES:
            self.escape = True
        return requests

    def _take(self):
        """Up to RX_CHUNK bytes from the port, stopping after a REPL's Ctrl-C."""
        port = self._port
        first = port.read(1)
        if not first:
            return first
        data = bytearray(first)
        while len(data) < RX_CHUNK:
            if data[-1] == CTRL_C and self._escaped(data):
                break
            byte = port.read(1)
            if not byte:
                break
            data += byte
        return data

    def _escaped(self, data):
        # The packet now arriving: after the last delimiter, or the one the decoder holds.
        zero = bytes(data).rfind(b"\x00")
        start = data[zero + 1 :] if zero >= 0 else self._decoder.pending + data
        return bytes(start[:2]) in ESCAPES
