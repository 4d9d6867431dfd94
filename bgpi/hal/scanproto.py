"""The scanner link's wire format, shared word for word by the host (:mod:`bgpi.hal.serial`)
and the scanner firmware, which runs this very file on the Pico (``firmware/README.md`` copies
it there as ``scanproto.py``).

``firmware/PROTOCOL.md`` is the specification and ``firmware/vectors.json`` its test vectors.
A packet is the protocol version, a type byte, a sequence number, a payload and a CRC-32
(little-endian), COBS-encoded and sent between two 0x00 delimiters. Protocol 1 had no version
byte and a CRC-16, which let damaged frames through; its packets are still recognised, so that
an old scanner or an old host is named as such rather than taken for noise.

One file serves both sides so that they cannot drift apart, so it is written in the Python
MicroPython runs: no dataclasses, no enum, no ``from __future__`` (MicroPython would import it at
run time), and annotations only where MicroPython's compiler drops them unevaluated. It must
compile with ``mpy-cross`` (``tests/serial/test_mpy_cross.py``).
"""

import struct

try:
    from binascii import crc_hqx
except ImportError:  # MicroPython's binascii has no crc_hqx: crc16 falls back to a table.
    crc_hqx = None  # type: ignore[assignment]
try:
    from binascii import crc32 as _binascii_crc32
except ImportError:  # a MicroPython built without it (rp2's has it): crc32 uses a table.
    _binascii_crc32 = None  # type: ignore[assignment]

VERSION = 2
# Protocol 1's packets (type, seq, payload, CRC-16) are told apart by their first byte: a
# request or reply type, never a version number.
LEGACY_VERSION = 1

# Message types. Requests (host to scanner) are 0x10-0x1F and replies 0x90-0x9F, so a request
# never starts with 0x03 and the firmware can tell a Ctrl-C for the REPL from a packet.
HELLO = 0x10
GET_FRAME = 0x11
SET_CONFIG = 0x12
HELLO_REPLY = 0x90
FRAME = 0x91
CONFIG = 0x92
ERROR = 0x9F

TYPE_NAMES = {
    HELLO: "HELLO",
    GET_FRAME: "GET_FRAME",
    SET_CONFIG: "SET_CONFIG",
    HELLO_REPLY: "HELLO_REPLY",
    FRAME: "FRAME",
    CONFIG: "CONFIG",
    ERROR: "ERROR",
}

# Why a FRAME was sent.
CHANGE = 0
HEARTBEAT = 1
REQUESTED = 2
REASON_NAMES = ("change", "heartbeat", "requested")

# The FRAME status word: what went wrong on the scanner since its previous FRAME.
OVERRUN = 0x0001  # a scan started a whole period late: scans were missed
TX_DROPPED = 0x0002  # the USB buffer was full and a packet was dropped
RX_BAD = 0x0004  # a request arrived corrupt, truncated or oversized
STATUS_NAMES = ((OVERRUN, "scan overrun"), (TX_DROPPED, "dropped packet"), (RX_BAD, "bad request"))

# ERROR codes.
UNKNOWN_TYPE = 1
BAD_LENGTH = 2
BAD_VALUE = 3
ERROR_NAMES = {UNKNOWN_TYPE: "unknown type", BAD_LENGTH: "bad length", BAD_VALUE: "bad value"}

# Settings: defaults and the ranges the scanner accepts (0 in SET_CONFIG keeps the current).
DEFAULT_SCAN_HZ = 500
DEFAULT_DEBOUNCE_SCANS = 3
DEFAULT_HEARTBEAT_MS = 1000
SCAN_HZ_RANGE = (50, 2000)
DEBOUNCE_RANGE = (1, 50)
# At least once a second, so a silent scanner is told from an idle board within seconds.
HEARTBEAT_MS_RANGE = (50, 1000)

