"""The scanner backend: a Raspberry Pi Pico running ``firmware/`` scans the reed switches and
streams frames over USB serial; this module opens its port, shakes hands, and turns the frames
into :class:`~bgpi.hal.api.SensorFrame` values.

pyserial is imported only when a port opens, so this module imports on any machine. The wire
format is :mod:`bgpi.hal.scanproto` (specified in ``firmware/PROTOCOL.md``).

Whatever happens on the line, no frame is emitted that did not pass its CRC, decode as a frame
of the configured length and come from a scanner that answered the handshake:

- a corrupt, truncated or oversized packet, or noise: dropped and counted;
- a gap in the sequence numbers (a packet lost): a full frame is asked for at once;
- no packet for ``heartbeat_timeout`` (a hung scanner): the port is closed and reopened;
- a failed read or write (the cable pulled): the port is reopened every ``retry_interval``
  until the scanner answers again, and its current frame is asked for.

Each is logged once: one warning when trouble starts, one line when the link is clean again.
"""

from __future__ import annotations

import errno
import logging
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Final

from bgpi.hal import scanproto
from bgpi.hal.api import Clock, SensorFrame
from bgpi.hal.device import LinkDownError, ScannedSensors
from bgpi.hal.errors import INSTALL, BackendUnavailableError, one_line

log = logging.getLogger(__name__)

# The udev rule's stable name for the Pico (firmware/README.md).
DEFAULT_PORT: Final = "/dev/bgpi-scanner"
# MicroPython's USB id on a Raspberry Pi Pico: ``port = "usb:2e8a:0005"`` finds it by id.
PICO_USB_ID: Final = "2e8a:0005"
FLASH: Final = "see firmware/README.md"
# How long one read of the port waits: how soon the reader notices close() or silence.
POLL: Final = 0.02
HELLO_TRIES: Final = 3
# More corrupt packets than this within BAD_WINDOW seconds is a line that cannot be trusted
# (a bad cable, a noisy supply): the link is reset and the fault shown until it reads clean.
BAD_LIMIT: Final = 20
BAD_WINDOW: Final = 1.0
# What the decoder drops for corruption (a gap or a refusal is no sign of a bad line).
CORRUPT: Final = frozenset({"crc", "cobs", "short", "oversized"})

SerialFactory = Callable[..., Any]
# What stats() counts (besides the scanner's own status flags).
COUNTS: Final = (
    "packets",
    "frames",
    "crc",
    "cobs",
    "short",
    "oversized",
    "message",
    "version",
    "gap",
    "refused",
    "silence",
    "down",
    "connects",
)


# The link cannot be used now; the message is one line for the log or the user. The base
# class's error, so a step of the scan thread that raises it is reported as a fault.
_LinkDownError = LinkDownError


@dataclass(frozen=True, slots=True)
class LinkSettings:
    """How the host talks to the scanner.

    ``scan_hz``, ``debounce_scans``, ``heartbeat_ms``: sent to the scanner at every handshake;
    ``None`` leaves the firmware's own (500 Hz, 3 scans, 1000 ms). ``heartbeat_timeout``:
    the silence after which the link is reset (``None``: three heartbeats). ``reply_timeout``:
    how long a request may take. ``retry_interval``: the pause between tries to reopen a lost
    port.
    """

    scan_hz: int | None = None
    debounce_scans: int | None = None
    heartbeat_ms: int | None = None
    heartbeat_timeout: float | None = None
    reply_timeout: float = 0.5
    retry_interval: float = 0.5

    def __post_init__(self) -> None:
        why = scanproto.config_error(*self.pushed())
        if why:
            raise ValueError(f"the scanner would refuse {why}")
        for name in ("heartbeat_timeout", "reply_timeout", "retry_interval"):
            value = getattr(self, name)
            if value is not None and not value > 0:
                raise ValueError(f"{name} must be positive, got {value}")

    def pushed(self) -> tuple[int, int, int]:
        """The SET_CONFIG values: 0 for a setting left to the firmware."""
        return (self.scan_hz or 0, self.debounce_scans or 0, self.heartbeat_ms or 0)

    @property
    def silence_limit(self) -> float:
        """Seconds without a packet before the link is reset."""
        if self.heartbeat_timeout is not None:
            return self.heartbeat_timeout
        return 3 * (self.heartbeat_ms or scanproto.DEFAULT_HEARTBEAT_MS) / 1000


