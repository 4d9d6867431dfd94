"""Choosing the players on the simulated board's page, where the config has a roster: two
rows more in the choosing table, changed with the same buttons (sent as the board's own
presses); the names chosen are the match's, on the page and in the journal."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from bgpi.journal.records import GameStarted, MatchStarted
from bgpi.service.config import parse
from bgpi.web.run import SimServer, new_session

SEED = 28
BODY = "body"
ROSTER = ["Anna", "Ben", "Cleo"]


@pytest.fixture
def server() -> Iterator[SimServer]:
    config = parse({"players": {"roster": ROSTER}})
    with SimServer(new_session(config, seed=SEED)) as running:
        yield running


def row(page: Page, option: str) -> str:
    return f'#choose-options tr[data-option="{option}"]'


def value(page: Page, option: str) -> str:
    return page.locator(f"{row(page, option)} td.value").inner_text()


def change(page: Page, option: str, wanted: str) -> None:
    """One press of the option's change button, which shows ``wanted``."""
    page.locator(f"{row(page, option)} button").click()
    expect(page.locator(f"{row(page, option)} td.value")).to_have_text(wanted)


def test_the_players_are_chosen_on_the_page_from_the_roster(page: Page, server: SimServer) -> None:
    page.goto(server.url)
    expect(page.locator(BODY)).to_have_attribute("data-phase", "choosing the match")
    # A match's five options, then the two players.
    expect(page.locator("#choose-options tr")).to_have_count(7)
    labels = page.locator("#choose-options tr td:first-child").all_inner_texts()
    assert labels[-2:] == ["White's player", "Black's player"]
    assert (value(page, "white_player"), value(page, "black_player")) == ("White", "Black")
    change(page, "white_player", "Anna")
    expect(page.locator(row(page, "white_player"))).to_have_class("shown")
    expect(page.locator("#status")).to_have_text(
        "The next match: White's player Anna. CUBE changes it, ROLL goes to the next option. "
        "Hold ROLL to start the match."
    )
    change(page, "black_player", "Ben")  # Anna plays White: Black's steps past her
    change(page, "black_player", "Cleo")
    assert server.call(lambda session: list(session.sim.driver.log)) == []
    page.locator("#choose-start").click()
    expect(page.locator(BODY)).to_have_attribute("data-phase", "opening")
    expect(page.locator("#name-white")).to_have_text("Anna")
    expect(page.locator("#name-black")).to_have_text("Cleo")
    log = server.call(lambda session: list(session.sim.driver.log))
    assert log == [MatchStarted(5, names=("Anna", "Cleo")), GameStarted()]
