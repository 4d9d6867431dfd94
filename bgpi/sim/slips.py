"""A slip of the hand: the demo's player sometimes makes an illegal play, as people do.

The slip is the chosen play with its last checker carried one pip too far (onto a point the
other side does not hold, hitting nothing), so the board shows a complete play that no
legal play leads to, for the opponent to accept or have corrected.
"""

from __future__ import annotations

from dataclasses import dataclass

from bgpi.rules import BAR, OFF, Move, Play, Position, apply_move
from bgpi.rules.errors import RulesError


@dataclass(frozen=True, slots=True)
class Slip:
    """``made`` are the chosen play's moves made as chosen, then the checker on ``src``
    goes to ``dst`` instead (the mover's numbering); ``result`` is the board after it."""

    made: tuple[Move, ...]
    src: int
    dst: int
    result: Position


def slip_of(view: Position, choice: Play, legal: set[Position]) -> Slip | None:
    """The slip of ``choice`` from ``view`` (the mover's view), or None if its last move
    cannot go one pip further without hitting, bearing off, or ending on a legal result."""
    moves = [m for m in choice.moves if m.dst != OFF and not m.hit]
    if not moves:
        return None
    last = moves[-1]
    dst = last.dst - 1
    if dst < 1 or view.opponent[BAR - dst]:
        return None
    made = tuple(m for m in choice.moves if m is not last)
    position = view
    try:
        for move in made:
            position = apply_move(position, move)
        player = list(position.player)
        player[last.src] -= 1
        player[dst] += 1
        result = Position(tuple(player), position.opponent)
    except (RulesError, ValueError):
        return None
    return None if result in legal else Slip(made, last.src, dst, result)
