"""The page on a phone held upright (Chromium at 390x844) and the page's own polish at a
desktop size: the board turned a quarter to fill the width with its numbers upright, ROLL
and CUBE large enough for a finger, nothing wider than the screen, a play dragged on the
turned board; pips that follow the checkers during the turn, the log's roll line waiting
with "…", doubles as four dice with the moves left, the last play outlined, whose turn it
is in the panel, the dice large on the board."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from bgpi.base.words import BLACK, WHITE
from bgpi.journal.records import GameStarted, OpeningRolled, Played, Record, Rolled
from bgpi.service.config import Config
from bgpi.web.run import SimServer, new_session
from tests.web.browser import centre, checker_centre, drag, slot_centre
from tests.web.started import started_session

SEED = 23  # the opening roll: White 3, Black 1, so White plays 31
PHONE = {"width": 390, "height": 844}
FINGER = 44  # CSS px: the smallest target a fingertip hits reliably


@pytest.fixture
def server() -> Iterator[SimServer]:
    with SimServer(started_session(Config(), seed=SEED)) as running:
        yield running


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"the page's JavaScript failed: {errors}"


def open_page(page: Page, server: SimServer) -> None:
    page.goto(server.url)
    expect(page.locator("body")).to_have_attribute("data-phase", "opening")
    expect(page.locator('.checker[data-zone="13"]')).to_have_count(5)


def opening_roll(page: Page) -> None:
    page.keyboard.press("r")  # White's ROLL
    page.keyboard.press("Shift+R")  # Black's ROLL
    expect(page.locator("body")).to_have_attribute("data-phase", "moving")


def play_31(page: Page) -> None:
    """White's opening 31, 8/5 6/5, seen through by the table: ROLL now ends the turn."""
    drag(page, 8, 5, slot=2)
    drag(page, 6, 5)
    expect(page.locator("#status")).to_contain_text("ROLL ends the turn")


def box(page: Page, selector: str) -> dict[str, float]:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, selector
    return found


def pips(page: Page) -> tuple[str, str]:
    return page.locator("#pips-white").inner_text(), page.locator("#pips-black").inner_text()


# -- a phone held upright ----------------------------------------------------------------------


def test_on_a_phone_the_board_turns_to_fill_the_width_with_its_numbers_upright(
    phone: Page, server: SimServer
) -> None:
    open_page(phone, server)
    expect(phone.locator("body")).to_have_attribute("data-orientation", "portrait")
    board = box(phone, "#board")
    assert board["width"] >= PHONE["width"] - 16  # edge to edge but for a few pixels
    assert board["y"] + board["height"] <= PHONE["height"]  # the whole board in one screen
    # Turned: a point's triangle runs across the screen, not down it.
    point = box(phone, '.point[data-zone="1"]')
    assert point["width"] > 2 * point["height"]
    # ... while its number reads left to right: no rotation left on the screen.
    matrix = phone.eval_on_selector(
        '.number[data-zone="1"]', "n => { const m = n.getScreenCTM(); return [m.a, m.b]; }"
    )
    assert matrix[0] > 0 and abs(matrix[1]) < 1e-6
    number = box(phone, '.number[data-zone="24"]')
    assert number["height"] >= 9  # large enough to read
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_on_a_phone_roll_and_cube_are_large_enough_for_a_finger(
    phone: Page, server: SimServer
) -> None:
    open_page(phone, server)
    buttons = phone.locator(".button rect")
    expect(buttons).to_have_count(4)
    for index in range(4):
        found = buttons.nth(index).bounding_box()
        assert found is not None
        assert found["width"] >= FINGER and found["height"] >= FINGER, found
        assert found["x"] >= 0 and found["x"] + found["width"] <= PHONE["width"]


def test_on_a_phone_a_play_is_dragged_on_the_turned_board_and_rolled(
    phone: Page, server: SimServer
) -> None:
    open_page(phone, server)
    opening_roll(phone)
    drag(phone, 8, 5, slot=2)  # the pointer mapped through the turned group lands on 5
    drag(phone, 6, 5)
    expect(phone.locator('.checker[data-zone="5"]')).to_have_count(2)
    expect(phone.locator("#status")).to_contain_text("ROLL ends the turn")
    phone.locator('.button[data-player="0"][data-button="roll"] rect').click()
    expect(phone.locator("#log li").last).to_have_text("White 31: 8/5 6/5")


