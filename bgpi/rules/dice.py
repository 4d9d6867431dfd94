"""Dice: a roll is two dice of 1 to 6."""

from __future__ import annotations

from collections.abc import Sequence

from bgpi.rules.errors import InvalidDiceError

Roll = tuple[int, int]


def check_roll(dice: Sequence[int]) -> Roll:
    """Return ``dice`` as a roll, or raise :class:`InvalidDiceError` naming what is wrong."""
    if len(dice) != 2:
        raise InvalidDiceError(f"a roll is two dice, got {len(dice)}: {tuple(dice)!r}")
    for die in dice:
        if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
            raise InvalidDiceError(f"die {die!r} in roll {tuple(dice)!r} is not 1 to 6")
    return dice[0], dice[1]


def dice_to_move(roll: Roll) -> tuple[int, ...]:
    """The dice a roll gives to move: four of a double, else the two."""
    d1, d2 = roll
    return (d1,) * 4 if d1 == d2 else (d1, d2)


def parse_roll(text: str) -> Roll:
    """Read a roll written ``"52"``, ``"5-2"`` or ``"5 2"``."""
    digits = [c for c in text if not c.isspace() and c not in "-/,"]
    if len(digits) != 2 or not all(c.isdigit() for c in digits):
        raise InvalidDiceError(f"cannot read a roll of two dice from {text!r}")
    return check_roll((int(digits[0]), int(digits[1])))
