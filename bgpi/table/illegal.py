"""Reading the position an illegal play left on the board, so the opponent may accept it.

The switches count checkers per zone but cannot tell their colour, and a stack taller than
its slots hides checkers. So the board is read only when that is unambiguous: the opponent's
checkers are where they were (no checker of theirs moved, none hit), every full stack is as
it was, and what is left of each zone is the mover's. Anything else cannot be accepted: the
opponent can only demand the correction, as the rules also allow.
"""

from __future__ import annotations

from collections.abc import Sequence

from bgpi.rules import BAR, CHECKERS, OFF, Position
from bgpi.rules.errors import RulesError
from bgpi.sensing.board import Observation, counts_of, observe, zone_of

POINTS = 24


def read_illegal(
    before: Position, observation: Observation, mover: int, caps: Sequence[int]
) -> Position | None:
    """The position (the mover's view) the board shows after the mover's turn, or None when
    the switches cannot say it for certain."""
    if _stacks_unclear(counts_of(before, mover), observation, caps):
        return None
    player = _mover_side(before, observation, mover)
    if player is None:
        return None
    hidden = any(cap and seen >= cap for seen, cap in zip(observation, caps, strict=True))
    if player[OFF] < 0 or (hidden and player[OFF] != before.player[OFF]):
        return None  # checkers missing: borne off, or hidden on a full stack?
    try:
        after = Position(tuple(player), before.opponent)
    except RulesError:
        return None
    return after if observe(after, mover, caps) == observation else None


def _stacks_unclear(expected: Observation, observation: Observation, caps: Sequence[int]) -> bool:
    """Whether a full zone may hold more checkers than its switches see, and a different
    number than before."""
    for zone, cap in enumerate(caps):
        if not cap or observation[zone] < cap:
            continue
        if expected[zone] > cap or expected[zone] != observation[zone]:
            return True
    return False


def _mover_side(before: Position, observation: Observation, mover: int) -> list[int] | None:
    """The mover's checkers: each zone less the opponent's, who must not have moved."""
    opponent = before.opponent
    if observation[zone_of(1 - mover, BAR)] != opponent[BAR]:
        return None  # a hit: which blot went to the bar cannot be told
    player = [0] * (BAR + 1)
    for index in (*range(1, POINTS + 1), BAR):
        theirs = opponent[BAR - index] if index != BAR else 0
        player[index] = observation[zone_of(mover, index)] - theirs
        if player[index] < 0 or (theirs and player[index]):
            return None  # one of theirs moved, or both colours on one point
    player[OFF] = CHECKERS - sum(player)
    return player
