"""The clock on the page of ``bgpi sim --clock usbgf``: each player's reserve as the table
keeps it, and whose clock runs (the page counts the running one down itself)."""

from __future__ import annotations

import argparse

from bgpi.base.words import BLACK, ROLL, WHITE
from bgpi.cli.arguments import chosen_match
from bgpi.service.config import ClockConfig, Config
from bgpi.sim.simtable import Fresh
from bgpi.table import Phase
from bgpi.web.run import new_session
from tests.web.started import started_session


def test_the_page_shows_both_reserves_and_whose_clock_runs() -> None:
    session = started_session(Config(clock=ClockConfig("usbgf")), seed=23)
    state = session.snapshot().state
    assert state is not None
    assert state["clock"] == {
        "mode": "usbgf",
        "reserve": [600.0, 600.0],  # a 5-point match: 2 minutes a point
        "running": None,
        "used": 0.0,
        "delay": 12.0,
        "bronstein": False,
    }
    for player in (WHITE, BLACK):
        session.sim.roll(player)
    assert session.sim.phase is Phase.MOVING
    state = session.snapshot().state
    assert state is not None and isinstance(state["clock"], dict)
    assert state["clock"]["running"] == session.sim.match.turn


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
