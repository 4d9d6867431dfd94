"""Dice thrown by hand, entered on the simulated board's page: a row of six faces per die,
a tap on each; the opening die with one row; the dice option chosen on the page; a remote
match saying why its dice are the boards'."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from playwright.sync_api import Page, expect

from bgpi.base.words import BLACK, WHITE
from bgpi.journal.records import DiceSource, MatchStarted, OpeningDie, Rolled, Seat
from bgpi.service.config import Config, DiceConfig
from bgpi.table import BeforeRoll, Entering, Table
from bgpi.web.run import SimServer, new_session
from bgpi.web.session import SimSession
from bgpi.web.view import state_message
from tests.table.test_buttons import CONFIG, opened

ENTERED = DiceSource.ENTERED
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, 7)]


@pytest.fixture
def server() -> Iterator[SimServer]:
    config = Config(dice=DiceConfig(ENTERED))
    with SimServer(new_session(config, seed=5)) as running:
        yield running


def face(page: Page, row: int, die: int) -> None:
    page.locator(f'#dice-faces div[data-row="{row}"] button[data-die="{die}"]').click()


def last_record(server: SimServer) -> object:
    return server.call(lambda session: session.sim.driver.log[-1])


def test_the_opening_dice_and_every_roll_are_entered_with_a_tap_a_die(
    page: Page, server: SimServer
) -> None:
    page.goto(server.url)
    page.locator("#choose-start").click()  # the config's dice: entered
    expect(page.locator("body")).to_have_attribute("data-phase", "opening")
    server.call(lambda session: session.sim.roll(WHITE))
    expect(page.locator("#dice-faces div.faces")).to_have_count(1)  # one die each
    face(page, 0, 5)
    expect(page.locator("body")).to_have_attribute("data-phase", "opening")
    assert last_record(server) == OpeningDie(WHITE, 5, ENTERED)
    server.call(lambda session: session.sim.roll(BLACK))
    face(page, 0, 2)
    expect(page.locator("body")).to_have_attribute("data-phase", "moving")
    expect(page.locator("#dice-faces button")).to_have_count(0)
    for dice in ROLLS:

        def entering(session: SimSession) -> None:  # Black rolls by hand, 3-1 opened
            table = Table.replay(CONFIG, opened(MatchStarted(5, dice=ENTERED)))
            table = replace(table, at=Entering(BLACK, 2, BeforeRoll()))
            session.sim.driver.table = table
            session.sim.driver.log = list(opened(MatchStarted(5, dice=ENTERED)))
            session.sim.advance(0.0)

        server.call(entering)
        expect(page.locator("#dice-faces div.faces")).to_have_count(2)
        face(page, 0, dice[0])
        face(page, 1, dice[1])
        expect(page.locator("body")).to_have_attribute("data-phase", "moving")
        assert last_record(server) == Rolled(BLACK, dice, ENTERED)


def test_a_remote_match_says_why_its_dice_are_the_boards() -> None:
    table = Table.replay(CONFIG, opened(MatchStarted(5, seats=(Seat.PERSON, Seat.REMOTE))))
    dice = state_message(table, (), [])["dice_source"]
    assert dice == {
        "source": "electronic",
        "words": "the board's",
        "why": "A remote match rolls the boards' fair commit-reveal dice: no board can vouch for"
        " the dice thrown at the other.",
        "entering": None,
        "throwing": None,
    }
