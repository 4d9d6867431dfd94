"""How hopeless a position is, judged by counting rolls in a race: the built-in player's
reason to resign, and to accept or decline a resignation.

Only a race is judged (no checker of either side can still hit or be hit): there the rolls
each side needs are a fair count, and a game that can still turn on a hit is played on.
A roll is worth about 8 pips (8.17 on average, less while bearing off wastes pips).
"""

from __future__ import annotations

from typing import Final

from bgpi.rules import BAR, OFF, Position
from bgpi.rules.result import GameResult

PIPS_A_ROLL: Final = 8
POINTS: Final = 24
HOME: Final = 6


def is_race(pos: Position) -> bool:
    """Whether every checker has passed every checker of the other side."""
    mine = max((p for p in range(1, BAR + 1) if pos.player[p]), default=0)
    theirs = max((p for p in range(1, BAR + 1) if pos.opponent[p]), default=0)
    return mine + theirs <= BAR


def rolls(pips: int) -> int:
    """Rolls to travel ``pips``, rounded up."""
    return -(-pips // PIPS_A_ROLL)


def lost(pos: Position, *, margin: int = 2) -> GameResult | None:
    """What the player on roll of ``pos`` (their view) has surely lost in a race: a single
    if they need ``margin`` rolls more than the other side to finish, a gammon if they need
    more rolls than the other side's finish just to bear one checker off, a backgammon if a
    checker still in the other side's home board cannot leave it in time. None: play on
    (a game with contact, or a race still open). The other side finishes one roll later
    than its count, as the player on roll rolls first."""
    if not is_race(pos):
        return None
    _, theirs = pos.pip_count
    finish = rolls(theirs)  # the other side's, counted from their next roll
    if rolls(pos.pip_count[0]) < finish + margin:
        return None
    if pos.player[OFF]:
        return GameResult.SINGLE
    if rolls(_to_leave(pos, POINTS - HOME)) > finish - 1 + margin // 2:
        return GameResult.BACKGAMMON
    if rolls(_to_leave(pos, HOME) + 1) > finish - 1 + margin // 2:
        return GameResult.GAMMON
    return GameResult.SINGLE


def _to_leave(pos: Position, beyond: int) -> int:
    """Pips the player on roll needs to bring every checker to point ``beyond`` or lower
    (home: 6; out of the other side's home board: 18)."""
    return sum((p - beyond) * pos.player[p] for p in range(beyond + 1, BAR + 1))
