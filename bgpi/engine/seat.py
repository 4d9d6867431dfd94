"""An engine in a seat at the board: it answers what the table asks of a seat that is not a
person here (:mod:`bgpi.table.seats`), with the same intents a person's buttons have.

The table lights the play it chooses move by move and the hands at the board make it.
Before its roll an engine that would resign answers with the level it resigns (a
:class:`~bgpi.rules.GameResult`, offered at once as ``Intent.RESIGN``), wherever the seat
plays: ``bgpi run``, ``bgpi sim`` and ``bgpi demo`` alike. Declined, it plays on, and the
seat offers again in that game only a higher level, as the built-in player does: nobody is
asked the same question at every roll. A question the engine fails to answer (it hung,
died, or named an illegal play) is said and left unanswered, for the shell to ask again of
the restarted engine; a second failure in a row is raised, so nothing waits forever on a
broken engine.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from bgpi.engine.api import CubeAnswer, Engine, EngineError
from bgpi.engine.hints import may_beaver
from bgpi.rules import GameResult
from bgpi.table import Ask, DecisionRequest, Intent, Table
from bgpi.table.seats import SeatAnswer

_ANSWERS: Final = {
    CubeAnswer.TAKE: Intent.TAKE,
    CubeAnswer.DROP: Intent.DROP,
    CubeAnswer.BEAVER: Intent.BEAVER,
}
# Asks with one answer: the opening die, and the match shown (the config's or the command's)
# started where no person here chooses one.
_AT_ONCE: Final = {Ask.OPENING_ROLL: Intent.OPENING_ROLL, Ask.START: Intent.START_MATCH}
TRIES: Final = 2


class EngineSeat:
    """A seat played by ``engine``: call it with the table's request and the table."""

    def __init__(self, engine: Engine, say: Callable[[str], None]) -> None:
        self.engine, self.say = engine, say
        self.failures = 0
        # The highest level offered in this game; asked to roll again in the same game, the
        # seat knows it was declined. A game begins with the seat's opening die.
        self.offered: GameResult | None = None

    def __call__(self, request: DecisionRequest, table: Table) -> SeatAnswer | None:
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

    def resigns(self, request: DecisionRequest, table: Table) -> GameResult | None:
        """Before its roll, what the engine resigns (the least the opponent is sure to win),
        or None to play on: where it would resign no more than it offered already this game
        (declined), and where it fails (said)."""
        if request.ask is not Ask.TURN:
            return None
        try:
            level = self.engine.resignation(table.mover_view_of(request.player), table.match)
        except EngineError as exc:
            self.say(f"{self.engine.name}: {exc}")
            return None
        if level is None or (self.offered is not None and level <= self.offered):
            return None  # declined already this game: only a higher level is offered
        self.offered = level
        return level

    def _turn(self, request: DecisionRequest, table: Table) -> SeatAnswer:
        """Before its roll: resign, double or roll."""
        resigned = self.resigns(request, table)
        if resigned is not None:
            return resigned
        match, player = table.match, request.player
        view = table.mover_view_of(player)
        doubles = match.may_double(player) and self.engine.cube_decision(view, match).double
        return Intent.DOUBLE if doubles else Intent.ROLL

    def decide(self, request: DecisionRequest, table: Table) -> SeatAnswer:
        """The engine's answer to ``request``; raise :class:`EngineError` if it has none."""
        match, player = table.match, request.player
        if request.ask in _AT_ONCE:
            if request.ask is Ask.OPENING_ROLL:
                self.offered = None  # a new game
            return _AT_ONCE[request.ask]
        if request.ask is Ask.TURN:
            return self._turn(request, table)
        if request.ask is Ask.CUBE:
            # The engine judges a double from the doubler's side of the board: the mover's.
            reply = self.engine.cube_decision(table.mover_view, match).answer
            if reply is CubeAnswer.BEAVER and not may_beaver(match):
                reply = CubeAnswer.TAKE
            return _ANSWERS[reply]
        if request.ask is Ask.RESIGN:
            offered = match.resignation
            assert offered is not None  # the table asks while an offer is pending
            accepts = self.engine.accepts(table.mover_view_of(player), match, offered)
            return Intent.ACCEPT_RESIGN if accepts else Intent.DECLINE_RESIGN
        if request.ask is Ask.ILLEGAL:
            # The rules let the opponent of an illegal play have it corrected; an engine does.
            return Intent.DEMAND_CORRECTION
        assert match.dice is not None  # Ask.PLAY: the table asks once the dice are rolled
        return self.engine.choose_play(table.mover_view, match.dice, match).moves
