"""An engine in a seat at the board: it answers what the table asks of a seat that is not a
person here (:mod:`bgpi.table.seats`), with the same intents a person's buttons have.

The table lights the play it chooses move by move and the hands at the board make it. A
question the engine fails to answer (it hung, died, or named an illegal play) is said and
left unanswered, for the shell to ask again of the restarted engine; a second failure in a
row is raised, so nothing waits forever on a broken engine.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from bgpi.engine.api import CubeAnswer, Engine, EngineError
from bgpi.rules import Move
from bgpi.table import Ask, DecisionRequest, Intent, Table

_ANSWERS: Final = {
    CubeAnswer.TAKE: Intent.TAKE,
    CubeAnswer.DROP: Intent.DROP,
    CubeAnswer.BEAVER: Intent.BEAVER,
}
TRIES: Final = 2


class EngineSeat:
    """A seat played by ``engine``: call it with the table's request and the table."""

    def __init__(self, engine: Engine, say: Callable[[str], None]) -> None:
        self.engine, self.say = engine, say
        self.failures = 0

    def __call__(self, request: DecisionRequest, table: Table) -> Intent | tuple[Move, ...] | None:
        try:
            answer = self.decide(request, table)
        except EngineError as exc:
            self.failures += 1
            self.say(f"{self.engine.name}: {exc}")
            if self.failures >= TRIES:
                raise
            return None
        self.failures = 0
        return answer

    def decide(self, request: DecisionRequest, table: Table) -> Intent | tuple[Move, ...]:
        """The engine's answer to ``request``; raise :class:`EngineError` if it has none."""
        match, player = table.match, request.player
        if request.ask is Ask.OPENING_ROLL:
            return Intent.OPENING_ROLL
        if request.ask is Ask.TURN:
            view = table.mover_view_of(player)
            doubles = match.may_double(player) and self.engine.cube_decision(view, match).double
            return Intent.DOUBLE if doubles else Intent.ROLL
        if request.ask is Ask.CUBE:
            # The engine judges a double from the doubler's side of the board.
            doubler = 1 - player
            reply = self.engine.cube_decision(table.mover_view_of(doubler), match).answer
            beaver = match.rules.beaver and match.cube * 4 <= match.rules.cube_limit
            if reply is CubeAnswer.BEAVER and not beaver:
                reply = CubeAnswer.TAKE
            return _ANSWERS[reply]
        assert match.dice is not None  # Ask.PLAY: the table asks once the dice are rolled
        return self.engine.choose_play(table.mover_view, match.dice, match).moves
