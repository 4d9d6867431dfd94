"""Hints: what the engine would do for the player whose decision it is now.

Before the first checker of a roll moves, the best play (to light on the board); before
rolling, whether the engine would double; while doubled, whether it would take. Pure over
the table's values; the engine is asked, so it may raise :class:`EngineError`.
"""

from __future__ import annotations

from dataclasses import dataclass

from bgpi.engine.api import Engine
from bgpi.rules import Play
from bgpi.table import Moving, Phase, Table


@dataclass(frozen=True, slots=True)
class Hint:
    """For ``player``: the play to light (``play``), or the engine's words on the cube."""

    player: int
    words: str
    play: Play | None = None


def hint(table: Table, engine: Engine) -> Hint | None:
    """The engine's hint for the decision the table waits for, or None where there is none
    to give (no roll or cube decision due, or a checker of the roll already moved)."""
    match, turn = table.match, table.match.turn
    if turn is None:
        return None
    if table.phase is Phase.MOVING and match.dice is not None and not _moved(table):
        play = engine.choose_play(table.mover_view, match.dice, match)
        return Hint(turn, f"{engine.name} plays {play}", play)
    if table.phase is Phase.BEFORE_ROLL:
        if not match.may_double(turn):
            return Hint(turn, "no double now: roll")
        decision = engine.cube_decision(table.mover_view_of(turn), match)
        verb = "would double" if decision.double else "would not double"
        return Hint(turn, f"{engine.name} {verb} ({decision.words})")
    if table.phase is Phase.DOUBLED:
        decision = engine.cube_decision(table.mover_view_of(turn), match)
        answer = decision.answer.value
        return Hint(1 - turn, f"{engine.name} would {answer} ({decision.words})")
    return None


def _moved(table: Table) -> bool:
    """Whether the board has shown a checker of this roll moved (the tracker has matched a
    node past the start of the roll, node 0)."""
    return isinstance(table.at, Moving) and table.at.near != 0
