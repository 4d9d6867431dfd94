"""The page in headless Chromium: it loads, a lifted checker lights its destinations, a
play is made with the mouse and ended with ROLL, a wrong placement lights red, and a network
bind refuses a visit without the token."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from bgpi.base.words import WHITE
from bgpi.lights.render import Style
from bgpi.service.config import Config
from bgpi.web.run import SimServer
from tests.web.browser import checker_centre, drag, slot_centre
from tests.web.started import started_session

SEED = 23  # the opening roll: White 3, Black 1, so White plays 31
DESTINATION = ",".join(map(str, Style().shade("destination")))
EXTRA = ",".join(map(str, Style().shade("extra")))


@pytest.fixture
def server() -> Iterator[SimServer]:
    with SimServer(started_session(Config(), seed=SEED)) as running:
        yield running


def lit(page: Page, zone: int, rgb: str) -> bool:
    """Whether every LED of ``zone`` shows ``rgb`` (as the strip gets it) now."""
    colours = page.eval_on_selector_all(
        f'.led[data-owner="{zone}"]', "leds => leds.map(led => led.dataset.rgb)"
    )
    return bool(colours) and all(colour == rgb for colour in colours)


def wait_lit(page: Page, zone: int, rgb: str, *, pixels: str = "all") -> None:
    test = "every" if pixels == "all" else "some"
    page.wait_for_function(
        f"""() => {{
            const leds = [...document.querySelectorAll('.led[data-owner="{zone}"]')];
            return leds.length > 0 && leds.{test}(led => led.dataset.rgb === "{rgb}");
        }}""",
        timeout=5000,
    )


def open_page(page: Page, server: SimServer) -> None:
    page.goto(server.url)
    expect(page.locator("body")).to_have_attribute("data-phase", "opening")
    expect(page.locator('.checker[data-zone="13"]')).to_have_count(5)


def opening_roll(page: Page) -> None:
    page.keyboard.press("r")  # White's ROLL
    page.keyboard.press("Shift+R")  # Black's ROLL
    expect(page.locator("body")).to_have_attribute("data-phase", "moving")
    expect(page.locator("#status")).to_have_text(
        "White plays 3-1: lift a checker to see where it may go. Hold CUBE to resign."
    )


def test_the_page_loads_with_the_board_set_up(page: Page, server: SimServer) -> None:
    open_page(page, server)
    expect(page.locator(".checker")).to_have_count(30)
    expect(page.locator('.checker.white[data-zone="24"]')).to_have_count(2)
    expect(page.locator('.checker.black[data-zone="1"]')).to_have_count(2)
    leds = page.locator(".led")
    expect(leds).to_have_count(Config().ledmap.length)
    expect(page.locator("#position-id")).to_have_text("4HPwATDgc/ABMA")
    expect(page.locator("#match-id")).not_to_be_empty()
    expect(page.locator("#log")).to_contain_text("Game 1, score 0-0")
    expect(page.locator('.button[data-player="0"][data-button="roll"]')).to_be_visible()


def test_a_checker_lifted_from_the_13_point_lights_its_legal_destinations(
    page: Page, server: SimServer
) -> None:
    open_page(page, server)
    opening_roll(page)
    page.mouse.move(*checker_centre(page, 13))
    page.mouse.down()  # lifted, and held
    page.mouse.move(*slot_centre(page, 11, 5), steps=3)
    wait_lit(page, 10, DESTINATION)
    wait_lit(page, 9, DESTINATION)
    for zone in (12, 11, 8, 7, 5, 4):  # 12 is blocked; the others are out of reach
        assert not lit(page, zone, DESTINATION), zone
    assert server.call(lambda s: s.hand) == [(WHITE, 13)]
    page.mouse.move(*slot_centre(page, 13, 4), steps=3)
    page.mouse.up()  # put back: nothing is lit any more
    page.wait_for_function(
        """() => [...document.querySelectorAll('.led[data-owner="10"]')]
                 .every(led => led.dataset.rgb === "0,0,0")"""
    )
    expect(page.locator('.checker[data-zone="13"]')).to_have_count(5)


def test_an_opening_play_and_roll_commit_it_and_the_log_shows_it(
    page: Page, server: SimServer
) -> None:
    open_page(page, server)
    opening_roll(page)
    drag(page, 8, 5, slot=2)
    drag(page, 6, 5)
    expect(page.locator('.checker[data-zone="5"]')).to_have_count(2)
    expect(page.locator("#status")).to_have_text(
        "White has played 3-1: ROLL ends the turn. Hold CUBE to resign."
    )
    expect(page.locator('.button[data-player="0"][data-button="roll"]')).to_be_visible()
    page.locator('.button[data-player="0"][data-button="roll"] rect').click()  # the mouse's ROLL
    expect(page.locator("body")).to_have_attribute("data-phase", "before roll")
    expect(page.locator("#log li").last).to_have_text("White 31: 8/5 6/5")
    expect(page.locator("#status")).to_have_text(
        "Black rolls (ROLL) or doubles (CUBE). Hold CUBE to resign; the player who just played"
        " may hold ROLL to ask for a takeback."
    )
    expect(page.locator("#position-id")).to_have_text(
        server.call(lambda s: s.sim.table.mover_view.id())
    )
    mat = page.request.get(server.url + "match.mat")
    assert mat.ok and "1) 31: 8/5 6/5" in mat.text()


def test_a_wrong_placement_lights_red_until_it_is_put_right(page: Page, server: SimServer) -> None:
    open_page(page, server)
    opening_roll(page)
    drag(page, 13, 11)  # 13 to 11 is no move of a 3-1
    wait_lit(page, 11, EXTRA, pixels="some")  # blinking: red on some phases
    expect(page.locator("#status")).to_contain_text("2 pips, but the dice are 3 and 1")
    page.wait_for_function(  # both turn lights blink the alert
        """() => [...document.querySelectorAll('.led[data-owner="turn.black"]')]
                 .some(led => led.dataset.rgb.startsWith("128,0,0"))"""
    )
    drag(page, 11, 13, slot=4)
    expect(page.locator("#status")).to_have_text(
        "White plays 3-1: lift a checker to see where it may go. Hold CUBE to resign."
    )
    page.wait_for_function(
        """() => [...document.querySelectorAll('.led[data-owner="11"]')]
                 .every(led => led.dataset.rgb === "0,0,0")"""
    )


def test_a_knocked_checker_is_missing_until_it_is_set_straight(
    page: Page, server: SimServer
) -> None:
    open_page(page, server)
    page.locator('.checker[data-zone="6"][data-slot="4"]').click(button="right")
    expect(page.locator('.checker.askew[data-zone="6"]')).to_have_count(1)
    expect(page.locator("#status")).to_contain_text("The board is wrong")
    page.locator('.checker.askew[data-zone="6"]').click()
    expect(page.locator(".checker.askew")).to_have_count(0)
    expect(page.locator("#status")).to_have_text("Opening roll: each player presses ROLL.")


def test_a_network_bind_refuses_the_page_without_its_token(page: Page) -> None:
    with SimServer(started_session(Config(), seed=SEED), host="0.0.0.0") as server:
        port = server.address.port
        refused = page.goto(f"http://127.0.0.1:{port}/")
        assert refused is not None and refused.status == 403
        expect(page.locator("body")).to_contain_text("needs its token")
        before = server.call(lambda s: len(s.sim.driver.log))
        page.goto(f"http://127.0.0.1:{port}/?token={server.token}")
        expect(page.locator(".checker")).to_have_count(30)
        # The first visit shows the address as a QR code for a phone, once.
        expect(page.locator("#share")).to_be_visible()
        page.wait_for_function("() => document.querySelector('#share-code').naturalWidth > 0")
        page.locator("#share-close").click()
        expect(page.locator("#share")).to_be_hidden()
        page.reload()
        expect(page.locator(".checker")).to_have_count(30)
        expect(page.locator("#share")).to_be_hidden()
        page.keyboard.press("r")  # the cookie carries the token to the socket: hands work
        page.wait_for_function("() => document.querySelector('#log').textContent.length > 0")
        expect(page.locator("body")).to_have_attribute("data-connected", "true")
        page.wait_for_function("() => [...document.querySelectorAll('.die')].length === 1")
        assert server.call(lambda s: len(s.sim.driver.log)) > before
