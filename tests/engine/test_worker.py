"""The engine's thread in the shell: answers come back as the table's events; a failure is
asked once more, a second one said and left."""

from __future__ import annotations

import queue

from bgpi.base.words import BLACK, WHITE
from bgpi.engine import EngineError, SimpleEngine
from bgpi.engine.seat import EngineSeat
from bgpi.engine.worker import Answer, EngineWorker
from bgpi.journal.records import MatchStarted, Seat
from bgpi.rules import Match, Play, Position
from bgpi.sim.simtable import SimTable
from bgpi.table import Ask, Chosen, Decided, DecisionRequest, Intent, Phase
from tests.table.arrange import fixed_dice


class Failing(SimpleEngine):
    def __init__(self, failures: int) -> None:
        super().__init__()
        self.failures = failures

    def choose_play(self, position: Position, dice: tuple[int, int], match: Match) -> Play:
        if self.failures:
            self.failures -= 1
            raise EngineError("gnubg stopped while answering play")
        return super().choose_play(position, dice, match)


def black_to_play() -> SimTable:
    """Black's seat is the engine's and Black won the opening: its play is due."""
    sim = SimTable(MatchStarted(5, seats=(Seat.PERSON, Seat.ENGINE)))
    fixed_dice(sim, 6, 2)
    sim.setup()
    sim.driver.dispatch(Decided(BLACK, Intent.OPENING_ROLL, sim.clock()))  # as its seat would
    sim.roll(WHITE)
    assert sim.phase is Phase.MOVING and sim.match.turn == BLACK
    return sim


def ask(engine: SimpleEngine, sim: SimTable, said: list[str]) -> Answer | None:
    answers: queue.Queue[Answer] = queue.Queue()
    worker = EngineWorker({BLACK: EngineSeat(engine, said.append)}, answers.put, say=said.append)
    worker.ask(DecisionRequest(WHITE, Ask.PLAY), sim.table)  # not an engine's seat: ignored
    worker.ask(DecisionRequest(BLACK, Ask.PLAY), sim.table)
    worker.close()
    return answers.get_nowait() if not answers.empty() else None


def test_the_answer_comes_back_as_the_tables_event() -> None:
    sim = black_to_play()
    said: list[str] = []
    answer = ask(Failing(1), sim, said)  # the first try fails, the second answers
    assert isinstance(answer, Chosen) and answer.player == BLACK
    assert said == ["simple: gnubg stopped while answering play"]
    sim.driver.dispatch(answer)
    assert sim.phase is Phase.GUIDED


def test_two_failures_are_said_and_nothing_is_played() -> None:
    said: list[str] = []
    assert ask(Failing(2), black_to_play(), said) is None
    assert said[-1] == (
        "simple failed twice: gnubg stopped while answering play; the seat is not answered"
    )


def test_a_decision_comes_back_as_an_intent() -> None:
    answers: queue.Queue[Answer] = queue.Queue()
    worker = EngineWorker({BLACK: EngineSeat(SimpleEngine(), print)}, answers.put)
    sim = SimTable(MatchStarted(5, seats=(Seat.PERSON, Seat.ENGINE)))
    worker.ask(DecisionRequest(BLACK, Ask.OPENING_ROLL), sim.table)
    worker.close()
    answer = answers.get_nowait()
    assert isinstance(answer, Decided) and answer.intent is Intent.OPENING_ROLL