def _pyserial() -> ModuleType:
    try:
        import serial  # noqa: PLC0415 - hardware libraries load only when a backend opens
        import serial.tools.list_ports  # noqa: PLC0415
    except ImportError:
        raise BackendUnavailableError(f"the serial backend needs pyserial: {INSTALL}") from None
    return serial


def _resolve(port: str) -> str:
    """The device of ``port``: a path as it is, or ``usb:VID:PID[:SERIAL]`` looked up."""
    if not port.startswith("usb:"):
        return port
    wanted = port[4:].lower().split(":")
    if len(wanted) not in (2, 3):
        raise _LinkDownError(f"port {port!r} is not usb:VID:PID or usb:VID:PID:SERIAL")
    serial = _pyserial()
    for info in serial.tools.list_ports.comports():
        if info.vid is None or info.pid is None:
            continue
        found = [f"{info.vid:04x}", f"{info.pid:04x}", (info.serial_number or "").lower()]
        if found[: len(wanted)] == wanted:
            device: str = info.device
            return device
    raise _LinkDownError(f"no USB device {port[4:]}: is the Pico plugged in?")


def _open_error(port: str, exc: OSError) -> str:
    if exc.errno == errno.ENOENT:
        return (
            f"no scanner at {port}: is the Pico plugged in, and the udev rule "
            "(systemd/99-bgpi.rules) installed?"
        )
    if exc.errno == errno.EACCES:
        return (
            f"cannot open {port}: permission denied; add the user to the dialout group "
            "(sudo usermod -aG dialout $USER)"
        )
    return f"cannot open {port}: {one_line(exc)}"


class _Connection:
    """One open port: packets out with our sequence numbers, packets in through a decoder."""

    def __init__(self, port: Any, name: str) -> None:
        self.port = port
        self.name = name
        self.decoder = scanproto.Decoder()
        self.seq = 0
        self.expect: int | None = None
        self._write_lock = threading.Lock()
        self._reported = dict(self.decoder.errors)

    def new_faults(self) -> dict[str, int]:
        """The bad packets the decoder dropped since the last call, by kind."""
        errors = self.decoder.errors
        new = {kind: count - self._reported[kind] for kind, count in errors.items()}
        self._reported = dict(errors)
        return {kind: count for kind, count in new.items() if count}

    def send(self, type_: int, payload: bytes = b"") -> None:
        with self._write_lock:
            wire = scanproto.encode(type_, self.seq, payload)
            self.seq = (self.seq + 1) & 0xFF
            try:
                self.port.write(wire)
            except OSError as exc:
                raise _LinkDownError(f"writing to {self.name} failed: {one_line(exc)}") from None

    def receive(self) -> list[tuple[int, int, bytes]]:
        """The packets that arrived; waits up to :data:`POLL` for the first byte."""
        try:
            data = self.port.read(1)
            if data:
                waiting = self.port.in_waiting
                if waiting:
                    data += self.port.read(waiting)
        except OSError as exc:
            raise _LinkDownError(f"reading {self.name} failed: {one_line(exc)}") from None
        return self.decoder.feed(data) if data else []

    def close(self) -> None:
        try:
            self.port.close()
        except OSError as exc:  # the device is gone already; nothing is left to release
            log.debug("closing %s: %s", self.name, one_line(exc))


