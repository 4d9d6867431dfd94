"""The scanner: scans the chain at a fixed rate, debounces, and talks to the host.

A FRAME goes out on every debounced change, on request, and after ``heartbeat_ms`` without
one, so an idle board still proves the link alive. Requests are answered between scans; the
loop never blocks on the host. ``clock`` is MicroPython's ``time`` module (``ticks_us``,
``ticks_ms``, ``ticks_diff``, ``ticks_add``, ``sleep_us``), or a fake of it on a PC.
"""

import scanproto
from debounce import Debouncer

FIRMWARE = (2, 0, 0)


class Scanner:
    """Scans ``chain`` (a :class:`chain.Chain`) and serves ``link`` (a :class:`link.Link`);
    ``led`` (a ``machine.Pin`` or None) toggles with every frame sent; ``watchdog`` (a
    ``machine.WDT`` or None) is fed every scan."""

    def __init__(self, chain, link, clock, led=None, watchdog=None):
        self.chain = chain
        self.link = link
        self.clock = clock
        self.led = led
        self.watchdog = watchdog
        self.frames = 0
        self.uptime_ms = 0
        self.status = 0
        self.scan_hz = 0
        self.period_us = 0
        self.heartbeat_ms = scanproto.DEFAULT_HEARTBEAT_MS
        self.debouncer = Debouncer(chain.nbytes, scanproto.DEFAULT_DEBOUNCE_SCANS)
        self.configure(scanproto.DEFAULT_SCAN_HZ, 0, 0)
        self.debouncer.reset(chain.scan())
        now = clock.ticks_ms()
        self._last_ms = now
        self._last_frame_ms = now

    def configure(self, scan_hz, debounce_scans, heartbeat_ms):
        """Apply the settings that are not 0 (checked by ``scanproto.config_error``)."""
        if scan_hz:
            self.scan_hz = scan_hz
            self.period_us = 1000000 // scan_hz
        if debounce_scans:
            self.debouncer.scans = debounce_scans
        if heartbeat_ms:
            self.heartbeat_ms = heartbeat_ms

    def run(self):
        """Scan until a REPL's Ctrl-C arrives, then return."""
        clock = self.clock
        due = clock.ticks_us()
        while not self.link.escape:
            self.step()
            due = clock.ticks_add(due, self.period_us)
            wait = clock.ticks_diff(due, clock.ticks_us())
            if wait > 0:
                clock.sleep_us(wait)
            elif wait <= -self.period_us:
                # A whole period behind (a slow request, a full USB buffer): scans were missed.
                # Start afresh from now rather than race through the missed ones.
                self.status |= scanproto.OVERRUN
                due = clock.ticks_us()

    def step(self):
        """One scan, then the host's requests, then the heartbeat if it is due."""
        if self.watchdog is not None:
            self.watchdog.feed()
        self.link.pump()
        now = self.clock.ticks_ms()
        self.uptime_ms = (self.uptime_ms + self.clock.ticks_diff(now, self._last_ms)) & 0xFFFFFFFF
        self._last_ms = now
        if self.debouncer.update(self.chain.scan()):
            self.send_frame(scanproto.CHANGE)
        for type_, seq, payload in self.link.receive():
            self.handle(type_, seq, payload)
        if self.link.old_hello:
            # An old host: tell it this scanner's protocol, in words it can read, so that it
            # names the mismatch instead of waiting for an answer.
            self.link.old_hello = False
            self.link.send_legacy(scanproto.HELLO_REPLY, scanproto.pack_hello(self.hello()))
        if self.clock.ticks_diff(now, self._last_frame_ms) >= self.heartbeat_ms:
            self.send_frame(scanproto.HEARTBEAT)

    def send_frame(self, reason):
        """Send the debounced switches with the status since the last frame that got out."""
        link = self.link
        status = self.status
        if link.dropped:
            status |= scanproto.TX_DROPPED
        if link.rx_bad:
            status |= scanproto.RX_BAD
        payload = scanproto.pack_frame(
            self.frames, self.uptime_ms, status, reason, self.debouncer.stable
        )
        self.frames += 1
        self._last_frame_ms = self.clock.ticks_ms()
        if link.send(scanproto.FRAME, payload):
            self.status = 0
            link.dropped = False
            link.rx_bad = False
        if self.led is not None:
            self.led.toggle()

    def handle(self, type_, seq, payload):
        """Answer one request; a malformed one gets an ERROR naming it."""
        size = scanproto.REQUEST_SIZES.get(type_)
        if size is None:
            self._error(scanproto.UNKNOWN_TYPE, type_, seq)
        elif len(payload) != size:
            self._error(scanproto.BAD_LENGTH, type_, seq)
        elif type_ == scanproto.HELLO:
            self.link.send(scanproto.HELLO_REPLY, scanproto.pack_hello(self.hello()))
        elif type_ == scanproto.GET_FRAME:
            self.send_frame(scanproto.REQUESTED)
        else:
            scan_hz, debounce_scans, heartbeat_ms = scanproto.unpack_config(payload)
            if scanproto.config_error(scan_hz, debounce_scans, heartbeat_ms):
                self._error(scanproto.BAD_VALUE, type_, seq)
            else:
                self.configure(scan_hz, debounce_scans, heartbeat_ms)
                self.link.send(scanproto.CONFIG, self._config())

    def hello(self):
        """Who this scanner is, for HELLO_REPLY."""
        return scanproto.Hello(
            scanproto.VERSION,
            FIRMWARE,
            self.chain.nbits,
            self.scan_hz,
            self.debouncer.scans,
            self.heartbeat_ms,
        )

    def _config(self):
        return scanproto.pack_config(self.scan_hz, self.debouncer.scans, self.heartbeat_ms)

    def _error(self, code, type_, seq):
        self.link.send(scanproto.ERROR, scanproto.pack_error(code, type_, seq))
