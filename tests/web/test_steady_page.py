"""The page does not move under the player (issue 26, item 3), at 1280x800, 1366x768 and on
a 390x844 phone held upright: a game walked through its phases with the keys, and in each
the buttons the player who must press is offered lie wholly on the screen without scrolling,
while the board stays where it was however long the status line is; the log keeps its
heading and a whole top line once it scrolls; a tall stack's count stays inside its point."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import pytest
from playwright.sync_api import Browser, FloatRect, Page, expect

from bgpi.base.words import BLACK, CUBE, ROLL, WHITE, ButtonName, Player
from bgpi.journal.records import MatchStarted, Record
from bgpi.rules import Position
from bgpi.service.config import Config
from bgpi.sim.demo import play_match
from bgpi.web.run import SimServer, new_session
from bgpi.web.session import SimSession
from tests.table.arrange import arrange
from tests.web.browser import drag

T = TypeVar("T")
SEED = 23  # the opening roll: White 3, Black 1, so White plays 31
SCREENS: dict[str, dict[str, Any]] = {
    "1280x800": {"viewport": {"width": 1280, "height": 800}},
    "1366x768": {"viewport": {"width": 1366, "height": 768}},
    "phone 390x844": {
        "viewport": {"width": 390, "height": 844},
        "has_touch": True,
        "is_mobile": True,
    },
}
BOTH = {WHITE, BLACK}

# The buttons the page offers now, with the words of what each does under it (the table's
# prompts); and those whose LED is lit.
OFFERED = """() => [...document.querySelectorAll('.meaning')].filter(m => m.textContent !== "")
    .map(m => [Number(m.dataset.player), m.dataset.button])"""
LIT = """() => [...document.querySelectorAll('.led[data-owner^="button."]')]
    .filter(led => led.dataset.rgb !== "0,0,0")
    .map(led => led.dataset.owner.split(".")).map(([, colour, button]) =>
        [colour === "white" ? 0 : 1, button])"""


@pytest.fixture(params=list(SCREENS))
def screen(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    context = browser.new_context(**SCREENS[request.param])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"the page's JavaScript failed: {errors}"


def box(page: Page, selector: str) -> FloatRect:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, selector
    return found


def on_screen(page: Page, selector: str) -> None:
    """``selector``'s box lies wholly inside the viewport, the page not scrolled."""
    assert page.evaluate("[window.scrollX, window.scrollY]") == [0, 0]
    size = page.viewport_size
    assert size is not None
    found = box(page, selector)
    assert found["x"] >= 0 and found["x"] + found["width"] <= size["width"], (selector, found)
    assert found["y"] >= 0 and found["y"] + found["height"] <= size["height"], (selector, found)


class Walk:
    """A game walked on the page, the board's place taken in the first phase and held to."""

    def __init__(self, page: Page, server: SimServer) -> None:
        self.page = page
        self.server = server
        self.board: FloatRect | None = None
        self.statuses: list[str] = []

    def reach(self, phase: str, must_press: set[Player]) -> None:
        """The page shows ``phase``; only ``must_press``'s buttons are offered, each of them on
        the screen, and one of them lit; the board where it was; the whole status shown."""
        page = self.page
        expect(page.locator("body")).to_have_attribute("data-phase", phase)
        offered = [(Player(p), b) for p, b in page.evaluate(OFFERED)]
        assert {player for player, _ in offered} == must_press, (phase, offered)
        for player, button in offered:
            which = f'[data-player="{player.value}"][data-button="{button}"]'
            on_screen(page, f".button{which}")
            on_screen(page, f".meaning{which}")
        if offered:  # caught lit (a light may blink), and only where a button is offered
            lit = f"({LIT})().map(String)"
            page.wait_for_function(
                f"() => {lit}.length > 0 && {lit}.every(b => ({OFFERED})().map(String).includes(b))"
            )
        self.steady()

    def steady(self) -> None:
        """The board where it was in the first phase, all of it on the screen, and the
        status wholly shown."""
        page = self.page
        status = page.locator("#status")
        fits = status.evaluate("s => s.scrollHeight <= s.clientHeight + 1")
        assert fits, f"the status is cut off: {status.inner_text()!r}"
        self.statuses.append(status.inner_text())
        now = box(page, "#board")
        self.board = self.board or now
        assert now == self.board, f"the board moved at {self.statuses[-1]!r}"
        on_screen(page, "#board")  # the whole board, both panels too

    def hold(self, key: str, player: Player, button: ButtonName) -> None:
        """``key`` held past a long press, as the table's clock measures it (not guessed)."""
        keys = ["Shift", key] if key.isupper() else [key]
        for name in keys:
            self.page.keyboard.down(name)
        since = self.wait(
            lambda s: s.sim.clock() if (player, button) in s.sim.buttons.down else None
        )
        long_press = self.server.call(lambda s: s.sim.table.config.long_press)
        self.wait(lambda s: s.sim.clock() >= since + long_press + 0.1 or None)
        for name in reversed(keys):
            self.page.keyboard.up(name)

    def wait(self, probe: Callable[[SimSession], T | None]) -> T:
        """``probe``'s first answer but None, asked on the session's thread."""
        for _ in range(200):
            answer = self.server.call(probe)
            if answer is not None:
                return answer
            self.page.wait_for_timeout(25)
        raise AssertionError("the table never got there")


