"""A takeback by agreement on the page, in headless Chromium: White plays and ends the turn,
holds ROLL (its key) to ask, withdraws the request with its CUBE and asks again, Black lets
it be taken back, the hands put the checkers back by
dragging them and the same dice are played again. The page's buttons and words are the
rows' own; a screenshot of the asking is saved (into ``$BGPI_SCREENSHOTS`` when set)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from bgpi.base.words import WHITE
from bgpi.rules import Position
from bgpi.service.config import Config
from bgpi.web.run import SimServer
from tests.web.browser import drag
from tests.web.started import started_session
from tests.web.test_mistakes_page import shot, start

HOLD_MS = 1300  # a key held past the long press (0.8 s), as a finger holds the button
WHITES_CUBE = 'text.meaning[data-player="0"][data-button="cube"]'  # its caption
BLACKS_CUBE = 'text.meaning[data-player="1"][data-button="cube"]'


def ask(page: Page) -> None:
    """White holds ROLL (its key) to ask for a takeback."""
    page.keyboard.down("r")
    page.wait_for_timeout(HOLD_MS)
    page.keyboard.up("r")
    expect(page.locator("body")).to_have_attribute("data-phase", "takeback asked")


@pytest.fixture
def server() -> Iterator[SimServer]:
    with SimServer(started_session(Config(), seed=1)) as running:
        yield running


def test_a_play_taken_back_on_the_page_is_played_again(
    page: Page, server: SimServer, tmp_path: Path
) -> None:
    body, status, log = page.locator("body"), page.locator("#status"), page.locator("#log")
    start(page, server, Position.initial(), WHITE, 3, 1, 6, 5)
    drag(page, 8, 5)
    drag(page, 6, 5)
    expect(status).to_contain_text("White has played 3-1")  # the board settled on the play
    page.keyboard.press("r")  # White ends the turn
    expect(body).to_have_attribute("data-phase", "before roll")
    expect(status).to_contain_text("the player who just played may hold ROLL to ask for a takeback")
    ask(page)
    expect(status).to_have_text(
        "White asks for a takeback of 8/5 6/5 (lit): Black lets it be taken back (ROLL) or "
        "refuses: the play stands (CUBE). White may withdraw the request (CUBE)."
    )
    expect(page.locator(WHITES_CUBE)).to_have_text("withdraw")  # his own request, not a refusal
    expect(page.locator(BLACKS_CUBE)).to_have_text("decline")
    shot(page, "takeback-asked", tmp_path)
    page.keyboard.press("c")  # White thinks better of it: withdrawn, and nothing journaled
    expect(body).to_have_attribute("data-phase", "before roll")
    expect(status).to_contain_text("the player who just played may hold ROLL to ask for a takeback")
    expect(log).not_to_contain_text("taken back")
    ask(page)  # and asks again after all
    page.keyboard.press("Shift+R")  # Black lets it be taken back
    expect(body).to_have_attribute("data-phase", "taking back")
    expect(log).to_contain_text("White's 8/5 6/5 taken back, as agreed")
    expect(status).to_contain_text("put the checkers back")
    drag(page, 5, 8)
    drag(page, 5, 6)
    expect(body).to_have_attribute("data-phase", "moving")
    expect(status).to_contain_text("White plays 3-1")
    drag(page, 24, 21)
    drag(page, 21, 20)
    expect(status).to_contain_text("White has played 3-1")
    page.keyboard.press("r")
    expect(body).to_have_attribute("data-phase", "before roll")
    expect(log).to_contain_text("White 31: 24/20")