class SerialSensors(ScannedSensors):
    """The reed switches, read by the scanner firmware on a Pico at ``port``.

    ``port``: a device path (the udev rule's ``/dev/bgpi-scanner``) or ``usb:VID:PID[:SERIAL]``
    (:data:`PICO_USB_ID`). ``nbits`` must equal the scanner's chain length (``NBITS`` in
    ``firmware/board.py``). ``clock``: the timestamps of frames. ``serial_factory``: makes the
    port (pyserial's ``serial.Serial`` when ``None``).

    The thread's life, and the :class:`~bgpi.hal.api.FaultEvent` when the link is down
    (the port gone, no packet for ``heartbeat_timeout``, more than :data:`BAD_LIMIT`
    corrupt packets in :data:`BAD_WINDOW` seconds) and back, are
    :class:`~bgpi.hal.device.ScannedSensors`'.
    """

    what = "serial sensors"

    def __init__(
        self,
        nbits: int = 152,
        *,
        port: str = DEFAULT_PORT,
        settings: LinkSettings | None = None,
        clock: Clock = time.monotonic,
        serial_factory: SerialFactory | None = None,
    ) -> None:
        if not 1 <= nbits <= scanproto.MAX_NBITS:
            raise ValueError(f"a scanner reads 1-{scanproto.MAX_NBITS} switches, got {nbits}")
        super().__init__(nbits, clock=clock)
        self.port = port
        self.settings = settings if settings is not None else LinkSettings()
        self._factory = serial_factory
        self.hello: scanproto.Hello | None = None
        self._conn: _Connection | None = None
        self._latest: SensorFrame | None = None
        self._counter: int | None = None
        self._answers = 0
        self._last_packet = 0.0
        # Every key is there from the start, so stats() never copies a dict that is growing.
        self._counts: Counter[str] = Counter(dict.fromkeys(COUNTS, 0))
        for _, name in scanproto.STATUS_NAMES:
            self._counts[f"scanner {name}"] = 0
        self._trouble: Counter[str] = Counter()
        self._outage: set[str] = set()
        self._down_since: float | None = None
        self._flags_seen = 0
        self._frames = threading.Condition()
        self._bad: deque[tuple[float, int]] = deque()  # (when, how many) corrupt packets

    @property
    def connected(self) -> bool:
        """Whether the scanner is answering now."""
        return self._conn is not None

    def stats(self) -> Mapping[str, int]:
        """Counts since opening: ``packets``, ``frames``, dropped packets by fault (``crc``,
        ``cobs``, ``short``, ``oversized``, ``message``), ``gap``, ``refused``, ``silence``,
        ``down`` (the link lost, for any reason), ``connects``, and each status flag the
        scanner raised (``scanner dropped packet``...)."""
        return dict(self._counts)

    def _open_frame(self) -> SensorFrame:
        """Connect and the scanner's frame now (the base class starts the thread)."""
        return self._note(self._current_frame())

    def read(self) -> SensorFrame:
        """Ask the scanner for a full frame and return it; :class:`BackendUnavailableError`
        if it does not answer within ``reply_timeout``."""
        with self._lock:
            self._check_open()
            if self._thread is None:
                return self._note(self._current_frame())
        conn = self._conn
        if conn is None:
            raise BackendUnavailableError(f"the scanner at {self.port} is not connected now")
        with self._frames:
            answers = self._answers
        try:
            conn.send(scanproto.GET_FRAME)
        except _LinkDownError as exc:
            raise BackendUnavailableError(str(exc)) from None
        with self._frames:
            if not self._frames.wait_for(
                lambda: self._answers > answers, self.settings.reply_timeout
            ):
                raise BackendUnavailableError(
                    f"the scanner at {self.port} did not send a frame within "
                    f"{self.settings.reply_timeout} s"
                )
            assert self._latest is not None
            return self._latest

    def _release(self) -> None:
        self._drop_connection()

    # -- connecting ------------------------------------------------------------------------

    def _current_frame(self) -> scanproto.Frame:
        """The scanner's frame now, connecting first if need be; raises
        :class:`BackendUnavailableError` with the reason it cannot."""
        try:
            if self._conn is None:
                return self._connect()
            return self._request_frame(self._conn)
        except _LinkDownError as exc:
            self._drop_connection()
            raise BackendUnavailableError(str(exc)) from None

    def _connect(self) -> scanproto.Frame:
        name = _resolve(self.port)
        serial = _pyserial()
        factory = self._factory or serial.Serial
        try:
            port = factory(
                name,
                baudrate=115200,  # ignored by USB CDC, which runs at USB speed
                timeout=POLL,
                write_timeout=self.settings.reply_timeout,
                exclusive=True,
            )
        except OSError as exc:
            raise _LinkDownError(_open_error(self.port, exc)) from None
        conn = _Connection(port, self.port)
        try:
            self.hello = self._handshake(conn)
            frame = self._request_frame(conn)
        except BaseException:
            conn.close()
            raise
        self._conn = conn
        self._counts["connects"] += 1
        self._last_packet = time.monotonic()
        self._counter = frame.counter
        return frame

    def _handshake(self, conn: _Connection) -> scanproto.Hello:
        payload = b""
        for _ in range(HELLO_TRIES):
            conn.send(scanproto.HELLO)
            payload = self._wait(conn, scanproto.HELLO_REPLY)
            if payload:
                break
        else:
            other = conn.decoder.other_version
            if other:
                # It speaks, but whole packets of another protocol: say which side is old.
                fix = (
                    "update its firmware with `bgpi flash-scanner`"
                    if other < scanproto.VERSION
                    else "update bgpi"
                )
                raise _LinkDownError(
                    f"the scanner at {self.port} speaks protocol {other}, this bgpi speaks "
                    f"{scanproto.VERSION}: {fix} ({FLASH})"
                )
            raise _LinkDownError(
                f"the device at {self.port} does not answer hello: is the scanner firmware "
                f"on it? ({FLASH})"
            )
        try:
            hello = scanproto.unpack_hello(payload)
        except scanproto.ProtocolError as exc:
            if exc.kind == "version":
                raise _LinkDownError(
                    f"the scanner at {self.port} speaks protocol {payload[0]}, this bgpi speaks "
                    f"{scanproto.VERSION}: copy this version's firmware onto the Pico ({FLASH})"
                ) from None
            raise _LinkDownError(f"the scanner at {self.port} sent a bad hello: {exc}") from None
        if hello.nbits != self._nbits:
            raise _LinkDownError(
                f"the scanner at {self.port} reads {hello.nbits} switches but the geometry has "
                f"{self._nbits}: set NBITS in firmware/board.py or the slots in the config"
            )
        if any(self.settings.pushed()):
            self._push_settings(conn)
        return hello

    def _push_settings(self, conn: _Connection) -> None:
        wanted = self.settings.pushed()
        conn.send(scanproto.SET_CONFIG, scanproto.pack_config(*wanted))
        payload = self._wait(conn, scanproto.CONFIG, scanproto.ERROR)
        got = scanproto.unpack_config(payload) if len(payload) == 5 else None
        if got is None or any(
            want and want != have for want, have in zip(wanted, got, strict=True)
        ):
            raise _LinkDownError(
                f"the scanner at {self.port} refused scan_hz, debounce_scans, heartbeat_ms "
                f"= {wanted} (0: unchanged)"
            )

    def _request_frame(self, conn: _Connection) -> scanproto.Frame:
        conn.send(scanproto.GET_FRAME)
        deadline = time.monotonic() + self.settings.reply_timeout
        while time.monotonic() < deadline:
            self._check_stopping()
            for type_, seq, payload in conn.receive():
                conn.expect = (seq + 1) & 0xFF
                if type_ != scanproto.FRAME:
                    continue
                frame = self._unpack_frame(payload)
                if frame is not None and frame.reason == scanproto.REQUESTED:
                    return frame
        raise _LinkDownError(f"the scanner at {self.port} sent no frame when asked")

    def _wait(self, conn: _Connection, *types: int) -> bytes:
        """The payload of the first packet of one of ``types``, or b"" after
        ``reply_timeout``; packets of other types are passed over."""
        deadline = time.monotonic() + self.settings.reply_timeout
        while time.monotonic() < deadline:
            self._check_stopping()
            for type_, seq, payload in conn.receive():
                conn.expect = (seq + 1) & 0xFF
                if type_ in types:
                    return payload
        return b""

    def _check_stopping(self) -> None:
        if self._stop.is_set():
            raise _LinkDownError("the serial sensors are closing")

    def _drop_connection(self) -> bool:
        """Close the port; whether one was open."""
        conn, self._conn = self._conn, None
        if conn is None:
            return False
        conn.close()
        return True

    # -- the reader thread -----------------------------------------------------------------

    def _scan(self) -> None:
        conn = self._conn
        if conn is None:
            self._reconnect()
        else:
            self._pump(conn)

    def _retry_delay(self, failures: int) -> float:
        return self.settings.retry_interval

    def _reconnect(self) -> None:
        with self._lock:
            if self._stop.is_set():
                return
            frame = self._connect()
        down = time.monotonic() - (self._down_since or time.monotonic())
        log.info("the scanner at %s is back after %.1f s", self.port, down)
        self._down_since = None
        self._outage.clear()
        self._bad.clear()
        self._receive(frame)

    def _lost(self, reason: str) -> None:
        was_up = self._drop_connection()
        if was_up:
            self._counts["down"] += 1
            self._down_since = time.monotonic()
            reason = f"{reason}; reconnecting"
        self._report_outage(reason)

    def _report_outage(self, reason: str, exc: BaseException | None = None) -> None:
        """Log ``reason`` once an outage: a warning for the first, a line for each other."""
        if self._down_since is None:
            self._down_since = time.monotonic()
        if not self._outage:
            log.warning("scanner link down: %s", reason, exc_info=exc)
        elif reason not in self._outage:
            log.info("scanner link still down: %s", reason, exc_info=exc)
        self._outage.add(reason)

    def _pump(self, conn: _Connection) -> None:
        packets = conn.receive()
        for kind, count in conn.new_faults().items():
            self._fault(kind, count)
        for packet in packets:
            self._process(conn, *packet)
        if packets:
            self._last_packet = time.monotonic()
        elif time.monotonic() - self._last_packet > self.settings.silence_limit:
            self._counts["silence"] += 1
            raise _LinkDownError(
                f"no heartbeat from the scanner at {self.port} for "
                f"{self.settings.silence_limit:.1f} s"
            )

    def _process(self, conn: _Connection, type_: int, seq: int, payload: bytes) -> None:
        self._counts["packets"] += 1
        frame = self._unpack_frame(payload) if type_ == scanproto.FRAME else None
        if frame is not None:
            self._check_restart(frame)
        if conn.expect is not None and seq != conn.expect:
            self._fault("gap", 1)
            # Every frame is whole, so a lost one does no lasting harm, but it may have been
            # the newest state: ask for that now rather than at the next heartbeat.
            conn.send(scanproto.GET_FRAME)
        conn.expect = (seq + 1) & 0xFF
        if frame is not None:
            self._check_status(frame)
            self._receive(frame)
        elif type_ == scanproto.ERROR:
            self._fault("refused", 1, payload.hex())
        elif type_ not in (scanproto.FRAME, scanproto.HELLO_REPLY, scanproto.CONFIG):
            self._fault("message", 1, f"type {type_:#04x}")
        if self._trouble and type_ == scanproto.FRAME:
            self._clean_again()

    def _unpack_frame(self, payload: bytes) -> scanproto.Frame | None:
        try:
            return scanproto.unpack_frame(payload, self._nbits)
        except scanproto.ProtocolError as exc:
            self._fault("message", 1, str(exc))
            return None

    def _check_restart(self, frame: scanproto.Frame) -> None:
        # Each frame of one run of the firmware has a higher counter (modulo 2**32) than the
        # last; one that does not is from a restarted scanner, whose settings are the
        # firmware's again: shake hands anew.
        if self._counter is not None and not 0 < (frame.counter - self._counter) % 2**32 < 2**31:
            raise _LinkDownError(f"the scanner at {self.port} restarted")
        self._counter = frame.counter

    def _check_status(self, frame: scanproto.Frame) -> None:
        for flag, name in scanproto.STATUS_NAMES:
            if frame.status & flag:
                self._counts[f"scanner {name}"] += 1
                if not self._flags_seen & flag:
                    log.warning("the scanner at %s reports: %s", self.port, name)
                self._flags_seen |= flag

    def _fault(self, kind: str, count: int, detail: str = "") -> None:
        self._counts[kind] += count
        if kind in CORRUPT:
            self._check_bad_rate(count)
        if not self._trouble:
            what = {
                "crc": "a packet with a bad CRC",
                "cobs": "bytes that are not a COBS packet",
                "short": "a packet too short to hold one",
                "oversized": "more bytes than a packet holds",
                "message": "a packet that is not a good message",
                "version": "a packet of another protocol version",
                "gap": "a gap in the sequence numbers (asked for a full frame)",
                "refused": "an ERROR from the scanner",
            }[kind]
            if detail:
                what = f"{what} ({detail})"
            log.warning("trouble on the scanner link %s: %s", self.port, what)
        self._trouble[kind] += count

    def _check_bad_rate(self, count: int) -> None:
        now = time.monotonic()
        self._bad.append((now, count))
        while self._bad and self._bad[0][0] < now - BAD_WINDOW:
            self._bad.popleft()
        bad = sum(n for _, n in self._bad)
        if bad > BAD_LIMIT:
            self._bad.clear()
            raise _LinkDownError(
                f"{bad} corrupt packets in {BAD_WINDOW:.0f} s from the scanner at {self.port}: "
                "check the USB cable and the Pico's supply"
            )

    def _clean_again(self) -> None:
        summary = ", ".join(f"{count} {kind}" for kind, count in sorted(self._trouble.items()))
        log.info("the scanner link %s is clean again after %s", self.port, summary)
        self._trouble.clear()

    def _note(self, frame: scanproto.Frame) -> SensorFrame:
        """Count ``frame``, keep it as the latest and wake a :meth:`read` waiting for it."""
        self._counts["frames"] += 1
        bits = int.from_bytes(frame.bits, "little")
        sensor_frame = SensorFrame(bits, self._nbits, self._clock())
        with self._frames:
            self._latest = sensor_frame
            if frame.reason == scanproto.REQUESTED:
                self._answers += 1
            self._frames.notify_all()
        return sensor_frame

    def _receive(self, frame: scanproto.Frame) -> None:
        self._deliver(self._note(frame))
