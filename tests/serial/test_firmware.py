"""The firmware on CPython: its own modules (``pico.build()`` and all) on fake pins and a
manual clock, one scan at a time. The emulator runs the same code in real time over a pty
(test_link.py)."""

from __future__ import annotations

import os
import select
from collections.abc import Iterator
from typing import Any

import pytest
from emulator import Reset

from bgpi.hal import scanproto as sp
from tests.serial.firmware_rig import Rig, closed_bits


@pytest.fixture
def rig() -> Iterator[Rig]:
    device = Rig()
    yield device
    device.close()


def test_build_wires_the_documented_pins(rig: Rig) -> None:
    spi = rig.board.spi
    assert spi.id == 0
    settings = {key: getattr(value, "id", value) for key, value in spi.settings.items()}
    assert settings == {
        "baudrate": 1_000_000,
        "polarity": 1,
        "phase": 0,
        "bits": 8,
        "firstbit": 0,
        "sck": 18,
        "mosi": 19,
        "miso": 16,
    }
    latch = rig.board.pins[17]
    assert latch.mode == latch.OUT and latch.value() == 1
    assert rig.board.pins["LED"].mode == latch.OUT


def test_a_scan_maps_chip_and_input_to_bit(rig: Rig) -> None:
    loads = rig.chain.loads
    rig.chain.closed = 1 << 0 | 1 << 15 | 1 << 151
    assert closed_bits(rig.scanner.chain.scan()) == [0, 15, 151]
    assert rig.chain.loads == loads + 1


def test_the_fake_chain_loses_a_bit_in_the_wrong_spi_mode(rig: Rig) -> None:
    # The fake is strict enough to catch firmware that set the wrong mode.
    rig.board.spi.settings["phase"] = 1
    rig.chain.closed = 1 << 7  # chip 0's H, the first bit out
    assert 7 not in closed_bits(rig.scanner.chain.scan())


def test_inputs_past_the_last_switch_never_show(rig: Rig) -> None:
    short = Rig(nbits=10)
    try:
        short.chain.closed = (1 << 16) - 1  # the two chips' every input pulled low
        assert closed_bits(short.scanner.chain.scan()) == list(range(10))
    finally:
        short.close()


def test_a_change_is_sent_after_three_agreeing_scans(rig: Rig) -> None:
    rig.packets()
    rig.chain.closed = 1 << 5
    rig.step(count=2)
    assert rig.frames() == []
    rig.step()
    (frame,) = rig.frames()
    assert closed_bits(frame.bits) == [5] and frame.reason == sp.CHANGE


def test_a_bouncing_reed_is_not_reported_until_it_settles(rig: Rig) -> None:
    for _ in range(10):
        rig.chain.closed ^= 1 << 9
        rig.step()
    assert rig.frames() == []
    rig.chain.closed = 1 << 9
    rig.step(count=3)
    assert [closed_bits(f.bits) for f in rig.frames()] == [[9]]


def test_a_heartbeat_every_second_when_nothing_changes(rig: Rig) -> None:
    rig.step(ms=10, count=99)
    assert rig.frames() == []
    rig.step(ms=10)
    (frame,) = rig.frames()
    assert frame.reason == sp.HEARTBEAT and frame.uptime_ms == 1000
    rig.step(ms=10, count=100)
    assert [f.reason for f in rig.frames()] == [sp.HEARTBEAT]


def test_uptime_counts_through_the_tick_counters_wrapping(rig: Rig) -> None:
    # The fake ticks start seconds before they wrap (2**30), as they can on a Pico.
    uptimes = []
    for _ in range(5):
        rig.step(ms=1000)
        uptimes += [f.uptime_ms for f in rig.frames()]
    assert uptimes == [1000, 2000, 3000, 4000, 5000]


def test_hello_is_answered_with_the_vectors_reply(rig: Rig, vectors: dict[str, Any]) -> None:
    rig.request(sp.HELLO)
    rig.step()
    reply = next(v for v in vectors["packets"] if v["type"] == sp.HELLO_REPLY)
    assert rig.port.outbox == [bytes.fromhex(reply["wire"])]


def test_get_frame_is_answered_at_once(rig: Rig) -> None:
    rig.chain.closed = 1 << 3
    rig.step(count=3)
    rig.request(sp.GET_FRAME)
    rig.step()
    frames = rig.frames()
    assert [(f.reason, closed_bits(f.bits)) for f in frames] == [
        (sp.CHANGE, [3]),
        (sp.REQUESTED, [3]),
    ]
    assert [f.counter for f in frames] == [0, 1]


