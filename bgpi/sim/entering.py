"""Entering dice thrown by hand with the board's two buttons, as the hands do it: the
fewest presses for a roll (:data:`bgpi.table.buttons.ROWS`' entering rows).

The dice pixels show 1 at first; CUBE steps the value up, a held CUBE steps it down (both
round from 6 to 1), ROLL takes it, and the next die starts from the value taken. A held
ROLL on the first die takes a doublet at once. So the hands enter the die nearer to 1 (up
or down) first, then step to the other the shorter way: 4.3 presses a roll, over all 36.
"""

from __future__ import annotations

from typing import Final

from bgpi.base.words import CUBE, ROLL, ButtonName
from bgpi.table.buttons import Hold

FIRST_SHOWN: Final = 1
Gesture = tuple[ButtonName, Hold]


def _steps(start: int, value: int) -> tuple[Gesture, ...]:
    """CUBE presses from ``start`` to ``value``: short ones up, held ones down."""
    up = (value - start) % 6
    if up <= 6 - up:
        return ((CUBE, Hold.SHORT),) * up
    return ((CUBE, Hold.HELD),) * (6 - up)


def gestures(dice: tuple[int, ...]) -> tuple[Gesture, ...]:
    """The presses that enter ``dice``: one die (an opening roll), or a roll of two."""
    if len(dice) == 1:
        return (*_steps(FIRST_SHOWN, dice[0]), (ROLL, Hold.SHORT))
    first, second = dice
    if first == second:
        return (*_steps(FIRST_SHOWN, first), (ROLL, Hold.HELD))
    orders = ((first, second), (second, first))
    return min(
        (
            (*_steps(FIRST_SHOWN, a), (ROLL, Hold.SHORT), *_steps(a, b), (ROLL, Hold.SHORT))
            for a, b in orders
        ),
        key=len,
    )


def mean_presses() -> float:
    """Presses per roll, the mean over all 36 rolls (each as likely)."""
    rolls = [(a, b) for a in range(1, 7) for b in range(1, 7)]
    return sum(len(gestures(roll)) for roll in rolls) / len(rolls)
