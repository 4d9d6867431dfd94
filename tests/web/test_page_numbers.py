"""The page's log in Chromium writes Black's play in the board's printed numbers, the ones
drawn on the page's points, not in Black's own."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from bgpi.base.words import BLACK
from bgpi.present.numbering import printed_moves
from bgpi.rules import Play, legal_plays
from bgpi.rules.notation import format_moves
from bgpi.sensing.board import zone_of
from bgpi.service.config import Config
from bgpi.web.run import SimServer
from bgpi.web.session import SimSession
from tests.web.browser import drag
from tests.web.started import started_session
from tests.web.test_browser import open_page, opening_roll

SEED = 23  # White opens 3-1


@pytest.fixture
def server() -> Iterator[SimServer]:
    with SimServer(started_session(Config(), seed=SEED)) as running:
        yield running


def quiet_play(session: SimSession) -> tuple[tuple[int, ...], Play]:
    """Black's dice and a legal play of them that hits nothing, with distinct moves."""
    sim = session.sim
    dice = sim.match.dice
    assert dice is not None
    for play in legal_plays(sim.table.mover_view, dice):
        if play.moves and not any(move.hit for move in play.moves):
            return tuple(dice), play
    raise AssertionError(f"no quiet play of {dice}")


def test_blacks_play_is_logged_in_the_numbers_on_the_board(page: Page, server: SimServer) -> None:
    open_page(page, server)
    opening_roll(page)
    drag(page, 8, 5, slot=2)
    drag(page, 6, 5)
    expect(page.locator("#status")).to_contain_text("White has played 3-1")  # all settled
    page.locator('.button[data-player="0"][data-button="roll"] rect').click()
    expect(page.locator("body")).to_have_attribute("data-phase", "before roll")
    page.keyboard.press("Shift+R")  # Black rolls
    expect(page.locator("body")).to_have_attribute("data-phase", "moving")
    dice, play = server.call(quiet_play)
    for move in play.moves:  # Black's own numbers, put on the board where they are printed
        drag(page, zone_of(BLACK, move.src), zone_of(BLACK, move.dst))
    # ROLL only once the table has seen the last checker settle (else the play is not complete).
    expect(page.locator("#status")).to_contain_text("Black has played")
    page.keyboard.press("Shift+R")  # ends the turn
    expect(page.locator("body")).to_have_attribute("data-phase", "before roll")
    written = printed_moves(BLACK, play.moves)
    assert written != format_moves(play.moves)
    line = page.locator("#log li").last
    expect(line).to_have_text(f"Black {max(dice)}{min(dice)}: {written}")
