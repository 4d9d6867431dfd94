"""``SimpleEngine``: a deterministic player of bgpi's own, the engine's simulated twin.

It counts pips and likes hitting and making points; it needs no gnubg, answers at once and
always the same, so tests of everything around an engine run anywhere. It does not analyse.
"""

from __future__ import annotations

from collections.abc import Sequence

from bgpi.engine.api import CubeAnswer, CubeDecision, EngineError, MatchAnalysis
from bgpi.journal.records import Record
from bgpi.rules import BAR, Match, Play, Position, legal_plays
from bgpi.rules.result import GameResult


def worth(pos: Position) -> float:
    """How much the player who just moved likes ``pos`` (their view): hits, made points and
    few blots first, then a short race."""
    made = sum(1 for point in range(1, 25) if pos.player[point] >= 2)
    blots = sum(1 for point in range(1, 25) if pos.player[point] == 1)
    return 10 * pos.opponent[BAR] + 3 * made - 2 * blots - pos.pip_count[0] / 50


class SimpleEngine:
    """Doubles with a clear lead in the race, takes unless far behind, never resigns."""

    name = "simple"

    def __init__(self, double_lead: float = 0.12, drop_behind: float = 0.25) -> None:
        self.double_lead = double_lead
        self.drop_behind = drop_behind

    def choose_play(self, position: Position, dice: tuple[int, int], match: Match) -> Play:
        # Ties go to the first play in notation order, so the choice never varies.
        plays = sorted(legal_plays(position, dice), key=str)
        return max(plays, key=lambda play: worth(play.result))

    def cube_decision(self, position: Position, match: Match) -> CubeDecision:
        mine, theirs = position.pip_count
        double = theirs - mine >= self.double_lead * theirs
        if theirs - mine > self.drop_behind * mine:
            answer = CubeAnswer.DROP
        elif match.rules.beaver and match.rules.money and mine - theirs > 10:
            answer = CubeAnswer.BEAVER
        else:
            answer = CubeAnswer.TAKE
        words = f"{'Double' if double else 'No double'}, {answer.value}"
        return CubeDecision(double, answer, words)

    def resignation(self, position: Position, match: Match) -> GameResult | None:
        return None

    def accepts(self, position: Position, match: Match, offered: GameResult) -> bool:
        return offered >= GameResult.GAMMON

    def analyse(self, records: Sequence[Record]) -> MatchAnalysis:
        raise EngineError("the simple engine does not analyse: gnubg does (`bgpi analyse`)")

    def close(self) -> None:
        pass
