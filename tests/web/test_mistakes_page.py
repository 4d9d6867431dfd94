"""Every mistake explained on the page, in headless Chromium (issue 19, findings 2-4): a hit
left undone, ROLL pressed on half a play, three checkers borne off with 2-1, the lights after
a bear-off and on a stack taller than its switches. Each test saves a screenshot (into
``$BGPI_SCREENSHOTS`` when set, to be looked at; else the test's own directory)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from bgpi.base.words import BAR_WHITE, BLACK, TRAY_WHITE, WHITE
from bgpi.lights.render import Style
from bgpi.rules import Position
from bgpi.service.config import Config
from bgpi.web.run import SimServer
from bgpi.web.session import SimSession
from tests.table.arrange import arrange, fixed_dice
from tests.web.browser import checker_centre, drag, slot_centre
from tests.web.started import started_session
from tests.web.test_browser import DESTINATION, lit, wait_lit

MISTAKE = ",".join(map(str, Style().shade("mistake")))
MISSING = ",".join(map(str, Style().shade("missing")))
FAR = {13: 5, 12: 5, 11: 5}
# White's view: a White blot on 19; Black has three on printed 17.
BLOT = Position.from_points({6: 5, 8: 3, 13: 5, 19: 1, 24: 1}, {24: 2, 13: 5, 8: 3, 7: 5})


@pytest.fixture
def server() -> Iterator[SimServer]:
    with SimServer(started_session(Config(), seed=1)) as running:
        yield running


def start(page: Page, server: SimServer, position: Position, turn: int, *dice: int) -> None:
    """The page on a game in ``position`` (White's view), ``turn`` to roll ``dice``."""

    def put(session: SimSession) -> None:
        fixed_dice(session.sim, *dice)
        arrange(session.sim, position, turn)

    page.goto(server.url)
    expect(page.locator("body")).to_have_attribute("data-phase", "opening")
    server.call(put)
    expect(page.locator("body")).to_have_attribute("data-phase", "before roll")
    page.keyboard.press("r" if turn == WHITE else "Shift+R")
    expect(page.locator("body")).to_have_attribute("data-phase", "moving")


def to_tray(page: Page, src: int) -> None:
    """Bear off the outermost checker of ``src`` into White's tray (the bottom half)."""
    slabs = page.locator(f'.slab[data-zone="{TRAY_WHITE}"]')
    before = slabs.count()
    tray = page.locator("rect.tray").bounding_box()
    assert tray is not None
    page.mouse.move(*checker_centre(page, src))
    page.mouse.down()
    page.mouse.move(tray["x"] + tray["width"] / 2, tray["y"] + tray["height"] - 30, steps=4)
    page.mouse.up()
    expect(slabs).to_have_count(before + 1)


def shot(page: Page, name: str, tmp_path: Path) -> None:
    folder = Path(os.environ.get("BGPI_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    assert path.read_bytes()[:4] == b"\x89PNG"


def test_a_hit_left_undone_is_said_and_the_blot_and_the_bar_light(
    page: Page, server: SimServer, tmp_path: Path
) -> None:
    start(page, server, BLOT, BLACK, 2, 1)
    drag(page, 17, 19)  # Black's 2 onto White's blot, which stays there
    expect(page.locator("#status")).to_contain_text(
        "Black plays 2-1: a hit: put White's checker from 19 on the bar."
    )
    wait_lit(page, BAR_WHITE, MISTAKE, pixels="some")  # the flash first...
    wait_lit(page, 19, MISTAKE, pixels="some")
    shot(page, "hit-left-undone", tmp_path)
    wait_lit(page, BAR_WHITE, MISSING, pixels="some")  # ...then where the blot goes
    expect(page.locator("#log li.mistake")).to_have_text(
        "Black: a hit: put White's checker from 19 on the bar"
    )
    shot(page, "hit-left-undone-later", tmp_path)
    drag(page, 19, BAR_WHITE)  # the page's hand takes the outermost: White's, on top
    expect(page.locator("#status")).not_to_contain_text("a hit")
    expect(page.locator("#log li.mistake")).to_have_count(0)


def test_roll_on_half_a_play_is_dark_and_a_press_says_the_die_left(
    page: Page, server: SimServer, tmp_path: Path
) -> None:
    start(page, server, Position.initial(), WHITE, 3, 1)
    drag(page, 8, 5, slot=2)
    # ROLL only once the table has seen the checker settle: the 3 is then greyed as used.
    expect(page.locator('.die.used[data-value="3"]')).to_have_count(1)
    roll = page.locator('.led[data-owner="button.white.roll"]')
    expect(roll.first).to_have_attribute("data-rgb", "0,0,0")  # nothing to end yet
    page.keyboard.press("r")
    expect(page.locator("#status")).to_contain_text(
        "White plays 3-1: the play is not complete: the 1 can still be played (e.g. "
    )
    shot(page, "roll-on-half-a-play", tmp_path)
    expect(page.locator("body")).to_have_attribute("data-phase", "moving")


def test_three_borne_off_with_two_one_is_flagged_on_roll(
    page: Page, server: SimServer, tmp_path: Path
) -> None:
    low = Position.from_points({5: 3, 4: 3, 3: 3, 2: 3, 1: 3}, FAR)
    start(page, server, low, WHITE, 2, 1)
    for point in (1, 2, 3):
        to_tray(page, point)
    # The page shows the third checker off; ROLL only once the table has seen it settle too.
    server.call(lambda session: session.sim.advance(0.2))
    page.keyboard.press("r")
    expect(page.locator("#status")).to_contain_text(
        "3 checkers borne off, but this roll bears off at most 2"
    )
    shot(page, "over-full-bear-off", tmp_path)


def test_after_a_bear_off_a_lifted_checker_lights_only_its_own_destinations(
    page: Page, server: SimServer, tmp_path: Path
) -> None:
    home = Position.from_points({6: 3, 5: 3, 4: 3, 3: 3, 2: 3}, FAR)
    start(page, server, home, WHITE, 4, 2)
    to_tray(page, 4)  # 4/off
    page.mouse.move(*checker_centre(page, 6))
    page.mouse.down()  # the next checker, held
    page.mouse.move(*slot_centre(page, 9, 5), steps=3)
    wait_lit(page, 4, DESTINATION)  # 6/4 with the 2
    assert not lit(page, 2, DESTINATION)  # 4/2 was the first checker's, not this one's
    shot(page, "after-a-bear-off", tmp_path)
    page.mouse.move(*slot_centre(page, 4, 3), steps=3)
    page.mouse.up()
    expect(page.locator("#status")).to_contain_text("ROLL ends the turn")


def test_a_stack_taller_than_its_switches_lights_where_it_may_go(
    page: Page, server: SimServer, tmp_path: Path
) -> None:
    tall = Position.from_points({6: 8, 8: 4, 13: 3}, {14: 5, 15: 5, 16: 5})
    start(page, server, tall, WHITE, 3, 1)
    for zone in (5, 3, 2):  # 6/5, 6/3, 6/2: a lift from eight on six slots shows nothing
        wait_lit(page, zone, DESTINATION)
    shot(page, "tall-stack", tmp_path)
