"""A million bytes of noise and damaged packets through the host's decoder: no packet that was
not sent whole comes out, and the first whole packet after any noise is read (resync within
one frame: every packet starts with its own delimiter)."""

from __future__ import annotations

import random
import time

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
        hello = sp.Hello(sp.VERSION, (1, 0, 0), NBITS, 500, 3, 1000)
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
    started = time.perf_counter()
    position = 0
    while position < len(stream):
        size = rng.choice((1, 7, 64, 512, 4096))
        accepted += decoder.feed(stream[position : position + size])
        position += size
    elapsed = time.perf_counter() - started
    # Nothing but the packets sent whole, every one of them, in order.
    assert accepted == whole
    assert all(valid(type_, payload) for type_, _, payload in accepted)
    assert decoder.faults() > 5_000
    assert all(decoder.errors[kind] > 0 for kind in ("cobs", "crc", "oversized"))
    # The noise stopped: the very next frame is read.
    last = sp.encode(sp.FRAME, 1, sp.pack_frame(0, 0, 0, sp.CHANGE, bytes(19)))
    assert decoder.feed(last) == [(sp.FRAME, 1, sp.pack_frame(0, 0, 0, sp.CHANGE, bytes(19)))]
    assert elapsed < 10, f"decoding a million bytes took {elapsed:.1f} s"


def test_noise_ending_mid_packet_costs_nothing_after_it() -> None:
    # Noise that stops with half a packet pending, then frames: each frame is read at once.
    rng = random.Random(5)
    decoder = sp.Decoder()
    for _ in range(200):
        decoder.feed(rng.randbytes(rng.randint(1, 300)).replace(b"\x00", b"\x01"))
        frame = sp.encode(sp.FRAME, 9, sp.pack_frame(3, 4, 0, sp.CHANGE, bytes(19)))
        assert len(decoder.feed(frame)) == 1
