"""The shared codec against firmware/vectors.json and by property: CRC, COBS, packets and
messages. The firmware's side of the same vectors is in test_firmware.py."""

from __future__ import annotations

import binascii
import struct
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bgpi.hal import scanproto as sp


def crc_bitwise(data: bytes) -> int:
    """CRC-16/CCITT-FALSE one bit at a time, straight from its definition."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = (crc << 1 ^ 0x1021) & 0xFFFF if crc & 0x8000 else crc << 1 & 0xFFFF
    return crc


def test_crc_vectors(vectors: dict[str, Any]) -> None:
    for vector in vectors["crc16"]:
        data = bytes.fromhex(vector["data"])
        expected = int(vector["crc"], 16)
        assert sp.crc16(data) == expected, vector["name"]
        assert sp.crc16_table(data) == expected, vector["name"]
        assert crc_bitwise(data) == expected, vector["name"]


@given(st.binary(max_size=300))
def test_the_picos_crc_table_is_crc_hqx(data: bytes) -> None:
    assert sp.crc16_table(data) == binascii.crc_hqx(data, 0xFFFF) == crc_bitwise(data)


def test_crc32_vectors(vectors: dict[str, Any]) -> None:
    for vector in vectors["crc32"]:
        data = bytes.fromhex(vector["data"])
        expected = int(vector["crc"], 16)
        assert sp.crc32(data) == sp.crc32_table(data) == expected, vector["name"]


@given(st.binary(max_size=300))
def test_the_crc32_table_is_binascii_crc32(data: bytes) -> None:
    assert sp.crc32_table(data) == binascii.crc32(data) == sp.crc32(data)


def test_packets_of_protocol_1_are_told_apart_and_not_accepted() -> None:
    old = sp.encode_legacy(sp.FRAME, 5, sp.pack_frame(1, 2, 0, sp.CHANGE, bytes(19)))
    decoder = sp.Decoder()
    assert decoder.feed(old) == []
    assert decoder.errors["version"] == 1
    assert (decoder.legacy, decoder.other_version) == ((sp.FRAME, 5), 1)
    # And a packet of this protocol never looks like one of protocol 1: it starts with 2.
    assert sp.cobs_decode(sp.encode(sp.HELLO, 0, b"")[1:-1])[0] == sp.VERSION


def test_cobs_vectors(vectors: dict[str, Any]) -> None:
    for vector in vectors["cobs"]:
        data, encoded = bytes.fromhex(vector["data"]), bytes.fromhex(vector["encoded"])
        assert sp.cobs_encode(data) == encoded
        assert sp.cobs_decode(encoded) == data


@given(st.binary(max_size=700))
def test_cobs_round_trip_leaves_no_zero(data: bytes) -> None:
    encoded = sp.cobs_encode(data)
    assert b"\x00" not in encoded
    assert len(encoded) <= len(data) + len(data) // 254 + 1
    assert sp.cobs_decode(encoded) == data


@pytest.mark.parametrize("bad", [b"\x05\x11\x22", b"\x02\x00\x01", b"\x00"])
def test_cobs_refuses_a_block_past_the_end_or_a_zero(bad: bytes) -> None:
    with pytest.raises(sp.ProtocolError) as caught:
        sp.cobs_decode(bad)
    assert caught.value.kind == "cobs"


def check_message(type_: int, payload: bytes, message: dict[str, Any]) -> None:
    """``payload`` decodes to ``message`` as the vector spells it, and packs back the same."""
    if "request" in message:
        assert sp.TYPE_NAMES[type_] == message["request"]
        assert payload == b""
    elif "hello" in message:
        want = message["hello"]
        hello = sp.unpack_hello(payload)
        assert hello == sp.Hello(
            want["version"],
            tuple(want["firmware"]),
            want["nbits"],
            want["scan_hz"],
            want["debounce_scans"],
            want["heartbeat_ms"],
        )
        assert sp.pack_hello(hello) == payload
    elif "frame" in message:
        want = message["frame"]
        frame = sp.unpack_frame(payload, want["nbits"])
        closed = [bit for bit in range(want["nbits"]) if frame.bits[bit // 8] >> bit % 8 & 1]
        assert closed == want["closed"]
        assert (frame.counter, frame.uptime_ms, frame.status) == (
            want["counter"],
            want["uptime_ms"],
            want["status"],
        )
        assert sp.REASON_NAMES[frame.reason] == want["reason"]
        assert sp.pack_frame(*frame.fields()) == payload
    elif "config" in message:
        want = message["config"]
        config = (want["scan_hz"], want["debounce_scans"], want["heartbeat_ms"])
        assert sp.unpack_config(payload) == config
        assert sp.pack_config(*config) == payload
    else:
        want = message["error"]
        assert sp.unpack_error(payload) == (want["code"], want["type"], want["seq"])


def test_packet_vectors_encode_and_decode(vectors: dict[str, Any]) -> None:
    for vector in vectors["packets"]:
        wire = bytes.fromhex(vector["wire"])
        payload = bytes.fromhex(vector["payload"])
        assert sp.encode(vector["type"], vector["seq"], payload) == wire, vector["name"]
        assert wire[0] == wire[-1] == 0 and b"\x00" not in wire[1:-1]
        assert sp.decode(wire[1:-1]) == (vector["type"], vector["seq"], payload)
        check_message(vector["type"], payload, vector["message"])


def test_the_decoder_reads_every_vector_back_to_back_byte_by_byte(
    vectors: dict[str, Any],
) -> None:
    stream = b"".join(bytes.fromhex(vector["wire"]) for vector in vectors["packets"])
    decoder = sp.Decoder()
    packets = []
    for index in range(len(stream)):
        packets += decoder.feed(stream[index : index + 1])
    assert [(t, s) for t, s, _ in packets] == [(v["type"], v["seq"]) for v in vectors["packets"]]
    assert decoder.faults() == 0


def test_bad_packet_vectors_are_dropped_and_counted(vectors: dict[str, Any]) -> None:
    for vector in vectors["bad_packets"]:
        decoder = sp.Decoder()
        assert decoder.feed(bytes.fromhex(vector["wire"])) == [], vector["name"]
        assert decoder.errors[vector["fault"]] == 1 and decoder.faults() == 1, vector["name"]


def test_bad_message_vectors_pass_the_crc_but_not_the_message_checks(
    vectors: dict[str, Any],
) -> None:
    for vector in vectors["bad_messages"]:
        type_, _, payload = sp.decode(bytes.fromhex(vector["wire"])[1:-1])
        with pytest.raises(sp.ProtocolError) as caught:
            if type_ == sp.FRAME:
                sp.unpack_frame(payload, vector["nbits"])
            else:
                sp.unpack_hello(payload)
        assert caught.value.kind in ("message", "version"), vector["name"]


def test_oversized_noise_is_skipped_up_to_the_next_delimiter() -> None:
    decoder = sp.Decoder()
    good = sp.encode(sp.HELLO, 7, b"")
    # The noise arrives in pieces and runs past the limit; the packet after it is read.
    for _ in range(10):
        assert decoder.feed(b"\x55" * 100) == []
    assert len(decoder.pending) == 0 and decoder.skipping
    assert decoder.feed(good) == [(sp.HELLO, 7, b"")]
    assert decoder.errors["oversized"] == 1 and decoder.faults() == 1


def test_the_largest_packet_fits_and_one_byte_more_does_not() -> None:
    bits = bytes([0xFF] * (sp.MAX_NBITS // 8))
    wire = sp.encode(sp.FRAME, 1, sp.pack_frame(1, 2, 3, sp.CHANGE, bits))
    assert len(wire) - 2 == sp.MAX_ENCODED
    assert sp.Decoder().feed(wire) != []
    too_long = sp.encode(sp.FRAME, 1, sp.pack_frame(1, 2, 3, sp.CHANGE, bits + b"\xff"))
    decoder = sp.Decoder()
    assert decoder.feed(too_long) == [] and decoder.errors["oversized"] == 1


def test_a_hello_of_another_version_is_named_as_such() -> None:
    with pytest.raises(sp.ProtocolError, match="protocol 3") as caught:
        sp.unpack_hello(bytes([3]) + bytes(10))
    assert caught.value.kind == "version"


def test_config_limits() -> None:
    assert sp.config_error(500, 3, 1000) == ""
    assert sp.config_error(0, 0, 0) == ""
    assert sp.config_error(10, 0, 0) == "scan_hz 10 is not 50-2000"
    assert sp.config_error(0, 51, 0) == "debounce_scans 51 is not 1-50"
    assert sp.config_error(0, 0, 1001) == "heartbeat_ms 1001 is not 50-1000"


def test_the_layouts_are_the_documented_sizes() -> None:
    assert struct.calcsize(sp.HELLO_FORMAT) == 11
    assert struct.calcsize(sp.FRAME_HEAD) == sp.FRAME_HEAD_SIZE == 11
    assert struct.calcsize(sp.CONFIG_FORMAT) == 5
    assert struct.calcsize(sp.ERROR_FORMAT) == 3
    # A frame of the default board: 19 bytes of switches, 40 on the wire.
    frame = sp.encode(sp.FRAME, 0, sp.pack_frame(0, 0, 0, 0, bytes(19)))
    assert len(frame) == 40
