"""A million bytes of noise and damaged packets through the host's decoder: no packet that was
not sent whole comes out, and the first whole packet after any noise is read (resync within
one frame: every packet starts with its own delimiter)."""

from __future__ import annotations

import random
import struct

from bgpi.hal import scanproto as sp

NBITS = 152
TOTAL = 1_000_000


def message(rng: random.Random, counter: int) -> tuple[int, bytes]:
    """A good message of a random type; the counter makes every frame unique."""
    choice = rng.random()
    if choice < 0.7:
        bits = bytearray(rng.randbytes(sp.nbytes(NBITS)))
        reason = rng.choice((sp.CHANGE, sp.HEARTBEAT, sp.REQUESTED))
        return sp.FRAME, sp.pack_frame(counter, rng.getrandbits(32), 0, reason, bits)
    if choice < 0.8:
        hello = sp.Hello(sp.VERSION, (2, 0, 0), NBITS, 500, 3, 1000)
        return sp.HELLO_REPLY, sp.pack_hello(hello)
    if choice < 0.9:
        return sp.CONFIG, sp.pack_config(rng.randint(50, 2000), rng.randint(1, 50), 1000)
    return sp.ERROR, sp.pack_error(rng.randint(1, 3), rng.randint(0, 255), rng.randint(0, 255))


def damage(rng: random.Random, wire: bytes) -> bytes:
    """``wire`` damaged in one of the ways a line or a buffer damages it."""
    body = bytearray(wire)
    how = rng.randrange(5)
    if how == 0:  # one to three bits flipped anywhere, delimiters included
        for _ in range(rng.randint(1, 3)):
            body[rng.randrange(len(body))] ^= 1 << rng.randrange(8)
    elif how == 1:  # cut short, with or without a delimiter after
        body = body[: rng.randrange(1, len(body) - 1)]
        if rng.random() < 0.5:
            body.append(0)
    elif how == 2:  # a byte lost
        del body[rng.randrange(1, len(body) - 1)]
    elif how == 3:  # a byte added
        body.insert(rng.randrange(1, len(body) - 1), rng.randrange(256))
    else:  # a run of bytes overwritten
        start = rng.randrange(1, len(body) - 1)
        for index in range(start, min(len(body), start + rng.randint(2, 8))):
            body[index] = rng.randrange(256)
    return bytes(body)


def noise(rng: random.Random) -> bytes:
    if rng.random() < 0.8:
        return rng.randbytes(rng.randint(1, 400))
    # Long runs with no zero: oversized packets.
    return bytes(rng.randint(1, 255) for _ in range(rng.randint(150, 1000)))


def make_stream(seed: int) -> tuple[bytes, list[tuple[int, int, bytes]]]:
    rng = random.Random(seed)
    stream = bytearray()
    whole: list[tuple[int, int, bytes]] = []
    counter = 0
    while len(stream) < TOTAL:
        counter += 1
        type_, payload = message(rng, counter)
        seq = counter & 0xFF
        wire = sp.encode(type_, seq, payload)
        choice = rng.random()
        if choice < 0.3:
            stream += wire
            whole.append((type_, seq, payload))
        elif choice < 0.7:
            damaged = damage(rng, wire)
            stream += damaged
            if damaged.strip(b"\x00") == wire[1:-1]:
                # Undamaged after all: bits flipped back, or a zero added beside a delimiter.
                whole.append((type_, seq, payload))
        else:
            stream += noise(rng)
    return bytes(stream), whole


def valid(type_: int, payload: bytes) -> bool:
    try:
        if type_ == sp.FRAME:
            sp.unpack_frame(payload, NBITS)
        elif type_ == sp.HELLO_REPLY:
            sp.unpack_hello(payload)
        elif type_ == sp.CONFIG:
            sp.unpack_config(payload)
        else:
            sp.unpack_error(payload)
    except sp.ProtocolError:
        return False
    return True


