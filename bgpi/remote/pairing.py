"""The pairing of two boards: a match code, and what both boards derive from it.

The code is the only secret the two players share (read out on the phone, or scanned from the
companion page). From it each board derives, with a slow key derivation so that a captured
message cannot be used to guess the code, one signing key per side and the room: the topic
prefix of the match on the broker, which does not reveal the code.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from typing import Final

from bgpi.base.errors import BgpiError
from bgpi.base.words import BLACK, WHITE, Player

ALPHABET: Final = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # no 0/O, 1/I: read out over the phone
CODE_LENGTH: Final = 10  # 50 bits
_ITERATIONS: Final = 200_000
_SALT: Final = b"bgpi remote v1"
SIDE_NAMES: Final = ("white", "black")


class PairingError(BgpiError, ValueError):
    """A match code that cannot pair two boards."""


def new_code() -> str:
    """A fresh random match code, e.g. ``K7QDM-2PXWA``."""
    raw = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
    return f"{raw[:5]}-{raw[5:]}"


def normalize(code: str) -> str:
    """The code as typed (any case, dashes and spaces anywhere) in its one written form."""
    raw = "".join(ch for ch in code.upper() if ch not in "- ")
    wrong = sorted({ch for ch in raw if ch not in ALPHABET})
    if wrong:
        raise PairingError(f"match code {code!r}: {''.join(wrong)!r} is not in {ALPHABET}")
    if len(raw) != CODE_LENGTH:
        raise PairingError(f"match code {code!r} has {len(raw)} letters, expected {CODE_LENGTH}")
    return f"{raw[:5]}-{raw[5:]}"


def side_name(side: Player) -> str:
    return SIDE_NAMES[side]


def side_of(name: str) -> Player:
    """``white`` or ``black`` as a side; ``PairingError`` otherwise."""
    if name not in SIDE_NAMES:
        raise PairingError(f"side {name!r}: expected white or black")
    return Player(SIDE_NAMES.index(name))


@dataclass(frozen=True, slots=True)
class Pairing:
    """What a match code gives both boards: the room and one key per side."""

    code: str
    room: str = field(init=False)
    _keys: tuple[bytes, bytes] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        code = normalize(self.code)
        master = hashlib.pbkdf2_hmac("sha256", code.encode(), _SALT, _ITERATIONS)
        room = hmac.new(master, b"room", hashlib.sha256).hexdigest()[:20]
        keys = tuple(
            hmac.new(master, f"key {n}".encode(), hashlib.sha256).digest() for n in SIDE_NAMES
        )
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "room", room)
        object.__setattr__(self, "_keys", (keys[WHITE], keys[BLACK]))

    def key(self, side: Player) -> bytes:
        """The key that signs ``side``'s messages."""
        return self._keys[side]

    def topic(self, side: Player) -> str:
        """Where ``side`` publishes; the other board subscribes to it."""
        return f"bgpi/v1/{self.room}/{side_name(side)}"

    def client_id(self, side: Player) -> str:
        """The broker session of ``side``'s board: the same after a restart, so the broker
        keeps what arrived while the board was off."""
        return f"bgpi-{self.room[:12]}-{side_name(side)}"