def test_set_config_applies_what_is_not_zero(rig: Rig, vectors: dict[str, Any]) -> None:
    request = next(v for v in vectors["packets"] if v["type"] == sp.SET_CONFIG)
    rig.port.inbox += bytes.fromhex(request["wire"])
    rig.step()
    ((type_, _, payload),) = rig.packets()
    reply = next(v for v in vectors["packets"] if v["type"] == sp.CONFIG)
    assert (type_, payload.hex()) == (sp.CONFIG, reply["payload"])
    assert rig.scanner.period_us == 1000 and rig.scanner.heartbeat_ms == 250


@pytest.mark.parametrize(
    ("type_", "payload", "code"),
    [
        (sp.SET_CONFIG, sp.pack_config(10, 0, 0), sp.BAD_VALUE),
        (sp.SET_CONFIG, sp.pack_config(0, 0, 5000), sp.BAD_VALUE),
        (0x42, b"", sp.UNKNOWN_TYPE),
        (sp.HELLO, b"\x01", sp.BAD_LENGTH),
    ],
)
def test_a_bad_request_gets_an_error_naming_it(
    rig: Rig, type_: int, payload: bytes, code: int
) -> None:
    rig.request(type_, payload, seq=77)
    rig.step()
    ((reply_type, _, reply),) = rig.packets()
    assert reply_type == sp.ERROR and sp.unpack_error(reply) == (code, type_, 77)
    assert rig.scanner.period_us == 2000 and rig.scanner.heartbeat_ms == 1000


def test_a_damaged_request_is_flagged_in_the_next_frame(rig: Rig) -> None:
    wire = bytearray(sp.encode(sp.GET_FRAME, 1, b""))
    wire[2] ^= 0x40
    rig.port.inbox += wire
    rig.step()
    assert rig.packets() == []
    rig.request(sp.GET_FRAME)
    rig.step()
    (frame,) = rig.frames()
    assert frame.status == sp.RX_BAD
    rig.request(sp.GET_FRAME)
    rig.step()
    assert [f.status for f in rig.frames()] == [0]


def test_a_fragment_left_on_the_line_is_dropped_when_it_goes_quiet(rig: Rig) -> None:
    wire = sp.encode(sp.HELLO, 1, b"")
    rig.port.inbox += wire[:3]
    rig.step(ms=10, count=7)  # read at 10 ms, quiet for more than 50 ms after
    rig.port.inbox += wire[1:]  # the rest of a HELLO, with no delimiter before it
    rig.step()
    assert [t for t, _, _ in rig.packets()] == [sp.HELLO_REPLY]
    rig.request(sp.GET_FRAME)
    rig.step()
    assert [f.status for f in rig.frames()] == [sp.RX_BAD]


def test_a_full_usb_buffer_drops_packets_but_not_their_numbers(rig: Rig) -> None:
    rig.port.full = True
    rig.request(sp.GET_FRAME, seq=1)
    rig.step()
    rig.port.full = False
    rig.request(sp.GET_FRAME, seq=2)
    rig.step()
    ((_, seq, payload),) = rig.packets()
    frame = sp.unpack_frame(payload, 152)
    assert seq == 1 and frame.counter == 1  # packet 0, frame 0, never left
    assert frame.status == sp.TX_DROPPED


def test_a_slow_loop_is_flagged_as_an_overrun_and_scanning_goes_on(rig: Rig) -> None:
    def slow_then_stop(reads: int) -> None:
        if reads == 5:
            rig.clock.advance_ms(7)  # three and a half scans lost
        if reads == 8:
            rig.request(sp.GET_FRAME)
        if reads == 20:
            rig.port.inbox += b"\r\x03\x03"

    rig.port.on_read = slow_then_stop
    rig.scanner.run()
    (frame,) = rig.frames()
    assert frame.status == sp.OVERRUN
    # It stopped at the escape's Ctrl-C, leaving what followed it for the REPL.
    assert rig.port.reads == 21 and rig.port.inbox == b"\x03"


@pytest.mark.parametrize("escape", [b"\r\x03\x03", b"\x03\x03", b"\r\x03"])
def test_a_repls_ctrl_c_ends_the_scanner(rig: Rig, escape: bytes) -> None:
    rig.port.inbox += escape
    rig.scanner.run()
    assert rig.scanner.link.escape


@pytest.mark.parametrize("noise", [b"", b"\x00", sp.encode(sp.HELLO, 1, b"")])
def test_the_bytes_after_mpremotes_ctrl_c_are_left_for_the_repl(rig: Rig, noise: bytes) -> None:
    # mpremote writes Ctrl-C, then at once Ctrl-A (raw REPL): both may sit in one USB packet.
    rig.port.inbox += noise + b"\r\x03\r\x01"
    rig.scanner.run()
    assert rig.scanner.link.escape
    assert rig.port.inbox == b"\r\x01"


