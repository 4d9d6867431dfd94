"""The board against positions: the table keeps a position from White's side and the rules
move from the mover's, and what the sensors see is compared with a position at every frame.

That comparison is asked for up to several times per frame shown, of the same two values (the
rows' guards, the scene's guidance, the status line), so :func:`diff_of` computes it once
per (observation, position): both are immutable, so remembering the answer changes nothing
but the time.
"""

from __future__ import annotations

from functools import lru_cache

from bgpi.base.words import BLACK, WHITE, Player
from bgpi.rules import Move, Position, apply_move
from bgpi.sensing.board import BoardDiff, Observation, check_board


def white_view(position: Position, mover: Player | None) -> Position:
    """White's view of the mover's view of ``position``, and back: the same swap (none
    before anyone is on roll)."""
    return position.swap() if mover == BLACK else position


def steps_of(
    start: Position, moves: tuple[Move, ...], mover: Player | None
) -> tuple[Position, ...] | None:
    """The positions (White's view) ``moves`` of ``mover`` pass through from ``start``
    (White's view), ``start`` first; None if a move cannot be made."""
    view = white_view(start, mover)
    steps = [view]
    for move in moves:
        try:
            view = apply_move(view, move)
        except (ValueError, IndexError):  # the rules' errors are ValueErrors
            return None
        steps.append(view)
    return tuple(white_view(step, mover) for step in steps)


@lru_cache(maxsize=32)  # a frame's pairs: the settled board with the position, a lit step
def diff_of(observation: Observation, position: Position, caps: Observation) -> BoardDiff:
    """How ``observation`` differs from ``position`` (White's view) on a board of ``caps``."""
    return check_board(observation, position, WHITE, caps)


def shows(observation: Observation, position: Position, caps: Observation) -> bool:
    """Whether the board reads as ``position`` (White's view)."""
    return diff_of(observation, position, caps).ok
