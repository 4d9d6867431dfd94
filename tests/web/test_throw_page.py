"""GoDice awaited, on the page: the roll's dice lie blank and grey where the dice are shown,
"throw the dice" under them; a throw that did not count says which die and why, the die
outlined; the thrower's held CUBE (the page's button is the board's) enters the roll by
hand instead, and the page's faces take it; or the faces, offered beside the dice awaited,
enter it at once (the phone's way to the held CUBE), while dice drawn with another board
offer none."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from playwright.sync_api import Page, expect

from bgpi.base import i18n
from bgpi.base.words import BLACK, WHITE
from bgpi.journal.records import DiceSource, MatchStarted, Rethrown, Rolled, Unfit
from bgpi.service.config import Config
from bgpi.table import BeforeRoll, Opening
from bgpi.table.phases import Rolling
from bgpi.table.thrown import waiting_throw
from bgpi.web.run import SimServer, new_session
from bgpi.web.session import SimSession
from tests.table.test_buttons import opened

THROW = "#board .throw"


@pytest.fixture
def server() -> Iterator[SimServer]:
    # The board's own dice, and no simulated pair: the test says what the GoDice say.
    with SimServer(new_session(Config(), seed=5, records=opened(MatchStarted(5)))) as running:
        yield running


def awaiting(server: SimServer, again: Rethrown | None = None, count: int = 2) -> None:
    """The table waits for Black's throw of GoDice (``count`` 1: White's opening die)."""

    def wait(session: SimSession) -> None:
        table = session.sim.driver.table
        player, back = (BLACK, BeforeRoll()) if count == 2 else (WHITE, Opening())
        at = replace(waiting_throw(player, count, back), again=again)
        session.sim.driver.table = replace(table, dice=DiceSource.GODICE, at=at)
        session.sim.advance(0.0)

    server.call(wait)


def test_the_dice_awaited_lie_grey_with_what_to_do_under_them(
    page: Page, server: SimServer
) -> None:
    page.goto(server.url)
    expect(page.locator("body")).to_have_attribute("data-phase", "before roll")
    expect(page.locator(THROW)).to_have_count(0)
    awaiting(server)
    expect(page.locator("body")).to_have_attribute("data-phase", "rolling")
    throw = page.locator(THROW)
    expect(throw).to_have_attribute("data-player", str(BLACK))
    expect(throw.locator(".die.awaited")).to_have_count(2)
    expect(throw.locator(".die.unfit")).to_have_count(0)
    expect(throw.locator(".throw-caption")).to_have_text("throw the dice")
    awaiting(server, Rethrown(BLACK, 2, Unfit.COCKED, 3))
    expect(page.locator(f"{THROW}.again .throw-caption")).to_have_text("die 2 cocked: roll again")
    unfit = page.locator(f"{THROW} .die.unfit")
    expect(unfit).to_have_count(1)
    expect(unfit).to_have_attribute("transform", "rotate(18 " + unfit_x(page) + ")")
    awaiting(server, Rethrown(WHITE, 1, Unfit.MOVED, 5), count=1)
    expect(page.locator(f"{THROW} .throw-caption")).to_have_text("die 1 moved: roll again")
    assert page.locator(f"{THROW} .die.unfit").get_attribute("transform") is None  # moved, flat
    awaiting(server, count=1)
    expect(page.locator(f"{THROW} .throw-caption")).to_have_text("throw the opening die")
    expect(page.locator(f"{THROW} .die.awaited")).to_have_count(1)


def unfit_x(page: Page) -> str:
    """The centre the unfit die is tilted about, as the page drew it."""
    rect = page.locator(f"{THROW} .die.unfit rect")
    x, y = (float(rect.get_attribute(a) or 0) for a in ("x", "y"))
    side = float(rect.get_attribute("width") or 0)
    return f"{x + side / 2:g} {y + side / 2:g}"


def test_the_throwers_held_cube_enters_the_roll_on_the_page(page: Page, server: SimServer) -> None:
    page.goto(server.url)
    awaiting(server)
    expect(page.locator("#status")).to_contain_text("Hold CUBE to enter this roll by hand.")
    cube = page.locator(f'.button[data-player="{BLACK}"][data-button="cube"]')
    cube.click()  # a short press does nothing: the dice are still awaited
    expect(page.locator(THROW)).to_have_count(1)
    cube.hover()
    page.mouse.down()
    page.wait_for_timeout(Config().buttons.long_press_ms + 400)
    page.mouse.up()
    expect(page.locator("body")).to_have_attribute("data-phase", "entering the dice")
    expect(page.locator(THROW)).to_have_count(0)
    expect(page.locator("#dice-faces div.faces")).to_have_count(2)
    page.locator('#dice-faces div[data-row="0"] button[data-die="6"]').click()
    page.locator('#dice-faces div[data-row="1"] button[data-die="5"]').click()
    expect(page.locator("body")).to_have_attribute("data-phase", "moving")
    log = server.call(lambda session: session.sim.driver.log[-1])
    assert log == Rolled(BLACK, (6, 5), DiceSource.ENTERED)
    at = server.call(lambda session: session.sim.table.at)
    assert not isinstance(at, Rolling)


def test_the_words_under_the_dice_are_the_players_language(page: Page) -> None:
    try:
        for language in ("fi", "sv", "nb"):
            i18n.use(language)  # as bgpi sim --language does, before the server starts
            session = new_session(Config(), seed=5, records=opened(MatchStarted(5)))
            with SimServer(session) as server:
                page.goto(server.url)
                awaiting(server, Rethrown(BLACK, 1, Unfit.COCKED, 2))
                caption = page.locator(f"{THROW} .throw-caption")
                again = i18n._("die {die} cocked: roll again").format(die=1)
                expect(caption).to_have_text(again)
                assert again != "die 1 cocked: roll again", language
                awaiting(server)
                expect(caption).to_have_text(i18n._("throw the dice"))
    finally:
        i18n.use("en")


def test_the_page_enters_the_awaited_roll_by_hand_with_the_faces_beside_it(
    page: Page, server: SimServer
) -> None:
    page.goto(server.url)
    awaiting(server)
    expect(page.locator(THROW)).to_have_count(1)
    expect(page.locator("#dice-by-hand")).to_be_visible()
    expect(page.locator("#dice-by-hand")).to_have_text("Or enter this roll by hand:")
    expect(page.locator("#dice-faces div.faces")).to_have_count(2)
    page.locator('#dice-faces div[data-row="0"] button[data-die="4"]').click()
    # A rethrow said meanwhile leaves the face already tapped.
    awaiting(server, Rethrown(BLACK, 1, Unfit.COCKED, 2))
    expect(page.locator(f"{THROW}.again")).to_have_count(1)
    expect(page.locator('#dice-faces div[data-row="0"] button.chosen')).to_have_count(1)
    page.locator('#dice-faces div[data-row="1"] button[data-die="4"]').click()
    expect(page.locator("body")).to_have_attribute("data-phase", "moving")
    expect(page.locator("#dice-by-hand")).to_be_hidden()
    expect(page.locator("#dice-faces div.faces")).to_have_count(0)
    log = server.call(lambda session: session.sim.driver.log[-1])
    assert log == Rolled(BLACK, (4, 4), DiceSource.ENTERED)
    assert server.call(lambda session: session.sim.table.dice) is DiceSource.GODICE


def test_dice_drawn_with_another_board_offer_no_faces_and_refuse_them(
    page: Page, server: SimServer
) -> None:
    page.goto(server.url)

    def drawing(session: SimSession) -> None:
        table = session.sim.driver.table
        session.sim.driver.table = replace(table, at=Rolling(BLACK, 2, BeforeRoll()))
        session.sim.advance(0.0)

    server.call(drawing)
    expect(page.locator("body")).to_have_attribute("data-phase", "rolling")
    expect(page.locator(THROW)).to_have_count(0)
    expect(page.locator("#dice-faces div.faces")).to_have_count(0)
    with pytest.raises(Exception, match="no dice are entered in phase rolling"):
        server.call(lambda session: session.command({"type": "enter", "dice": [6, 5]}))
