"""The clock on the page of ``bgpi sim --clock usbgf``: its setting named, each player's time
as a clock beside the board shows it (a per-move limit's time left, a simple delay beside the
reserve, a Bronstein reserve running at once, overtime), and whose clock runs (the page
counts the running one down itself)."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator
from dataclasses import replace

import pytest
from playwright.sync_api import Page, expect

from bgpi.base.faults import FaultSource
from bgpi.base.words import BLACK, ROLL, WHITE, Player
from bgpi.cli.arguments import chosen_match
from bgpi.hal.api import FaultEvent
from bgpi.journal.records import MatchStarted
from bgpi.rules.clock import ClockMode, ClockRules
from bgpi.service.config import ClockConfig, Config
from bgpi.sim.simtable import Fresh
from bgpi.table import Phase
from bgpi.web.run import SimServer, new_session
from bgpi.web.session import SimSession
from tests.table.test_buttons import opened
from tests.web.started import started_session


def test_the_page_shows_both_reserves_and_whose_clock_runs() -> None:
    session = started_session(Config(clock=ClockConfig("usbgf")), seed=23)
    state = session.snapshot().state
    assert state is not None
    full = {"limit": None, "delay": None, "overtime": False, "low": 60.0}
    assert state["clock"] == {
        "mode": "usbgf",
        "caption": "Clock: U.S. rules, a 12-second delay",
        "running": None,
        "paused": False,
        "at": None,  # no clock runs: nothing to count on from
        "players": [{**full, "reserve": 600.0}] * 2,  # a 5-point match: 2 minutes a point
    }
    for player in (WHITE, BLACK):
        session.sim.roll(player)
    assert session.sim.phase is Phase.MOVING
    state = session.snapshot().state
    assert state is not None and isinstance(state["clock"], dict)
    assert state["clock"]["running"] == session.sim.match.turn
    # The figures are as of the opening roll, which started the winner's clock.
    assert state["clock"]["at"] == session.sim.table.clock.since  # type: ignore[union-attr]


def test_bgpi_sims_clock_option_puts_the_clock_on_the_match_chosen_at_the_board() -> None:
    match = chosen_match(Config(), argparse.Namespace(money=False, length=3, clock="usbgf"))
    assert match.clock.mode == "usbgf"
    for start, clocked in ((match, True), (chosen_match(Config(), _no_clock()), False)):
        sim = new_session(Config(), seed=5, records=Fresh(start)).sim
        assert sim.phase is Phase.CHOOSING
        sim.press(WHITE, ROLL, hold=sim.table.config.long_press + 0.2)
        assert sim.phase is not Phase.CHOOSING
        assert (sim.table.clock is not None) is clocked


def _no_clock() -> argparse.Namespace:
    return argparse.Namespace(money=False, length=3, clock=None)  # the config's: off


PER_MOVE = ClockRules(ClockMode.PER_MOVE, per_move=120.0)


@pytest.fixture
def server() -> Iterator[SimServer]:
    records = opened(MatchStarted(5, clock=PER_MOVE))  # Black on roll
    with SimServer(new_session(Config(), seed=5, records=records)) as running:
        yield running


def clock_at(server: SimServer, rules: ClockRules, **clock: object) -> None:
    """The table's clock on ``rules``, set as ``clock`` says, its running move (if any)
    counted from the session's time now."""

    def setting(session: SimSession) -> None:
        table = session.sim.driver.table
        assert table.clock is not None
        now = session.sim.clock()
        new = replace(table.clock, rules=rules, since=now, **clock)  # type: ignore[arg-type]
        session.sim.driver.table = replace(table, clock=new)
        session.sim.advance(0.0)

    server.call(setting)


def side(player: Player) -> str:
    return "#clock-white" if player == WHITE else "#clock-black"