def test_a_million_bytes_of_noise_and_damage() -> None:
    stream, whole = make_stream(seed=2024)
    assert len(stream) >= TOTAL
    rng = random.Random(1)
    decoder = sp.Decoder()
    accepted: list[tuple[int, int, bytes]] = []
    position = 0
    while position < len(stream):
        size = rng.choice((1, 7, 64, 512, 4096))
        accepted += decoder.feed(stream[position : position + size])
        position += size
    # Nothing but the packets sent whole, every one of them, in order.
    assert accepted == whole
    assert all(valid(type_, payload) for type_, _, payload in accepted)
    assert decoder.faults() > 5_000
    assert all(decoder.errors[kind] > 0 for kind in ("cobs", "crc", "oversized"))
    # The noise stopped: the very next frame is read.
    last = sp.encode(sp.FRAME, 1, sp.pack_frame(0, 0, 0, sp.CHANGE, bytes(19)))
    assert decoder.feed(last) == [(sp.FRAME, 1, sp.pack_frame(0, 0, 0, sp.CHANGE, bytes(19)))]


def test_noise_ending_mid_packet_costs_nothing_after_it() -> None:
    # Noise that stops with half a packet pending, then frames: each frame is read at once.
    rng = random.Random(5)
    decoder = sp.Decoder()
    for _ in range(200):
        decoder.feed(rng.randbytes(rng.randint(1, 300)).replace(b"\x00", b"\x01"))
        frame = sp.encode(sp.FRAME, 9, sp.pack_frame(3, 4, 0, sp.CHANGE, bytes(19)))
        assert len(decoder.feed(frame)) == 1


# -- damage a CRC-16 lets through -------------------------------------------------------------

# CRC-16/CCITT's generator x^16 + x^12 + x^5 + 1 as a bit pattern, shifted into three bytes: an
# error of exactly this shape anywhere in a packet leaves its CRC-16 unchanged.
CRC16_BLIND = bytes.fromhex("881080")


def old_crc_ok(packet: bytes) -> bool:
    return sp.crc16(packet[:-2]) == struct.unpack("<H", packet[-2:])[0]


def test_damage_the_old_crc_cannot_see_is_caught() -> None:
    payload = sp.pack_frame(7, 1234, 0, sp.CHANGE, bytes(19))
    for offset in range(11, 11 + 17):  # anywhere among the switches
        old = bytearray(sp.cobs_decode(sp.encode_legacy(sp.FRAME, 3, payload)[1:-1]))
        new = bytearray(sp.cobs_decode(sp.encode(sp.FRAME, 3, payload)[1:-1]))
        for index, flip in enumerate(CRC16_BLIND):
            old[2 + offset + index] ^= flip
            new[3 + offset + index] ^= flip
        # Protocol 1 would have read these switches, wrongly: its CRC and the frame check pass.
        assert old_crc_ok(bytes(old))
        assert sp.unpack_frame(bytes(old[2:-2]), NBITS).bits != bytes(19)
        decoder = sp.Decoder()
        assert decoder.feed(b"\x00" + sp.cobs_encode(bytes(new)) + b"\x00") == []
        assert decoder.errors["crc"] == 1


def overwrite(rng: random.Random, wire: bytes) -> bytes:
    """``wire`` with 3-16 of its bytes (delimiters aside) overwritten by random values."""
    body = bytearray(wire)
    for index in rng.sample(range(1, len(body) - 1), rng.randint(3, 16)):
        body[index] = rng.randrange(256)
    return bytes(body)


def test_frames_with_3_to_16_bytes_overwritten_are_never_accepted() -> None:
    # The small, seeded share of benchmarks/link_damage.py (10,000,000 frames, none accepted).
    rng = random.Random(20)
    decoder = sp.Decoder()
    damaged = 0
    for counter in range(20_000):
        payload = sp.pack_frame(counter, rng.getrandbits(32), 0, sp.CHANGE, rng.randbytes(19))
        wire = sp.encode(sp.FRAME, counter & 0xFF, payload)
        bad = overwrite(rng, wire)
        if bad.strip(b"\x00") == wire[1:-1]:
            continue  # the bytes were overwritten by themselves
        damaged += 1
        for type_, _, got in decoder.feed(bad):
            assert (type_, got) == (sp.FRAME, payload), "a damaged frame was accepted"
    assert damaged > 19_000
