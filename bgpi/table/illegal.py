"""Reading the position an illegal play left on the board, so the opponent may accept it.

The switches count checkers per zone but cannot tell their colour, and a stack taller than
its slots hides checkers. So the board is read only when that is unambiguous: every full
stack is as it was, the opponent's checkers are where they were but for blots the mover hit
(each on the opponent's bar now), and what is left of each zone is the mover's.

Which blots were hit is read from the opponent's bar: as many blots as it gained. A blot's
point that now shows no checker or two and more was hit (both colours never share a point);
one that shows a single checker may still hold the blot or hold the mover's checker that hit
it. Every way of choosing the hit blots is tried, and the board is read only if exactly one
gives a position that shows as the board does. Anything else cannot be accepted: the
opponent can only demand the correction, as the rules also allow.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import Final

from bgpi.base.words import Player
from bgpi.rules import BAR, CHECKERS, OFF, Position
from bgpi.rules.errors import RulesError
from bgpi.sensing.board import Observation, counts_of, observe, zone_of

POINTS = 24
MOST_HITS: Final = 4  # a play is at most four moves, each hitting at most one blot


def read_illegal(
    before: Position, observation: Observation, mover: Player, caps: Sequence[int]
) -> Position | None:
    """The position (the mover's view) the board shows after the mover's turn, or None when
    the switches cannot say it for certain."""
    if _stacks_unclear(counts_of(before, mover), observation, caps):
        return None
    readings = {
        after
        for opponent in _hit_sides(before.opponent, observation[zone_of(Player(mover).other, BAR)])
        if (after := _read(before, opponent, observation, mover, caps)) is not None
    }
    return readings.pop() if len(readings) == 1 else None


def only_hits(before: Sequence[int], after: Sequence[int]) -> bool:
    """Whether the opponent's side ``after`` is ``before`` with some blots hit (on the bar)
    and nothing else moved: what an accepted illegal play may do to the opponent."""
    gone = [p for p in range(1, POINTS + 1) if after[p] != before[p]]
    if any(before[p] != 1 or after[p] for p in gone) or after[OFF] != before[OFF]:
        return False
    return after[BAR] == before[BAR] + len(gone)


def _hit_sides(opponent: tuple[int, ...], on_bar: int) -> Iterator[tuple[int, ...]]:
    """The opponent's sides the board may show: ``on_bar - opponent[BAR]`` of their blots
    hit, chosen every way."""
    hits = on_bar - opponent[BAR]
    if not 0 <= hits <= MOST_HITS:
        return
    blots = [p for p in range(1, POINTS + 1) if opponent[p] == 1]
    for hit in combinations(blots, hits):
        side = list(opponent)
        for point in hit:
            side[point] = 0
        side[BAR] = on_bar
        yield tuple(side)


def _read(
    before: Position,
    opponent: tuple[int, ...],
    observation: Observation,
    mover: Player,
    caps: Sequence[int],
) -> Position | None:
    """The position the board shows if the opponent's side is ``opponent``, or None if it
    cannot be."""
    player = _mover_side(opponent, observation, mover)
    if player is None:
        return None
    hidden = any(cap and seen >= cap for seen, cap in zip(observation, caps, strict=True))
    if player[OFF] < 0 or (hidden and player[OFF] != before.player[OFF]):
        return None  # checkers missing: borne off, or hidden on a full stack?
    try:
        after = Position(tuple(player), opponent)
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


def _mover_side(
    opponent: tuple[int, ...], observation: Observation, mover: Player
) -> list[int] | None:
    """The mover's checkers: each zone less the opponent's (``opponent``, their side as the
    board would hold it)."""
    player = [0] * (BAR + 1)
    for index in (*range(1, POINTS + 1), BAR):
        theirs = opponent[BAR - index] if index != BAR else 0
        player[index] = observation[zone_of(mover, index)] - theirs
        if player[index] < 0 or (theirs and player[index]):
            return None  # one of theirs moved, or both colours on one point
    player[OFF] = CHECKERS - sum(player)
    return player