def test_a_per_move_limit_shows_the_time_left_of_the_move_and_the_others_whole_limit(
    page: Page, server: SimServer
) -> None:
    page.goto(server.url)
    clock_at(server, PER_MOVE, running=BLACK, carried=40.0)
    expect(page.locator("#clock-caption")).to_have_text("Clock: 120 seconds a move")
    expect(page.locator(side(WHITE))).to_have_text("White 2:00")
    black = page.locator(side(BLACK))
    expect(black).to_have_class(re.compile(r"\brunning\b"))
    expect(black).to_have_text(re.compile(r"^Black 1:[0-2]\d$"))  # 80 s left, counting down
    expect(black).to_have_text(re.compile(r"^Black 1:1\d$"))  # it counts on by itself
    # In overtime: the limit used up, the overtime counted after it.
    overtime = ClockRules(ClockMode.PER_MOVE, per_move=120.0, overtime=60.0)
    clock_at(
        server, overtime, running=BLACK, carried=120.0, reserve=(0.0, 60.0),
        overtime_given=(False, True),
    )  # fmt: skip
    expect(page.locator("#clock-caption")).to_have_text(
        "Clock: 120 seconds a move, 60 seconds' overtime"
    )
    expect(black).to_have_text(re.compile(r"^Black 0:00 \+ overtime (1:00|0:[45]\d)$"))
    expect(page.locator(side(WHITE))).to_have_text("White 2:00")


def test_the_us_rules_show_the_delay_beside_the_reserve_until_it_has_run(
    page: Page, server: SimServer
) -> None:
    page.goto(server.url)
    usbgf = ClockRules(ClockMode.USBGF)
    clock_at(server, usbgf, running=BLACK, carried=0.0, reserve=(600.0, 590.0))
    expect(page.locator("#clock-caption")).to_have_text("Clock: U.S. rules, a 12-second delay")
    expect(page.locator(side(WHITE))).to_have_text("White 10:00")
    black = page.locator(side(BLACK))
    expect(black).to_have_text(re.compile(r"^Black 9:50 \(delay 0:(1[0-2]|0\d)\)$"))
    # The delay's last half second: then the reserve runs, and the delay is no longer shown.
    clock_at(server, usbgf, running=BLACK, carried=11.5, reserve=(600.0, 590.0))
    expect(black).to_have_text(re.compile(r"^Black 9:4\d$"))
    # A Bronstein delay is given back at the press: the reserve runs at once.
    bronstein = ClockRules(ClockMode.BRONSTEIN)
    clock_at(server, bronstein, running=WHITE, carried=0.0, reserve=(600.0, 590.0))
    expect(page.locator("#clock-caption")).to_have_text("Clock: Bronstein, a 12-second delay")
    expect(page.locator(side(WHITE))).to_have_text(re.compile(r"^White 9:5\d$"))
    expect(black).to_have_text("Black 9:50")
    # The last minute blinks.
    clock_at(server, bronstein, running=WHITE, carried=0.0, reserve=(45.0, 590.0))
    expect(page.locator(side(WHITE))).to_have_class(re.compile(r"\blast-minute\b"))
    expect(black).not_to_have_class(re.compile(r"\blast-minute\b"))


def test_while_the_sensors_are_down_the_page_shows_the_running_move_stopped(
    page: Page, server: SimServer
) -> None:
    page.goto(server.url)
    clock_at(server, PER_MOVE, running=BLACK, carried=40.0)
    black = page.locator(side(BLACK))
    expect(black).to_have_class(re.compile(r"\brunning\b"))

    # The sensors' fault as the backend tells it (the simulated board itself keeps
    # answering: the page draws it from the board's own frame).
    def fail(session: SimSession) -> None:
        session.sim.take(FaultEvent(FaultSource.SENSORS, "no answer", session.sim.clock()))
        session.sim.advance(0.0)

    server.call(fail)
    # Stopped where it stood, about 80 s left of Black's move: the page no longer counts.
    expect(black).to_have_class(re.compile(r"\bpaused\b"))
    expect(black).not_to_have_class(re.compile(r"\brunning\b"))
    stopped = black.text_content()
    assert stopped is not None and re.fullmatch(r"Black 1:[12]\d", stopped)
    page.wait_for_timeout(1500)  # a running side would have counted a second and more
    expect(black).to_have_text(stopped)

    def recover(session: SimSession) -> None:
        session.sim.take(FaultEvent(FaultSource.SENSORS, None, session.sim.clock()))
        session.sim.advance(0.0)

    server.call(recover)
    expect(black).to_have_class(re.compile(r"\brunning\b"))
    expect(black).not_to_have_text(stopped)  # it counts on from where it stood