def test_turning_the_phone_turns_the_board_back(phone: Page, server: SimServer) -> None:
    open_page(phone, server)
    phone.set_viewport_size({"width": PHONE["height"], "height": PHONE["width"]})
    expect(phone.locator("body")).to_have_attribute("data-orientation", "landscape")
    point = box(phone, '.point[data-zone="1"]')
    assert point["height"] > 2 * point["width"]
    expect(phone.locator(".checker")).to_have_count(30)


# -- the page's polish, at a desktop size ---------------------------------------------------------


def test_pips_follow_the_checkers_during_the_turn(page: Page, server: SimServer) -> None:
    open_page(page, server)
    assert pips(page) == ("167", "167")
    opening_roll(page)
    drag(page, 8, 5, slot=2)
    expect(page.locator("#pips-white")).to_have_text("164")  # the turn is not over yet
    expect(page.locator("body")).to_have_attribute("data-phase", "moving")
    drag(page, 6, 5)
    expect(page.locator("#pips-white")).to_have_text("163")
    expect(page.locator("#pips-black")).to_have_text("167")


def test_the_log_line_of_a_roll_waits_with_an_ellipsis_until_its_play(
    page: Page, server: SimServer
) -> None:
    open_page(page, server)
    opening_roll(page)
    expect(page.locator("#log li").last).to_have_text("White 31: …")
    play_31(page)
    page.keyboard.press("r")
    expect(page.locator("#log li").last).to_have_text("White 31: 8/5 6/5")


def doubles() -> list[Record]:
    """White's opening 31 played, Black on roll with 4-4."""
    return [
        Config().match_record(),
        GameStarted(),
        OpeningRolled(3, 1),
        Played(WHITE, ((8, 5, 3, False), (6, 5, 1, False))),
        Rolled(BLACK, (4, 4)),
    ]


def test_doubles_show_four_dice_and_how_many_moves_are_left(page: Page) -> None:
    with SimServer(new_session(Config(), seed=SEED, records=doubles())) as server:
        page.goto(server.url)
        expect(page.locator("body")).to_have_attribute("data-phase", "moving")
        dice = page.locator('.die[data-player="1"]')
        expect(dice).to_have_count(4)
        expect(page.locator('.die[data-value="4"]')).to_have_count(4)
        expect(page.locator(".moves-left")).to_have_text(["", "4 moves left"])
        drag(page, 12, 16)  # Black's 13 to 9
        expect(page.locator(".moves-left")).to_have_text(["", "3 moves left"])
        expect(page.locator(".die.used")).to_have_count(1)
        expect(page.locator("#pips-black")).to_have_text("163")


def test_the_last_play_is_outlined_plainly(page: Page, server: SimServer) -> None:
    open_page(page, server)
    opening_roll(page)
    play_31(page)
    page.keyboard.press("r")
    expect(page.locator("body")).to_have_attribute("data-phase", "before roll")
    marks = page.locator(".last-play")
    expect(marks).to_have_count(3)
    zones = sorted(int(z) for z in marks.evaluate_all("ms => ms.map(m => m.dataset.zone)"))
    assert zones == [5, 6, 8]
    stroke = marks.first.evaluate("m => getComputedStyle(m).stroke")
    assert stroke == "rgb(255, 225, 77)"  # bright yellow, not the LEDs' dim purple
    assert float(marks.first.evaluate("m => getComputedStyle(m).strokeWidth").rstrip("px")) >= 3


def test_whose_turn_it_is_shows_in_the_panel_and_the_score_table(
    page: Page, server: SimServer
) -> None:
    open_page(page, server)
    expect(page.locator(".panel.on-turn")).to_have_count(0)
    opening_roll(page)
    white_panel = page.locator('.panel-group[data-player="0"]')
    expect(white_panel.locator(".panel.on-turn")).to_have_count(1)
    expect(white_panel.locator(".turn-text")).to_have_text("to play")
    expect(page.locator('.panel-group[data-player="1"] .turn-text')).to_have_text("")
    expect(page.locator("#row-white")).to_have_class("on-turn")
    play_31(page)
    page.keyboard.press("r")
    expect(page.locator('.panel-group[data-player="1"] .turn-text')).to_have_text("to play")
    expect(white_panel.locator(".panel.on-turn")).to_have_count(0)


