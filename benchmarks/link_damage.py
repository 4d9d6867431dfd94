"""How many damaged frames the scanner link accepts: run ``python benchmarks/link_damage.py``.

Takes FRAMEs of the default board (152 switches, random switches, counter and uptime), overwrites
3-16 bytes of each on the wire at random places with random values, and feeds every piece between
delimiters to the host's decoder (``bgpi.hal.scanproto.decode``). A piece that decodes and then
unpacks as a valid frame of 152 switches is a frame *accepted*: a wrong board reading. It prints
how many of the damaged frames were accepted with this protocol (version 2, CRC-32), and how
many of the same damage protocol 1's CRC-16 let through, as a reference measured in the same
run. ``--frames`` sets how many (default 10,000,000: minutes on one core), ``--reference``
how many of those also go through the CRC-16 check (default 1,000,000), ``--seed`` the damage.
Exit status 1 if any frame was accepted.
"""

from __future__ import annotations

import argparse
import random
import struct
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bgpi.hal import scanproto as sp

NBITS = 152


def frame_wire(rng: random.Random, legacy: bool = False) -> bytes:
    bits = bytearray(rng.randbytes(sp.nbytes(NBITS)))
    bits[-1] &= (1 << NBITS % 8) - 1 if NBITS % 8 else 0xFF
    payload = sp.pack_frame(rng.getrandbits(32), rng.getrandbits(32), 0, rng.randrange(3), bits)
    encode = sp.encode_legacy if legacy else sp.encode
    return encode(sp.FRAME, rng.randrange(256), payload)


def damage(rng: random.Random, wire: bytes) -> bytes:
    """``wire`` with 3-16 of its bytes (delimiters aside) overwritten by random values."""
    body = bytearray(wire)
    for index in rng.sample(range(1, len(body) - 1), rng.randint(3, 16)):
        body[index] = rng.randrange(256)
    return bytes(body)


def accepted(wire: bytes, original: bytes) -> int:
    """The pieces of ``wire`` that this protocol takes as a valid frame other than the one
    sent."""
    count = 0
    for segment in wire.split(b"\x00"):
        if not segment or segment == original:
            continue
        try:
            type_, _, payload = sp.decode(segment)
            if type_ == sp.FRAME:
                sp.unpack_frame(payload, NBITS)
                count += 1
        except sp.ProtocolError:
            pass
    return count


def legacy_accepted(wire: bytes, original: bytes) -> tuple[int, int]:
    """Protocol 1's verdict on the pieces of ``wire``: (passed the CRC-16, valid frames)."""
    passed = valid = 0
    for segment in wire.split(b"\x00"):
        if not segment or segment == original:
            continue
        try:
            packet = sp.cobs_decode(segment)
        except sp.ProtocolError:
            continue
        if len(packet) < 4 or sp.crc16(packet[:-2]) != struct.unpack("<H", packet[-2:])[0]:
            continue
        passed += 1
        if packet[0] == sp.FRAME:
            try:
                sp.unpack_frame(packet[2:-2], NBITS)
                valid += 1
            except sp.ProtocolError:
                pass
    return passed, valid


def run(frames: int, reference: int, seed: int) -> int:
    rng = random.Random(seed)
    started = time.perf_counter()
    bad = 0
    for _ in range(frames):
        wire = frame_wire(rng)
        bad += accepted(damage(rng, wire), wire[1:-1])
    elapsed = time.perf_counter() - started
    print(
        f"protocol {sp.VERSION} (CRC-32): {bad} of {frames:,} damaged frames accepted "
        f"({elapsed:.0f} s)"
    )
    passed = valid = 0
    for _ in range(reference):
        wire = frame_wire(rng, legacy=True)
        crc_ok, frame_ok = legacy_accepted(damage(rng, wire), wire[1:-1])
        passed += crc_ok
        valid += frame_ok
    if reference:
        print(
            f"protocol 1 (CRC-16), the reference: {passed} of {reference:,} passed the CRC, "
            f"{valid} as valid frames ({passed / reference * 1e6:.1f} per million; "
            f"CRC-32 {bad / frames * 1e6:.1f} per million)"
        )
    return 1 if bad else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=10_000_000)
    parser.add_argument("--reference", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    return run(args.frames, args.reference, args.seed)


if __name__ == "__main__":
    sys.exit(main())
