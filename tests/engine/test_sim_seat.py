"""``bgpi sim`` against the computer: the engine's seat on the page's simulated table."""

from __future__ import annotations

from dataclasses import replace

from bgpi.base.words import BLACK, WHITE
from bgpi.engine import SimpleEngine
from bgpi.journal.records import OpeningDie, Seat
from bgpi.service.config import parse
from bgpi.table import Phase
from bgpi.web.run import new_session


def test_the_page_plays_against_the_engine_seat() -> None:
    config = parse({"seats": {"black": "demo"}})
    record = config.match_record()
    assert record.seats == (Seat.PERSON, Seat.ENGINE)
    session = new_session(config, seed=3, records=record, engines={BLACK: SimpleEngine()})
    session.answered()  # the engine answers on its own thread
    sim = session.sim
    dice = [r for r in sim.driver.log if isinstance(r, OpeningDie)]
    assert [d.player for d in dice] == [BLACK]  # rolled by the engine, no button
    sim.roll(WHITE)
    session.answered()
    # Whoever won the opening: the engine's play is lit for the hands, or White moves.
    expected = Phase.GUIDED if sim.match.turn == BLACK else Phase.MOVING
    assert sim.phase is expected


def test_a_person_plays_a_seat_that_has_no_engine() -> None:
    config = parse({})
    record = replace(config.match_record(), seats=(Seat.PERSON, Seat.PERSON))
    session = new_session(config, seed=3, records=record, engines={})
    assert session.sim.phase is Phase.OPENING
    assert not [r for r in session.sim.driver.log if isinstance(r, OpeningDie)]