MAX_NBITS = 1024
# version, type, seq before the payload; the CRC-32 after it.
HEAD_SIZE = 3
CRC_SIZE = 4
HELLO_FORMAT = "<BBBBHHBH"
FRAME_HEAD = "<IIHB"
FRAME_HEAD_SIZE = 11
CONFIG_FORMAT = "<HBH"
ERROR_FORMAT = "<BBB"
# version, type, seq, the largest payload (a FRAME of MAX_NBITS), CRC.
MAX_PACKET = HEAD_SIZE + FRAME_HEAD_SIZE + MAX_NBITS // 8 + CRC_SIZE
# COBS adds one byte per 254 and one at the start.
MAX_ENCODED = MAX_PACKET + MAX_PACKET // 254 + 1
MIN_PACKET = HEAD_SIZE + CRC_SIZE
LEGACY_MIN_PACKET = 4


# The one error outside BgpiError's tree: this file runs on the Pico too, where it may import
# nothing of bgpi; the serial backend catches it and counts it, so it never leaves the host's hal.
class ProtocolError(ValueError):
    """Bytes that are not a good packet or message; ``kind`` names the fault for counting:
    ``"cobs"``, ``"short"``, ``"crc"``, ``"oversized"``, ``"message"`` or ``"version"``.
    A ``"version"`` fault names the packet's ``version``, and ``legacy`` is ``(type, seq)`` of
    a whole packet of protocol 1 (else None)."""

    def __init__(
        self,
        message: str,
        kind: str,
        version: int = 0,
        legacy: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.version = version
        self.legacy = legacy


def _crc_table() -> tuple[int, ...]:
    table = []
    for index in range(256):
        crc = index << 8
        for _ in range(8):
            crc = (crc << 1) ^ 0x1021 if crc & 0x8000 else crc << 1
        table.append(crc & 0xFFFF)
    return tuple(table)


_TABLE = _crc_table()


def crc16_table(data: bytes | bytearray, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE of ``data`` by table, the way the Pico computes it."""
    table = _TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFF00) ^ table[(crc >> 8) ^ byte]
    return crc


def crc16(data: bytes | bytearray) -> int:
    """CRC-16/CCITT-FALSE (also called CRC-16/IBM-3740): polynomial 0x1021, initial value
    0xFFFF, no reflection, no final XOR; ``crc16(b"123456789") == 0x29B1``."""
    if crc_hqx is not None:
        return crc_hqx(data, 0xFFFF)
    return crc16_table(data)


def _crc32_table() -> tuple[int, ...]:
    table = []
    for index in range(256):
        crc = index
        for _ in range(8):
            crc = (crc >> 1) ^ 0xEDB88320 if crc & 1 else crc >> 1
        table.append(crc)
    return tuple(table)


_TABLE32 = _crc32_table() if _binascii_crc32 is None else ()


def crc32_table(data: bytes | bytearray) -> int:
    """CRC-32 of ``data`` by table, for a MicroPython without ``binascii.crc32``."""
    table = _TABLE32 or _crc32_table()
    crc = 0xFFFFFFFF
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def crc32(data: bytes | bytearray) -> int:
    """CRC-32 (ISO-HDLC, as zlib and Ethernet): reflected polynomial 0xEDB88320, initial value
    and final XOR 0xFFFFFFFF; ``crc32(b"123456789") == 0xCBF43926``."""
    if _binascii_crc32 is not None:
        return _binascii_crc32(data) & 0xFFFFFFFF
    return crc32_table(data)


def cobs_encode(data: bytes | bytearray) -> bytes:
    """Consistent Overhead Byte Stuffing: ``data`` with no zero byte left in it."""
    out = bytearray()
    start = 0
    end = len(data)
    while True:
        limit = min(start + 254, end)
        zero = data.find(b"\x00", start, limit)
        if zero < 0:
            out.append(limit - start + 1)
            out += data[start:limit]
            if limit == end:
                return bytes(out)
            start = limit
        else:
            out.append(zero - start + 1)
            out += data[start:zero]
            start = zero + 1
            if start == end:
                out.append(1)
                return bytes(out)


def cobs_decode(data: bytes | bytearray) -> bytes:
    """The bytes :func:`cobs_encode` made ``data`` from, or :class:`ProtocolError`."""
    if data.find(b"\x00") >= 0:
        raise ProtocolError("a zero byte inside a COBS packet", "cobs")
    out = bytearray()
    index = 0
    end = len(data)
    while index < end:
        code = data[index]
        block_end = index + code
        if block_end > end:
            raise ProtocolError("a COBS block runs past the end of the packet", "cobs")
        out += data[index + 1 : block_end]
        index = block_end
        if code != 0xFF and index < end:
            out.append(0)
    return bytes(out)


def encode(type_: int, seq: int, payload: bytes | bytearray) -> bytes:
    """The bytes on the wire for one packet: 0x00, COBS(version, type, seq, payload, CRC-32),
    0x00.

    The leading delimiter ends whatever noise came before, so the first packet after it is
    read; back to back, the empty packet between two delimiters is ignored."""
    packet = bytearray((VERSION, type_ & 0xFF, seq & 0xFF))
    packet += payload
    packet += struct.pack("<I", crc32(packet))
    return b"\x00" + cobs_encode(packet) + b"\x00"


def encode_legacy(type_: int, seq: int, payload: bytes | bytearray) -> bytes:
    """A packet of protocol 1 (type, seq, payload, CRC-16): only for answering an old host's
    HELLO with this protocol's version, so that it can say what is wrong."""
    packet = bytearray((type_ & 0xFF, seq & 0xFF))
    packet += payload
    packet += struct.pack("<H", crc16(packet))
    return b"\x00" + cobs_encode(packet) + b"\x00"


def _is_type(byte: int) -> bool:
    return 0x10 <= byte <= 0x1F or 0x90 <= byte <= 0x9F


def _legacy(packet: bytes) -> tuple[int, int] | None:
    """``(type, seq)`` if ``packet`` is a whole packet of protocol 1."""
    if len(packet) < LEGACY_MIN_PACKET or not _is_type(packet[0]):
        return None
    if crc16(packet[:-2]) != struct.unpack("<H", packet[-2:])[0]:
        return None
    return packet[0], packet[1]


def decode(segment: bytes) -> tuple[int, int, bytes]:
    """``(type, seq, payload)`` of the bytes between two delimiters, or :class:`ProtocolError`."""
    if len(segment) > MAX_ENCODED:
        raise ProtocolError(f"a packet longer than {MAX_ENCODED} bytes", "oversized")
    packet = cobs_decode(segment)
    if (
        len(packet) >= MIN_PACKET
        and crc32(packet[:-CRC_SIZE]) == struct.unpack("<I", packet[-CRC_SIZE:])[0]
    ):
        if packet[0] != VERSION:
            raise ProtocolError(f"a packet of protocol {packet[0]}", "version", packet[0])
        return packet[1], packet[2], packet[HEAD_SIZE:-CRC_SIZE]
    legacy = _legacy(packet)
    if legacy is not None:
        raise ProtocolError(
            f"a packet of protocol {LEGACY_VERSION}", "version", LEGACY_VERSION, legacy
        )
    if len(packet) < MIN_PACKET:
        raise ProtocolError(f"a packet of {len(packet)} bytes is too short", "short")
    raise ProtocolError("a packet whose CRC does not match", "crc")


class Decoder:
    """Cuts a byte stream into packets.

    :meth:`feed` returns the good packets as ``(type, seq, payload)``; a bad one is dropped
    and counted in ``errors`` by :class:`ProtocolError` kind. More than :data:`MAX_ENCODED`
    bytes without a delimiter are dropped up to the next delimiter, so noise cannot grow the
    buffer. ``pending`` holds the bytes of a packet not yet ended by a delimiter. ``legacy``
    is ``(type, seq)`` of the last whole packet of protocol 1 that came in, or None;
    ``other_version`` the protocol of the last whole packet of another version, or 0.
    """

    def __init__(self) -> None:
        self.pending = b""
        self.skipping = False
        self.packets = 0
        self.legacy: tuple[int, int] | None = None
        self.other_version = 0
        self.errors = {"cobs": 0, "short": 0, "crc": 0, "oversized": 0, "version": 0}

    def feed(self, data: bytes | bytearray) -> list[tuple[int, int, bytes]]:
        """The packets that ``data`` completes, in order."""
        good: list[tuple[int, int, bytes]] = []
        parts = bytes(data).split(b"\x00")
        tail = parts.pop()
        for part in parts:
            if self.skipping:
                # The rest of an oversized packet, already counted.
                self.skipping = False
                self.pending = b""
                continue
            segment = self.pending + part if self.pending else part
            self.pending = b""
            if segment:
                try:
                    good.append(decode(segment))
                except ProtocolError as exc:
                    self.errors[exc.kind] += 1
                    if exc.version:
                        self.other_version = exc.version
                    if exc.legacy is not None:
                        self.legacy = exc.legacy
                else:
                    self.packets += 1
        if not self.skipping:
            self.pending += tail
            if len(self.pending) > MAX_ENCODED:
                self.errors["oversized"] += 1
                self.pending = b""
                self.skipping = True
        return good

    def reset(self) -> None:
        """Forget a packet in progress (the line went idle in the middle of one)."""
        self.pending = b""
        self.skipping = False

    def faults(self) -> int:
        """How many bad packets were dropped so far."""
        return sum(self.errors.values())


def _check_length(payload: bytes, size: int, what: str) -> None:
    if len(payload) != size:
        raise ProtocolError(f"a {what} payload has {len(payload)} bytes, not {size}", "message")


def nbytes(nbits: int) -> int:
    """The bytes a frame of ``nbits`` switches takes."""
    return (nbits + 7) // 8


class Hello:
    """A HELLO_REPLY: the protocol version, the firmware's version, the chain's length in bits
    and the settings in force."""

    def __init__(
        self,
        version: int,
        firmware: tuple[int, int, int],
        nbits: int,
        scan_hz: int,
        debounce_scans: int,
        heartbeat_ms: int,
    ) -> None:
        self.version = version
        self.firmware = firmware
        self.nbits = nbits
        self.scan_hz = scan_hz
        self.debounce_scans = debounce_scans
        self.heartbeat_ms = heartbeat_ms

    def fields(self) -> tuple[int, tuple[int, int, int], int, int, int, int]:
        return (
            self.version,
            self.firmware,
            self.nbits,
            self.scan_hz,
            self.debounce_scans,
            self.heartbeat_ms,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hello) and self.fields() == other.fields()

    def __hash__(self) -> int:
        return hash(self.fields())

    def __repr__(self) -> str:
        return f"Hello{self.fields()!r}"


def pack_hello(hello: Hello) -> bytes:
    major, minor, patch = hello.firmware
    return struct.pack(
        HELLO_FORMAT,
        hello.version,
        major,
        minor,
        patch,
        hello.nbits,
        hello.scan_hz,
        hello.debounce_scans,
        hello.heartbeat_ms,
    )


def unpack_hello(payload: bytes) -> Hello:
    """The HELLO_REPLY in ``payload``. Its first byte is the protocol version in every version
    of the protocol; another version than :data:`VERSION` is a ``"version"`` error."""
    if not payload:
        raise ProtocolError("an empty HELLO_REPLY", "message")
    if payload[0] != VERSION:
        raise ProtocolError(f"the scanner speaks protocol {payload[0]}", "version")
    _check_length(payload, struct.calcsize(HELLO_FORMAT), "HELLO_REPLY")
    version, major, minor, patch, nbits, scan_hz, debounce, heartbeat = struct.unpack(
        HELLO_FORMAT, payload
    )
    if not 1 <= nbits <= MAX_NBITS:
        raise ProtocolError(f"a chain of {nbits} bits", "message")
    return Hello(version, (major, minor, patch), nbits, scan_hz, debounce, heartbeat)


class Frame:
    """A FRAME: the debounced switches (``bits``, little-endian: switch ``i`` is bit ``i % 8``
    of byte ``i // 8``, 1 for closed), the scanner's frame counter, uptime in milliseconds,
    status word and the reason it was sent."""

    def __init__(self, counter: int, uptime_ms: int, status: int, reason: int, bits: bytes) -> None:
        self.counter = counter
        self.uptime_ms = uptime_ms
        self.status = status
        self.reason = reason
        self.bits = bits

    def fields(self) -> tuple[int, int, int, int, bytes]:
        return (self.counter, self.uptime_ms, self.status, self.reason, self.bits)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Frame) and self.fields() == other.fields()

    def __hash__(self) -> int:
        return hash(self.fields())

    def __repr__(self) -> str:
        return f"Frame{self.fields()!r}"


def pack_frame(
    counter: int, uptime_ms: int, status: int, reason: int, bits: bytes | bytearray
) -> bytes:
    head = struct.pack(FRAME_HEAD, counter & 0xFFFFFFFF, uptime_ms & 0xFFFFFFFF, status, reason)
    return head + bytes(bits)


def unpack_frame(payload: bytes, nbits: int) -> Frame:
    """The FRAME in ``payload`` from a chain of ``nbits``: exactly its length, a known reason,
    and no switch beyond the chain."""
    _check_length(payload, FRAME_HEAD_SIZE + nbytes(nbits), f"FRAME of {nbits} bits")
    counter, uptime_ms, status, reason = struct.unpack_from(FRAME_HEAD, payload, 0)
    if reason > REQUESTED:
        raise ProtocolError(f"a FRAME with reason {reason}", "message")
    if nbits % 8 and payload[-1] >> nbits % 8:
        raise ProtocolError(f"a FRAME with switches beyond its {nbits} bits", "message")
    return Frame(counter, uptime_ms, status, reason, bytes(payload[FRAME_HEAD_SIZE:]))


def pack_config(scan_hz: int, debounce_scans: int, heartbeat_ms: int) -> bytes:
    """A SET_CONFIG or CONFIG payload; in SET_CONFIG, 0 keeps a setting as it is."""
    return struct.pack(CONFIG_FORMAT, scan_hz, debounce_scans, heartbeat_ms)


def unpack_config(payload: bytes) -> tuple[int, int, int]:
    """``(scan_hz, debounce_scans, heartbeat_ms)`` of a SET_CONFIG or CONFIG payload."""
    _check_length(payload, struct.calcsize(CONFIG_FORMAT), "CONFIG")
    scan_hz, debounce, heartbeat = struct.unpack(CONFIG_FORMAT, payload)
    return scan_hz, debounce, heartbeat


def config_error(scan_hz: int, debounce_scans: int, heartbeat_ms: int) -> str:
    """Why the scanner would refuse these settings (0 keeps one), or ``""``."""
    for name, value, span in (
        ("scan_hz", scan_hz, SCAN_HZ_RANGE),
        ("debounce_scans", debounce_scans, DEBOUNCE_RANGE),
        ("heartbeat_ms", heartbeat_ms, HEARTBEAT_MS_RANGE),
    ):
        if value and not span[0] <= value <= span[1]:
            return f"{name} {value} is not {span[0]}-{span[1]}"
    return ""


def pack_error(code: int, type_: int, seq: int) -> bytes:
    """An ERROR payload: what was wrong with the request of ``type_`` and ``seq``."""
    return struct.pack(ERROR_FORMAT, code, type_, seq)


def unpack_error(payload: bytes) -> tuple[int, int, int]:
    """``(code, type, seq)`` of an ERROR payload."""
    _check_length(payload, struct.calcsize(ERROR_FORMAT), "ERROR")
    code, type_, seq = struct.unpack(ERROR_FORMAT, payload)
    return code, type_, seq


# The payload length of each request, checked by the scanner before it acts.
REQUEST_SIZES = {HELLO: 0, GET_FRAME: 0, SET_CONFIG: struct.calcsize(CONFIG_FORMAT)}
