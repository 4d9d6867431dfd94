"""An engine's play, named as checker steps, checked against bgpi's own legal plays."""

from __future__ import annotations

from collections.abc import Sequence

from bgpi.engine.api import EngineAnswerError
from bgpi.rules import Play, Position, apply_move, legal_moves, legal_plays


def checked_play(
    position: Position, dice: tuple[int, int], steps: Sequence[tuple[int, int]], who: str
) -> Play:
    """The legal play that the engine's ``steps`` (``(from, to)`` in the mover's numbering,
    25 the bar, 0 off, each one die) make from ``position``; raise
    :class:`EngineAnswerError` naming the position and the steps when they make none.

    The steps are followed one at a time, each by one of the dice still unused, because an
    engine may route a checker through other points than the representative play bgpi keeps
    for the same result.
    """
    plays = legal_plays(position, dice)
    remaining = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    here = position
    for src, dst in steps:
        move = next(
            (
                m
                for die in remaining
                for m in legal_moves(here, die)
                if (m.src, m.dst) == (src, dst)
            ),
            None,
        )
        if move is None:
            raise _refused(position, dice, steps, who, f"{src}/{dst} cannot be moved")
        remaining.remove(move.die)
        here = apply_move(here, move)
    for play in plays:
        if play.result == here:
            return play
    raise _refused(position, dice, steps, who, "it is not a whole legal play")


def _refused(
    position: Position, dice: tuple[int, int], steps: Sequence[tuple[int, int]], who: str, why: str
) -> EngineAnswerError:
    named = " ".join(f"{src}/{dst}" for src, dst in steps) or "no move"
    return EngineAnswerError(
        f"{who} named {named!r} for {dice[0]}-{dice[1]} in {position.id()}: {why}; not played"
    )
