"""An engine in a seat at the simulated board: asked by the table, its play lit and made by
the hands; its cube answers; a failed answer asked again, a second failure raised."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from bgpi.engine import CubeAnswer, CubeDecision, EngineError, MatchAnalysis, SimpleEngine
from bgpi.engine.seat import EngineSeat
from bgpi.journal.records import CubeAction, MatchStarted, Record, Seat
from bgpi.rules import GameResult, Match, MatchRules, Play, Position
from bgpi.sim.demo import PipPlayer, play_match
from bgpi.table import Ask, Decided, DecisionRequest, Intent, Phase

MONEY_AFTER_OPENING = Match.new(MatchRules(0)).opening_roll(3, 1)


class Flaky(SimpleEngine):
    """The simple engine, failing the questions listed (by their number, from 1)."""

    def __init__(self, *failing: int) -> None:
        super().__init__()
        self.failing, self.asked = set(failing), 0

    def choose_play(self, position: Position, dice: tuple[int, int], match: Match) -> Play:
        self.asked += 1
        if self.asked in self.failing:
            raise EngineError("gnubg gave no answer to play in 1 s")
        return super().choose_play(position, dice, match)


def test_the_simple_engine_in_a_seat_plays_a_match_by_the_lights() -> None:
    said: list[str] = []
    seat = EngineSeat(Flaky(3), said.append)
    sim = play_match(MatchStarted(3), seed=4, say=lambda _: None, sides=(seat, PipPlayer()))
    assert sim.phase is Phase.MATCH_OVER
    assert sim.driver.log[0] == MatchStarted(3, seats=(Seat.ENGINE, Seat.PERSON))
    assert said == ["simple: gnubg gave no answer to play in 1 s"]  # asked again, and played


def test_two_failures_in_a_row_end_it() -> None:
    seat = EngineSeat(Flaky(2, 3), lambda _: None)
    with pytest.raises(EngineError, match="no answer"):
        play_match(MatchStarted(3), seed=4, say=lambda _: None, sides=(seat, PipPlayer()))


class Cube(SimpleEngine):
    def __init__(self, answer: CubeAnswer) -> None:
        super().__init__()
        self.answer = answer

    def cube_decision(self, position: Position, match: Match) -> CubeDecision:
        return CubeDecision(False, self.answer, "scripted")

    def analyse(self, records: Sequence[Record]) -> MatchAnalysis:
        raise NotImplementedError


class Table:
    """Just what the seat reads of a table when asked about a double."""

    def __init__(self, match: Match) -> None:
        self.match = match

    def mover_view_of(self, player: int) -> Position:
        return Position.initial()

    @property
    def mover_view(self) -> Position:
        return Position.initial()


@pytest.mark.parametrize(
    ("rules", "answer", "intent"),
    [
        (MatchStarted(5), CubeAnswer.DROP, Intent.DROP),
        (MatchStarted(5), CubeAnswer.TAKE, Intent.TAKE),
        (MatchStarted(0, beaver=True), CubeAnswer.BEAVER, Intent.BEAVER),
        (MatchStarted(0), CubeAnswer.BEAVER, Intent.TAKE),  # no beavers in these rules
    ],
)
def test_a_double_is_answered_as_the_engine_says(
    rules: MatchStarted, answer: CubeAnswer, intent: Intent
) -> None:
    match = Match.new(rules.rules()).opening_roll(3, 1).end_turn().double()
    seat = EngineSeat(Cube(answer), lambda _: None)
    asked = DecisionRequest(match.decider(), Ask.CUBE)
    assert seat(asked, Table(match)) is intent  # type: ignore[arg-type]


def test_an_engine_seat_doubles_and_its_double_is_journaled() -> None:
    class Doubler(SimpleEngine):
        def cube_decision(self, position: Position, match: Match) -> CubeDecision:
            return CubeDecision(True, CubeAnswer.TAKE, "Double, take")

    seat = EngineSeat(Doubler(), lambda _: None)
    sim = play_match(MatchStarted(3), seed=4, say=lambda _: None, sides=(seat, PipPlayer()))
    doubles = [r for r in sim.driver.log if isinstance(r, CubeAction) and r.player == 0]
    assert doubles and doubles[0].action.value == "double"


class Resigned(Table):
    """A table where the other player offered to resign ``offered``."""

    def __init__(self, offered: GameResult) -> None:
        match = Match.new(MatchRules(5)).opening_roll(3, 1).resign(0, offered)
        super().__init__(match)


@pytest.mark.parametrize(
    ("offered", "intent"),
    [(GameResult.SINGLE, Intent.DECLINE_RESIGN), (GameResult.GAMMON, Intent.ACCEPT_RESIGN)],
)
def test_a_resignation_is_answered_as_the_engine_judges(
    offered: GameResult, intent: Intent
) -> None:
    seat = EngineSeat(SimpleEngine(), lambda _: None)  # accepts a gammon or more
    asked = DecisionRequest(1, Ask.RESIGN)
    assert seat(asked, Resigned(offered)) is intent  # type: ignore[arg-type]


def test_an_illegal_play_of_the_other_is_corrected() -> None:
    seat = EngineSeat(SimpleEngine(), lambda _: None)
    asked = DecisionRequest(1, Ask.ILLEGAL)
    assert seat(asked, Table(MONEY_AFTER_OPENING)) is Intent.DEMAND_CORRECTION  # type: ignore[arg-type]


def test_an_engine_that_would_resign_offers_it_before_its_roll() -> None:
    import queue  # noqa: PLC0415

    from bgpi.engine.worker import EngineWorker  # noqa: PLC0415

    class Loser(SimpleEngine):
        def resignation(self, position: Position, match: Match) -> GameResult | None:
            return GameResult.GAMMON

    answers: queue.Queue[object] = queue.Queue()
    worker = EngineWorker({1: EngineSeat(Loser(), print)}, answers.put)
    worker.ask(DecisionRequest(1, Ask.TURN), Table(MONEY_AFTER_OPENING))  # type: ignore[arg-type]
    worker.close()
    answer = answers.get_nowait()
    assert isinstance(answer, Decided)
    assert (answer.player, answer.intent, answer.result) == (1, Intent.RESIGN, GameResult.GAMMON)
