"""The bit-string encoding shared by gnubg's Position ID and Match ID.

Both IDs are a little-endian bit string (bit *i* is bit ``i % 8`` of byte ``i // 8``)
written in standard base64 with the padding removed.
"""

import base64
import binascii


def encode(bits: list[int], nbytes: int) -> str:
    """Pack ``bits`` (0/1, first bit first) into ``nbytes`` bytes and base64 them."""
    key = bytearray(nbytes)
    for i, bit in enumerate(bits):
        if bit:
            key[i >> 3] |= 1 << (i & 7)
    return base64.b64encode(bytes(key)).decode("ascii").rstrip("=")


def decode(text: str, nbytes: int, what: str) -> list[int]:
    """Unpack an ID of ``nbytes`` bytes into its bits; ``what`` names the ID in errors.

    Raises ``ValueError`` naming the problem (length, alphabet) and the text.
    """
    length = (nbytes * 8 + 5) // 6
    if len(text) != length:
        raise ValueError(f"{what} {text!r} has {len(text)} characters, expected {length}")
    try:
        key = base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except binascii.Error as exc:
        raise ValueError(f"{what} {text!r} is not base64: {exc}") from None
    return [(key[i >> 3] >> (i & 7)) & 1 for i in range(nbytes * 8)]


def field(bits: list[int], start: int, width: int) -> int:
    """The unsigned integer stored least significant bit first at ``bits[start:start+width]``."""
    return sum(bits[start + i] << i for i in range(width))


def put(bits: list[int], value: int, width: int) -> None:
    """Append ``value`` as ``width`` bits, least significant first."""
    bits.extend((value >> i) & 1 for i in range(width))
