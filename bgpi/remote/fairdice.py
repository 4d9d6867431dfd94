"""Dice that neither board can choose or foresee: commit, then reveal.

For each draw (a roll, or one die of the opening roll, numbered from 0 in the match) each
board draws a 32-byte secret and publishes its commitment, a hash of the secret bound to the
room, the side and the draw. Only once it holds the other board's commitment does it reveal
its secret. The dice are a hash of both secrets: a board that knows its own secret and the
other's commitment learns nothing of the dice, and cannot change its secret once committed.
"""

from __future__ import annotations

import hashlib
from typing import Final

from bgpi.base.words import Player

SECRET_BYTES: Final = 32
_COMMIT: Final = b"bgpi commit v1"
_DICE: Final = b"bgpi dice v1"


def commitment(room: str, side: Player, draw: int, secret: bytes) -> str:
    """The hash a board publishes before it reveals ``secret``."""
    data = b"|".join((_COMMIT, room.encode(), str(side).encode(), str(draw).encode(), secret))
    return hashlib.sha256(data).hexdigest()


def dice_of(room: str, draw: int, white: bytes, black: bytes) -> tuple[int, int]:
    """The two dice of draw ``draw`` from both boards' secrets (the opening roll's die is the
    first). Uniform: bytes of 252 and above are skipped rather than folded."""
    stream = hashlib.sha256(b"|".join((_DICE, room.encode(), str(draw).encode(), white, black)))
    dice: list[int] = []
    block = stream.digest()
    while True:
        for byte in block:
            if byte < 252:
                dice.append(byte % 6 + 1)
                if len(dice) == 2:
                    return dice[0], dice[1]
        block = hashlib.sha256(block).digest()
