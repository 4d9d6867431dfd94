"""A page that connects or reloads in the middle of a clocked move shows the time the move
has already run, not the whole move again: the state waits composed as the move began (its
clock's figures true at ``clock.at``), and the server stamps it with the table's time as it
sends it (``sent``), from which the page counts on."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from bgpi.base.words import BLACK, WHITE
from bgpi.service.config import ClockConfig, Config
from bgpi.table import Phase
from bgpi.web.run import SimServer
from bgpi.web.server import Hub, Snapshot
from bgpi.web.session import SimSession
from tests.web.started import started_session
from tests.web.test_backpressure import hub_serving
from tests.web.test_companion import serving
from tests.web.webclient import receive_until, socket

PER_MOVE_CONFIG = Config(clock=ClockConfig("per-move", per_move_s=120.0))


def test_each_state_is_stamped_with_the_tables_time_as_it_is_sent_to_each_page() -> None:
    table_time = [1000.0]  # the owner's clock, driven by the test
    hub = Hub({"type": "layout"}, now=lambda: table_time[0])
    with hub_serving(hub) as (thread, port):
        clock = {"running": BLACK, "at": 1000.0}
        thread.call(lambda: hub.publish(Snapshot(state={"type": "state", "clock": clock})))
        with socket(port) as early:
            first = receive_until(early, lambda m: m["type"] == "state")
            assert first == {"type": "state", "clock": clock, "sent": 1000.0}
            # Forty seconds of the table's time later, in the same move, a second page
            # connects: the same state, stamped as it goes to that page.
            table_time[0] = 1040.0
            with socket(port) as late:
                state = receive_until(late, lambda m: m["type"] == "state")
                assert state == {"type": "state", "clock": clock, "sent": 1040.0}
                assert state["sent"] - state["clock"]["at"] == 40.0
            # Each page's copy is stamped when it goes to that page: a newer state now.
            table_time[0] = 1041.5
            newer = {"type": "state", "clock": clock, "n": 2}
            thread.call(lambda: hub.publish(Snapshot(state=newer)))
            assert receive_until(early, lambda m: m["type"] == "state")["sent"] == 1041.5


@pytest.fixture
def server() -> Iterator[SimServer]:
    session = started_session(PER_MOVE_CONFIG, seed=23)
    for player in (WHITE, BLACK):
        session.sim.roll(player)  # the opening roll starts its winner's clock: White's
    assert session.sim.phase is Phase.MOVING and session.sim.match.turn == WHITE
    with SimServer(session) as running:
        yield running


def running_since(session: SimSession) -> float | None:
    clock = session.sim.table.clock
    assert clock is not None and clock.running == WHITE
    return clock.since


def shown_seconds(text: str) -> int:
    found = re.fullmatch(r"White (\d+):(\d\d)", text)
    assert found is not None, text
    return int(found[1]) * 60 + int(found[2])


def test_a_page_reloaded_mid_move_shows_the_time_the_move_has_run(
    page: Page, server: SimServer
) -> None:
    page.goto(server.url)
    white = page.locator("#clock-white")
    expect(white).to_have_class(re.compile(r"\brunning\b"))
    assert shown_seconds(white.inner_text()) > 100  # the move has just begun
    # Forty seconds of the table's time pass in White's move (the simulated clock, run
    # ahead of the wall's); nothing changes on the board, so no new state is composed.
    since = server.call(running_since)
    server.call(lambda session: session.sim.think(40.0))
    assert server.call(running_since) == since  # the same move, its clock still running
    page.reload()
    expect(white).to_have_class(re.compile(r"\brunning\b"))
    # 80 s of the 120 s are left, less the few seconds the test itself takes; before the
    # state was stamped as it was sent, the reloaded page showed the whole move again.
    assert 60 <= shown_seconds(white.inner_text()) <= 80


def test_a_companion_page_connecting_mid_move_is_told_how_long_the_move_has_run(
    tmp_path: Path,
) -> None:
    with serving(PER_MOVE_CONFIG, tmp_path) as (board, companion):
        assert companion.address is not None
        port = companion.address.port
        with socket(port) as ws:
            receive_until(ws, lambda m: m["type"] == "state" and m["phase"] == "choosing the match")
            board.hold(WHITE)  # the config's match, on the clock
            receive_until(ws, lambda m: m["type"] == "state" and m["phase"] == "setup")
            board.set_up()
            receive_until(ws, lambda m: m["type"] == "state" and m["phase"] == "opening")
            board.click(WHITE)
            board.click(BLACK)
            moving = receive_until(ws, lambda m: m["type"] == "state" and m["phase"] == "moving")
        assert moving["clock"]["running"] == WHITE  # White's 3-1 won the opening
        started = moving["clock"]["at"]
        time.sleep(1.5)  # White thinks
        connected = time.monotonic()
        with socket(port) as late:
            state = receive_until(late, lambda m: m["type"] == "state")
        received = time.monotonic()
        # The same move's figures, stamped with the app's clock as they went: the page counts
        # on from the 1.5 s and more that White has already thought.
        assert state["clock"]["at"] == started and state["phase"] == "moving"
        assert connected <= state["sent"] <= received
        assert state["sent"] - started >= 1.5
