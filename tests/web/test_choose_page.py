"""Choosing the match on the simulated board's page: each option with its value, a press to
change one and a button to start the match, all sent as the board's own button presses; a
money session with Jacoby, then a 7-point match. ``BGPI_SHOTS=DIR`` keeps screenshots of
the choosing there, to look at."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from bgpi.journal.records import GameStarted, MatchStarted
from bgpi.rules.clock import ClockMode, ClockRules
from bgpi.service.config import Config
from bgpi.table import MatchOver
from bgpi.web.run import SimServer, new_session
from bgpi.web.session import SimSession

SEED = 23
BODY = "body"


@pytest.fixture
def server() -> Iterator[SimServer]:
    with SimServer(new_session(Config(), seed=SEED)) as running:
        yield running


def value(page: Page, option: str) -> str:
    return page.locator(f'#choose-options tr[data-option="{option}"] td.value').inner_text()


def change_until(page: Page, option: str, wanted: str) -> None:
    """Press the option's change button until it shows ``wanted`` (bounded)."""
    for _ in range(30):
        if value(page, option) == wanted:
            return
        before = value(page, option)
        page.locator(f'#choose-options tr[data-option="{option}"] button').click()
        expect(
            page.locator(f'#choose-options tr[data-option="{option}"] td.value')
        ).not_to_have_text(before)
    raise AssertionError(f"{option} never showed {wanted}")


def shoot(page: Page, name: str) -> None:
    shots = os.environ.get("BGPI_SHOTS")
    if shots:
        page.screenshot(path=str(Path(shots) / f"{name}.png"), full_page=True)


def log_of(server: SimServer) -> list[object]:
    return server.call(lambda session: list(session.sim.driver.log))


def test_a_money_session_with_jacoby_then_a_seven_point_match(
    page: Page, server: SimServer
) -> None:
    page.goto(server.url)
    expect(page.locator(BODY)).to_have_attribute("data-phase", "choosing the match")
    expect(page.locator("#choose-box")).to_be_visible()
    assert value(page, "length") == "a 5-point match"  # the config's, as the defaults
    # A match: length, Crawford, limit, where the dice come from and the clock.
    assert page.locator("#choose-options tr").count() == 5
    change_until(page, "length", "money play")
    expect(page.locator("#choose-options tr")).to_have_count(6)  # money play's options
    change_until(page, "jacoby", "on")
    expect(page.locator('#choose-options tr[data-option="jacoby"]')).to_have_class("shown")
    expect(page.locator("#status")).to_have_text(
        "The next match: Jacoby rule on. CUBE changes it, ROLL goes to the next option. "
        "Hold ROLL to start the match."
    )
    assert log_of(server) == []  # nothing journaled while it is chosen
    shoot(page, "choose-money-jacoby")
    page.locator("#choose-start").click()
    expect(page.locator(BODY)).to_have_attribute("data-phase", "opening")  # set up already
    expect(page.locator("#choose-box")).to_be_hidden()
    assert log_of(server)[0] == MatchStarted(0, jacoby=True)

    def over(session: SimSession) -> None:  # that session over, as a match ends
        session.sim.driver.table = replace(session.sim.table, at=MatchOver())
        session.sim.advance(0.0)

    server.call(over)
    page.keyboard.press("r")  # ROLL: choose the next match
    expect(page.locator(BODY)).to_have_attribute("data-phase", "choosing the match")
    assert (value(page, "length"), value(page, "jacoby")) == ("money play", "on")
    change_until(page, "length", "a 7-point match")
    expect(page.locator("#choose-options tr")).to_have_count(5)
    assert value(page, "crawford") == "on"
    shoot(page, "choose-seven-points")
    page.locator("#choose-start").click()
    expect(page.locator(BODY)).to_have_attribute("data-phase", "opening")
    # The money options go with a match length; the board still stands set up.
    assert log_of(server) == [MatchStarted(7), GameStarted()]


def test_a_match_on_the_clock_chosen_on_the_page(page: Page, server: SimServer) -> None:
    page.goto(server.url)
    expect(page.locator(BODY)).to_have_attribute("data-phase", "choosing the match")
    assert value(page, "clock") == "off"  # the config's
    expect(page.locator("#clock")).to_be_hidden()
    change_until(page, "clock", "Bronstein, a 12-second delay")
    expect(page.locator('#choose-options tr[data-option="clock"]')).to_have_class("shown")
    change_until(page, "clock", "U.S. rules, a 12-second delay")
    shoot(page, "choose-clock")
    page.locator("#choose-start").click()
    expect(page.locator(BODY)).to_have_attribute("data-phase", "opening")
    assert log_of(server)[0] == MatchStarted(5, clock=ClockRules(ClockMode.USBGF))
    # The match's clock on the page: ten minutes each at 0-0 in a 5-point match.
    expect(page.locator("#clock")).to_be_visible()
    expect(page.locator("#clock-white")).to_contain_text("10:00")


def test_the_page_refuses_a_choice_outside_the_choosing(page: Page, server: SimServer) -> None:
    page.goto(server.url)
    page.locator("#choose-start").click()
    expect(page.locator(BODY)).to_have_attribute("data-phase", "opening")
    with pytest.raises(Exception, match="the match is chosen between matches, not in phase"):
        server.call(lambda session: session.command({"type": "option", "option": "length"}))
    with pytest.raises(Exception, match="option 'colour' is not one of length, crawford"):
        server.call(_choosing_again)


def _choosing_again(session: SimSession) -> None:
    session.sim.driver.table = replace(session.sim.table, at=MatchOver())
    session.sim.roll(0)
    session.command({"type": "option", "option": "colour"})