def test_ctrl_c_bytes_inside_a_packet_are_just_bytes(rig: Rig) -> None:
    payload = sp.pack_config(0x0303, 3, 0x0303)
    wire = sp.encode(sp.SET_CONFIG, 3, payload)
    assert b"\x03\x03" in wire
    rig.port.inbox += wire
    rig.step()
    assert not rig.scanner.link.escape
    ((type_, _, reply),) = rig.packets()
    assert (type_, sp.unpack_config(reply)) == (sp.CONFIG, (0x0303, 3, 0x0303))


def test_the_firmware_sends_every_vector_byte_for_byte(rig: Rig, vectors: dict[str, Any]) -> None:
    # The Pico's own scanproto (its CRC by table, as without crc_hqx) against the shared file.
    assert rig.proto.crc_hqx is None
    link = rig.sandbox.load("link").Link(rig.port, rig.clock)
    for vector in vectors["packets"]:
        link.seq = vector["seq"]
        link.send(vector["type"], bytes.fromhex(vector["payload"]))
        assert rig.port.outbox.pop() == bytes.fromhex(vector["wire"]), vector["name"]
        wire = bytes.fromhex(vector["wire"])
        type_, seq, payload = rig.proto.decode(wire[1:-1])
        assert (type_, seq, payload.hex()) == (vector["type"], vector["seq"], vector["payload"])


def test_a_crash_restarts_the_pico(rig: Rig) -> None:
    def broken(spi: object, buf: bytearray, write: int = 0) -> None:
        raise OSError("SPI bus fault")

    type(rig.board.spi).readinto = broken  # the next build's SPI too
    rig.board.kbd_intr.clear()
    with pytest.raises(Reset):
        rig.pico.main()
    assert rig.board.kbd_intr == [-1, 3]
    assert [type(e) for e in rig.board.exceptions] == [OSError]


class OneByteRoom:
    """rp2's USB stdout as the issue found it: writable with a single byte free, and a longer
    write would wait for the host (here: an error)."""

    def __init__(self) -> None:
        self.room = 0
        self.sent = bytearray()

    def poll(self, timeout: int = 0) -> list[tuple[int, int]]:
        return [(1, select.POLLOUT)] if self.room else []

    def write(self, data: bytes) -> int:
        if len(data) > self.room:
            raise AssertionError(f"a write of {len(data)} bytes with {self.room} free would block")
        self.room -= len(data)
        self.sent += data
        return len(data)


def test_writes_never_wait_for_room_in_the_usb_buffer(rig: Rig) -> None:
    port = rig.pico.UsbPort()
    usb = OneByteRoom()
    port._tx, port._out = usb.poll, usb
    packet = rig.proto.encode(sp.FRAME, 1, sp.pack_frame(1, 2, 0, sp.CHANGE, bytes(19)))
    assert port.write(packet)  # queued, nothing sent: no room at all
    assert usb.sent == b""
    for _ in range(len(packet)):
        usb.room = 1  # the host takes one byte between two scans
        port.pump()
    assert bytes(usb.sent) == packet


def test_a_full_queue_refuses_a_packet_whole(rig: Rig) -> None:
    port = rig.pico.UsbPort()
    usb = OneByteRoom()
    port._tx, port._out = usb.poll, usb
    packet = rig.proto.encode(sp.FRAME, 1, sp.pack_frame(1, 2, 0, sp.CHANGE, bytes(19)))
    queued = 0
    while port.write(packet):
        queued += 1
    assert queued == rig.pico.TX_QUEUE // len(packet)
    usb.room = 10_000
    for _ in range(100):
        port.pump()
    assert bytes(usb.sent) == packet * queued  # whole packets only, in order


def test_the_watchdog_is_armed_fed_every_scan_and_disarmed_for_the_repl(rig: Rig) -> None:
    watchdog = rig.board.watchdog
    assert watchdog.timeout == rig.pico.WATCHDOG_MS and watchdog.armed
    before = watchdog.feeds
    rig.step(count=10)
    assert watchdog.feeds - before == 10
    # main() on a fresh build: mpremote's Ctrl-C on the USB port ends it, watchdog disarmed.
    os.write(rig.stdin_fd, b"\r\x03")
    rig.pico.main()
    assert rig.board.watchdog is not watchdog and not rig.board.watchdog.armed
