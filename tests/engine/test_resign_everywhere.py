"""The computer resigns in ``bgpi demo`` and ``bgpi sim`` as it does in ``bgpi run``: its
seat answers the turn with the level it resigns, the table offers it, the other side
accepts, and the game ends journaled and scored."""

from __future__ import annotations

from pathlib import Path

from bgpi.base.words import BLACK, ROLL, WHITE
from bgpi.engine import GnubgEngine, Level
from bgpi.engine.seat import EngineSeat
from bgpi.journal.records import GameEnded, MatchStarted, ResignAnswered, ResignOffered, Seat
from bgpi.journal.store import Journal
from bgpi.rules import GameResult, Position
from bgpi.service.config import parse
from bgpi.sim.demo import play_match
from bgpi.table import Phase, waiting
from bgpi.web.run import new_session
from tests.engine.conftest import needs_gnubg
from tests.table.arrange import arrange

pytestmark = needs_gnubg


def test_gnubg_resigns_a_lost_game_in_the_demo(tmp_path: Path) -> None:
    engines = [GnubgEngine(Level.BEGINNER, say=lambda _: None) for _ in range(2)]
    try:
        with Journal.open(tmp_path / "journal.sqlite") as journal:
            sim = play_match(
                MatchStarted(1),
                seed=0,
                say=lambda _: None,
                journal=journal,
                sides=(EngineSeat(engines[0], print), EngineSeat(engines[1], print)),
            )
            records = journal.records()
    finally:
        for engine in engines:
            engine.close()
    offers = [r for r in records if isinstance(r, ResignOffered)]
    ends = [r for r in records if isinstance(r, GameEnded)]
    assert offers and ends[-1].resigned  # resigned, and journaled
    assert ends[-1].winner == offers[-1].player.other
    assert sim.match.score[ends[-1].winner] == 1 and sim.phase is Phase.MATCH_OVER


def test_gnubg_resigns_a_hopeless_position_in_bgpi_sim() -> None:
    config = parse({"seats": {"black": "gnubg"}})
    record = MatchStarted(0, seats=(Seat.PERSON, Seat.ENGINE))
    engine = GnubgEngine(Level.EXPERT, say=print)
    session = new_session(config, seed=1, records=record, engines={BLACK: engine})
    try:
        sim = session.sim
        session.answered()
        hopeless = Position.from_points({20: 15}, {1: 1})  # Black's view: all left at home
        arrange(sim, hopeless.swap(), BLACK)
        request = waiting(sim.table)
        assert request is not None
        sim.ask(request)
        session.answered()  # on the engine's thread: the page's loop never waited
        assert sim.phase is Phase.RESIGN_OFFERED
        sim.press(WHITE, ROLL)  # White accepts
        log = sim.driver.log
        assert ResignOffered(BLACK, int(GameResult.BACKGAMMON)) in log
        assert ResignAnswered(WHITE, accepted=True) in log
        assert GameEnded(WHITE, 3, 3, resigned=True) in log
        assert sim.match.score == (3, 0)
    finally:
        session.close()
