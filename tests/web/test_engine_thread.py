"""``bgpi sim`` while the engine thinks: gnubg at worldclass and above takes seconds, and the
page must go on answering meanwhile. A twin engine that thinks until the test lets it (no
timing: it waits on an event) stands in for a slow gnubg."""

from __future__ import annotations

import threading

from bgpi.base.words import BLACK
from bgpi.engine import SimpleEngine
from bgpi.journal.records import MatchStarted, Seat
from bgpi.rules import GameResult, Match, Position
from bgpi.service.config import parse
from bgpi.table import Phase, waiting
from bgpi.web.run import SimServer, new_session
from bgpi.web.session import SimSession
from tests.table.arrange import arrange
from tests.web.webclient import get, receive_until, send, socket

PATIENCE = 30.0  # seconds the engine waits to be let go, at most: a failing test ends


class Pondering(SimpleEngine):
    """The twin engine, thinking about its turn until ``go`` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.thinking = threading.Event()
        self.go = threading.Event()

    def resignation(self, position: Position, match: Match) -> GameResult | None:
        self.thinking.set()
        self.go.wait(PATIENCE)
        return None


def black_to_roll(session: SimSession) -> None:
    """On the page's loop: Black (the engine) is on roll, and the table asks it."""
    sim = session.sim
    arrange(sim, Position.initial(), BLACK)
    request = waiting(sim.table)
    assert request is not None
    sim.ask(request)


def test_the_page_answers_while_the_engine_thinks() -> None:
    engine = Pondering()
    config = parse({"seats": {"black": "demo"}})
    record = MatchStarted(0, seats=(Seat.PERSON, Seat.ENGINE))
    session = new_session(config, seed=2, records=record, engines={BLACK: engine})
    try:
        with SimServer(session) as server:
            server.call(black_to_roll)
            assert engine.thinking.wait(PATIENCE)
            # The engine is thinking: the page is still served and a command answered.
            status, _, body = get(server.address.port, "/")
            assert status == 200 and b"<html" in body.lower()
            with socket(server.address.port) as ws:
                send(ws, type="juggle")
                error = receive_until(ws, lambda m: m.get("type") == "error")
                assert "unknown command 'juggle'" in error["message"]
            assert server.call(lambda s: s.sim.phase) is Phase.BEFORE_ROLL  # still thinking
            engine.go.set()
            server.call(lambda s: s.answered())
            assert server.call(lambda s: s.sim.phase) is Phase.GUIDED  # it rolled and chose
    finally:
        engine.go.set()
        session.close()
