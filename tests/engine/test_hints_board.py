"""Hints at the board, end to end on the simulated table: a held ROLL, the engine asked, the
answer lit move by move (real gnubg, and the deterministic twin), said on the page; no gnubg
installed says how to install it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bgpi.base.words import ROLL, WHITE
from bgpi.engine import Engine, GnubgEngine, Level, SimpleEngine
from bgpi.engine.hints import Advisor, advise
from bgpi.engine.seats import gnubg_advisor
from bgpi.journal.records import MatchStarted
from bgpi.rules import Move, Position, parse_play
from bgpi.sensing.board import zone_of
from bgpi.service.config import parse
from bgpi.sim.simtable import SimOptions, SimTable
from bgpi.table import Advice, Phase
from bgpi.web.run import new_session
from tests.engine.conftest import needs_gnubg
from tests.table.arrange import arrange, fixed_dice

HELD = 1.0  # seconds: over the long press


def white_to_play(engine: Engine, dice: tuple[int, int]) -> SimTable:
    """White (a person, with hints) has rolled ``dice`` at the start; ``engine`` advises."""
    sim = SimTable(MatchStarted(0), options=SimOptions(hints=frozenset({WHITE})))
    sim.advise = lambda request, table: advise(request, table, engine, sim.clock())
    arrange(sim, Position.initial(), WHITE)
    fixed_dice(sim, *dice)
    sim.roll(WHITE)
    assert sim.phase is Phase.MOVING
    return sim


def follow_the_hint(sim: SimTable) -> list[Move]:
    """Make the lit moves one by one, as a person following the hint would."""
    hint = sim.table.hint
    assert hint is not None and hint.advice is Advice.PLAY
    lit: list[Move] = []
    for move in hint.moves:
        scene = sim.scene
        assert scene.lifted == {zone_of(WHITE, move.src)}
        assert scene.destinations == {zone_of(WHITE, move.dst)}
        lit.append(move)
        sim.make_move(WHITE, move)
    return lit


@pytest.fixture
def expert() -> Iterator[GnubgEngine]:
    engine = GnubgEngine(Level.EXPERT, timeout=60)
    yield engine
    engine.close()


@needs_gnubg
def test_gnubgs_best_play_is_lit_move_by_move(expert: GnubgEngine) -> None:
    sim = white_to_play(expert, (3, 1))
    sim.press(WHITE, ROLL, hold=HELD)
    lit = follow_the_hint(sim)
    best = parse_play(Position.initial(), (3, 1), "8/5 6/5")  # gnubg's, beyond doubt
    assert sorted(lit, key=repr) == sorted(best.moves, key=repr)
    sim.roll(WHITE)  # the tracker takes the play made: the turn passes
    assert sim.phase is Phase.BEFORE_ROLL and sim.table.hint is None


def test_the_twins_play_is_lit_and_any_legal_play_still_goes() -> None:
    twin = SimpleEngine()
    sim = white_to_play(twin, (6, 5))
    sim.press(WHITE, ROLL, hold=HELD)
    chosen = twin.choose_play(Position.initial(), (6, 5), sim.match)
    assert follow_the_hint(sim) == list(chosen.moves)
    sim.roll(WHITE)
    assert sim.phase is Phase.BEFORE_ROLL
    # The next turn the person ignores the hint: the play made is the one journaled.
    sim2 = white_to_play(twin, (6, 5))
    sim2.press(WHITE, ROLL, hold=HELD)
    other = parse_play(Position.initial(), (6, 5), "13/7 13/8")
    sim2.make_play(WHITE, other.moves)
    sim2.roll(WHITE)
    assert sim2.position == other.result


def test_a_short_roll_is_no_hint() -> None:
    sim = white_to_play(SimpleEngine(), (6, 5))
    sim.press(WHITE, ROLL)
    assert sim.table.hint is None and sim.phase is Phase.MOVING


def test_without_gnubg_the_hint_says_how_to_install_it() -> None:
    advisor = gnubg_advisor(Level.EXPERT, say=print, program="/nonexistent/gnubg")
    sim = white_to_play(SimpleEngine(), (6, 5))
    sim.advise = lambda request, table: advisor(request, table, sim.clock())
    sim.press(WHITE, ROLL, hold=HELD)
    hint = sim.table.hint
    assert hint is not None and hint.advice is Advice.NONE and not hint.moves
    assert "not installed" in hint.words() and "apt-get install gnubg" in hint.words()
    assert sim.scene.lifted == frozenset()  # nothing lit, nothing broken
    advisor.close()


def test_bgpi_sim_asks_on_the_engines_thread_and_the_page_says_the_hint() -> None:
    config = parse({"seats": {"white_hints": True}})
    record = MatchStarted(0)
    session = new_session(config, seed=1, records=record, advisor=Advisor(SimpleEngine))
    try:
        sim = session.sim
        arrange(sim, Position.initial(), WHITE)
        fixed_dice(sim, 6, 5)
        sim.roll(WHITE)
        session.command({"type": "press", "player": WHITE, "button": ROLL})
        sim.advance(HELD)
        session.command({"type": "release", "player": WHITE, "button": ROLL})
        session.answered()
        state = session.snapshot().state
        assert state is not None
        status = str(state["status"])
        play = SimpleEngine().choose_play(Position.initial(), (6, 5), sim.match)
        assert f"Hint for White: simple would play {play}." in status, status
        assert sim.scene.lifted == {zone_of(WHITE, play.moves[0].src)}
    finally:
        session.close()