def test_a_game_walked_through_its_phases_keeps_the_buttons_on_the_screen_and_the_board_still(
    screen: Page,
) -> None:
    page = screen
    with SimServer(new_session(Config(), seed=SEED)) as server:
        walk = Walk(page, server)
        page.goto(server.url)
        walk.reach("choosing the match", BOTH)
        walk.hold("r", WHITE, ROLL)  # the config's match, as the defaults stand
        walk.reach("opening", BOTH)
        page.keyboard.press("r")
        page.keyboard.press("Shift+R")
        walk.reach("moving", set())  # nothing to press before a play is made
        drag(page, 13, 11)  # no move of a 3-1: the status says what is wrong, at length
        expect(page.locator("#status")).to_contain_text("2 pips, but the dice are 3 and 1")
        walk.steady()
        drag(page, 11, 13, slot=4)
        drag(page, 8, 5, slot=2)
        drag(page, 6, 5)
        expect(page.locator("#status")).to_contain_text("ROLL ends the turn")
        walk.reach("moving", {WHITE})
        page.keyboard.press("r")
        walk.reach("before roll", {BLACK})
        page.keyboard.press("Shift+C")  # Black doubles
        walk.reach("doubled", {WHITE})
        page.keyboard.press("r")  # White takes
        walk.reach("before roll", {BLACK})
        walk.hold("C", BLACK, CUBE)  # Black would resign
        walk.reach("resigning", {BLACK})
        page.keyboard.press("Shift+R")  # and offers the level shown
        walk.reach("resignation offered", {WHITE})
        page.keyboard.press("r")  # White accepts
        walk.reach("game over", BOTH)
    lengths = sorted(len(status) for status in walk.statuses)
    assert lengths[-1] >= 2 * lengths[0], walk.statuses  # short and long statuses both seen


# -- the log -------------------------------------------------------------------------------------

# Where the log's heading and lines are on the screen: whether the heading is inside the box,
# the lines its lower edge cuts across, and whether the last line ends inside the box.
LOG = """() => {
    const box = document.querySelector("#log-box");
    const outer = box.getBoundingClientRect();
    const heading = box.querySelector("h2").getBoundingClientRect();
    const lines = [...box.querySelectorAll("#log li")];
    const last = lines[lines.length - 1].getBoundingClientRect();
    return {
        scrolled: box.scrollTop,
        heading: heading.top >= outer.top - 0.5 && heading.bottom <= outer.bottom + 0.5,
        cut: lines.filter(line => {
            const r = line.getBoundingClientRect();
            return r.top < heading.bottom - 0.5 && r.bottom > heading.bottom + 0.5;
        }).map(line => line.textContent),
        end: last.bottom <= outer.bottom + 0.5,
    };
}"""


def long_log() -> list[Record]:
    """The records of a whole game of the demo's players: a log far longer than its box."""
    sim = play_match(MatchStarted(5), seed=3, say=lambda _: None, games=1)
    return list(sim.driver.log)


def test_a_scrolled_log_keeps_its_heading_and_shows_whole_lines(screen: Page) -> None:
    page = screen
    with SimServer(new_session(Config(), seed=SEED, records=long_log())) as server:
        page.goto(server.url)
        page.wait_for_function("() => document.querySelectorAll('#log li').length > 30")
        log = page.locator("#log-box")
        log.scroll_into_view_if_needed()
        seen = page.evaluate(LOG)
        assert seen["scrolled"] > 0 and seen["end"], seen  # at its end, its last line whole
        assert seen["heading"] and not seen["cut"], seen
        page.mouse.move(*centre_of(page, "#log-box"))
        for delta in (-70, -45, 130):  # the wheel, up and down by odd amounts
            before = seen["scrolled"]
            page.mouse.wheel(0, delta)
            page.wait_for_function(
                f"() => {{ const s = ({LOG})(); "
                f"return s.scrolled !== {before} && s.cut.length === 0; }}"
            )
            seen = page.evaluate(LOG)
            assert seen["heading"] and not seen["cut"], (delta, seen)


def centre_of(page: Page, selector: str) -> tuple[float, float]:
    found = box(page, selector)
    return found["x"] + found["width"] / 2, found["y"] + found["height"] / 2


# -- stack counts --------------------------------------------------------------------------------

# White: 5 on the bar (4 slots), 10 on its 6 point; Black: 9 on its 6 point, 6 on its 5.
TALL = Position.from_points({25: 5, 6: 10}, {6: 9, 5: 6})


def inside(inner: FloatRect, outer: FloatRect) -> bool:
    return (
        inner["x"] >= outer["x"] - 0.5
        and inner["y"] >= outer["y"] - 0.5
        and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 0.5
        and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 0.5
    )


def overlap(one: FloatRect, other: FloatRect) -> bool:
    return (
        one["x"] < other["x"] + other["width"]
        and other["x"] < one["x"] + one["width"]
        and one["y"] < other["y"] + other["height"]
        and other["y"] < one["y"] + one["height"]
    )


def test_a_tall_stack_s_count_stays_inside_its_point(screen: Page) -> None:
    page = screen
    with SimServer(new_session(Config(), seed=SEED, records=MatchStarted(5))) as server:
        server.call(lambda s: arrange(s.sim, TALL, WHITE))
        page.goto(server.url)
        badges = page.locator(".stack-count")
        expect(badges).to_have_count(3)
        expect(badges).to_have_text(["10", "9", "5"])  # White's 6, Black's 6 (19), the bar
        points = {int(zone): box(page, f'.point[data-zone="{zone}"]') for zone in range(1, 25)}
        for index in range(3):
            badge = badges.nth(index)
            zone = int(badge.get_attribute("data-zone") or 0)
            found = badge.bounding_box()
            assert found is not None
            home = points.get(zone) or box(page, ".bar")
            assert inside(found, home), (zone, found, home)
            for other, place in points.items():
                assert other == zone or not overlap(found, place), (zone, other, found, place)