def test_the_dice_lie_large_on_the_board_in_the_rollers_half(page: Page, server: SimServer) -> None:
    open_page(page, server)
    opening_roll(page)
    dice = page.locator('.die[data-player="0"] rect')
    expect(dice).to_have_count(2)
    board = box(page, ".frame")
    bar = box(page, ".bar")
    for index in range(2):
        found = dice.nth(index).bounding_box()
        assert found is not None
        assert found["width"] >= 40 and found["height"] >= 40  # large
        # On the felt of White's right-hand half, between the bar and the tray.
        assert bar["x"] + bar["width"] < found["x"] < board["x"] + board["width"]
        assert board["y"] < found["y"] < board["y"] + board["height"]


def touch_drag(page: Page, start: tuple[float, float], end: tuple[float, float]) -> None:
    """A finger on the screen: down at ``start``, moved, lifted at ``end`` (the touch events
    Chromium gets from a phone's screen, through the DevTools protocol)."""
    session = page.context.new_cdp_session(page)
    steps = 4
    session.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point(start)]})
    for step in range(1, steps + 1):
        at = tuple(a + (b - a) * step / steps for a, b in zip(start, end, strict=True))
        session.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point(at)]})
    session.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    session.detach()


def point(at: tuple[float, ...]) -> dict[str, float]:
    return {"x": at[0], "y": at[1]}


def test_on_a_phone_a_finger_drags_a_checker_and_holds_a_button(
    phone: Page, server: SimServer
) -> None:
    open_page(phone, server)
    roll = centre(phone, '.button[data-player="0"][data-button="roll"] rect')
    session = phone.context.new_cdp_session(phone)
    for kind, points in (("touchStart", [point(roll)]), ("touchEnd", [])):
        session.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})
    session.detach()
    expect(phone.locator(".die")).to_have_count(1)  # White's opening die: the touch pressed ROLL
    phone.keyboard.press("Shift+R")
    expect(phone.locator("body")).to_have_attribute("data-phase", "moving")
    touch_drag(phone, checker_centre(phone, 8), slot_centre(phone, 5, 2))
    expect(phone.locator('.checker[data-zone="5"]')).to_have_count(1)
    expect(phone.locator("#pips-white")).to_have_text("164")


def test_a_long_press_on_a_held_checker_does_not_knock_it(phone: Page, server: SimServer) -> None:
    open_page(phone, server)
    opening_roll(phone)
    phone.mouse.move(*checker_centre(phone, 13))
    phone.mouse.down()  # held, as a finger holds it to see its destinations
    phone.mouse.move(*slot_centre(phone, 11, 5), steps=3)
    # The context menu a phone raises for a long press, on the checker under the finger.
    phone.eval_on_selector(
        '.checker[data-zone="13"][data-slot]',
        "c => c.dispatchEvent(new MouseEvent('contextmenu', {bubbles: true, cancelable: true}))",
    )
    phone.mouse.move(*slot_centre(phone, 13, 4), steps=3)
    phone.mouse.up()
    expect(phone.locator('.checker[data-zone="13"]')).to_have_count(5)
    expect(phone.locator(".checker.askew")).to_have_count(0)
    expect(phone.locator("#status")).not_to_contain_text("The board is wrong")


def test_after_a_double_the_panel_of_the_one_who_must_answer_is_marked(
    page: Page, server: SimServer
) -> None:
    open_page(page, server)
    opening_roll(page)
    play_31(page)
    page.keyboard.press("r")
    expect(page.locator("body")).to_have_attribute("data-phase", "before roll")
    page.keyboard.press("Shift+C")  # Black doubles
    expect(page.locator("body")).to_have_attribute("data-phase", "doubled")
    white_panel = page.locator('.panel-group[data-player="0"]')
    black_panel = page.locator('.panel-group[data-player="1"]')
    expect(white_panel.locator(".panel.on-turn")).to_have_count(1)
    expect(white_panel.locator(".turn-text")).to_have_text("to answer")
    expect(black_panel.locator(".panel.on-turn")).to_have_count(0)
    expect(black_panel.locator(".turn-text")).to_have_text("doubles")
