"""Regenerate the page's screenshots in docs/, each a scene of `bgpi sim` in Debian's chromium
(headless, through Playwright for Python: no browser download)::

    .venv/bin/python scripts/screenshot.py [SCENE ...]

Without a scene, every one. The scenes, at 1280x800 CSS px but the phone's:

- ``opening`` (docs/screenshot.png): the config's match started on the fresh board; the
  opening roll (seeded dice: White 3, Black 1), White plays 8/5 6/5 with the mouse and ends
  the turn with ROLL; Black rolls and lifts a checker from the 12 point, held, so its legal
  destinations glow.
- ``phone`` (docs/screenshot-phone.png): the same on a phone held upright (390x844, the
  board turned).
- ``choosing`` (docs/screenshot-choosing.png): a fresh board, the match being chosen.
- ``engine`` (docs/screenshot-engine.png): Black is gnubg (Debian's, at expert), which wins
  the opening roll: its play is lit, move by move, for the hands at the board.
- ``bearoff`` (docs/screenshot-bearoff.png): a race from a game of the demo's players, White
  bearing off with the dice just rolled and a checker lifted, its destinations lit.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from playwright.sync_api import Page, ViewportSize, expect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the browser helpers of the tests drive the page here too

from bgpi.base.words import BLACK, WHITE  # noqa: E402
from bgpi.engine.seats import open_engines  # noqa: E402
from bgpi.journal.records import MatchStarted, Played, Record, Rolled, Seat  # noqa: E402
from bgpi.rules import OFF  # noqa: E402
from bgpi.service.config import Config, parse  # noqa: E402
from bgpi.sim.demo import play_match  # noqa: E402
from bgpi.web.run import SimServer, new_session  # noqa: E402
from tests.web.browser import checker_centre, chromium, drag, slot_centre  # noqa: E402

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from bgpi.web.session import SimSession

SEED = 23  # the opening roll: White 3, Black 1
DOCS = ROOT / "docs"
DESKTOP = ViewportSize(width=1280, height=800)
PHONE = ViewportSize(width=390, height=844)
DESTINATION = "0,74,6"  # a legal destination's light, as the strip gets it


@dataclass(frozen=True, slots=True)
class Scene:
    """A screenshot: the file in docs/, the session it is of, what is played on its page."""

    output: str
    session: Callable[[], SimSession]
    play: Callable[[Page], None]
    phone: bool = False

    def shoot(self, browser: Browser) -> None:
        session = self.session()
        try:
            with SimServer(session) as server:
                page = browser.new_page(
                    viewport=PHONE if self.phone else DESKTOP, is_mobile=self.phone
                )
                page.goto(server.url)
                self.play(page)
                page.wait_for_timeout(300)  # the last frame's lights drawn
                page.screenshot(path=str(DOCS / self.output))
                page.close()
        finally:
            session.close()
        print(f"wrote {DOCS / self.output}")


def start_match(page: Page) -> None:
    """ROLL held on the fresh board: the config's match, as the defaults stand."""
    body = page.locator("body")
    expect(body).to_have_attribute("data-phase", "choosing the match")
    page.keyboard.down("r")
    page.wait_for_timeout(1000)
    page.keyboard.up("r")
    expect(body).to_have_attribute("data-phase", "opening")


def opening_play(page: Page) -> None:
    """The opening roll, and White's 31 played 8/5 6/5 and ended with ROLL."""
    page.keyboard.press("r")
    page.keyboard.press("Shift+R")
    expect(page.locator("body")).to_have_attribute("data-phase", "moving")
    drag(page, 8, 5, slot=page.locator('.checker[data-zone="5"]').count())
    drag(page, 6, 5, slot=page.locator('.checker[data-zone="5"]').count())
    expect(page.locator("#status")).to_contain_text("ROLL ends the turn")  # the play seen
    page.keyboard.press("r")
    expect(page.locator("#log li").last).to_have_text("White 31: 8/5 6/5")


def hold_lifted(page: Page, zone: int, over: tuple[int, int]) -> None:
    """Lift the outermost checker of ``zone`` and hold it over ``over`` (zone, slot), until
    its destinations glow."""
    page.mouse.move(*checker_centre(page, zone))
    page.mouse.down()
    page.mouse.move(*slot_centre(page, *over), steps=5)
    page.wait_for_function(
        "() => [...document.querySelectorAll('.led')]"
        f".some(led => led.dataset.rgb === '{DESTINATION}')"
    )


def opening(page: Page) -> None:
    start_match(page)
    opening_play(page)
    page.keyboard.press("Shift+R")
    expect(page.locator("body")).to_have_attribute("data-phase", "moving")
    hold_lifted(page, 12, (15, 2))  # Black's 12 point: a checker held over the 15


def choosing(page: Page) -> None:
    expect(page.locator("body")).to_have_attribute("data-phase", "choosing the match")
    expect(page.locator("#choose-options tr")).to_have_count(3)


def engine_on_roll(page: Page) -> None:
    expect(page.locator("body")).to_have_attribute("data-phase", "opening")
    page.keyboard.press("r")  # White's 1 to gnubg's 3: it plays the 31, lit for the hands
    expect(page.locator("body")).to_have_attribute("data-phase", "guided play")


def bearing_off(page: Page) -> None:
    expect(page.locator("body")).to_have_attribute("data-phase", "moving")
    # White's rearmost checker lifted, held over the 1 point: its destinations glow.
    rearmost = max(
        zone for zone in range(1, 7) if page.locator(f'.checker.white[data-zone="{zone}"]').count()
    )
    hold_lifted(page, rearmost, (1, 3))


def race(seed: int = 5) -> list[Record]:
    """A game of the demo's players up to White's first roll once White has borne off four
    checkers and Black two: the board and the log as a bear-off finds them."""
    records = list(play_match(MatchStarted(5), seed=seed, say=lambda _: None, games=1).driver.log)
    off = [0, 0]
    for index, record in enumerate(records):
        if isinstance(record, Played):
            off[record.player] += sum(1 for move in record.moves if move[1] == OFF)
        elif (
            isinstance(record, Rolled)
            and record.player == WHITE
            and off[WHITE] >= 4
            and off[BLACK] >= 2
        ):
            return records[: index + 1]
    raise RuntimeError(f"the demo's game of seed {seed} has no such race")


def fresh() -> SimSession:
    return new_session(Config(), seed=SEED)


def bear_off() -> SimSession:
    return new_session(Config(), seed=SEED, records=race())


def gnubg_black() -> SimSession:
    config = parse({"seats": {"black": "gnubg:expert"}})
    engines = open_engines((config.seats.white, config.seats.black), say=print)
    if BLACK not in engines:
        raise RuntimeError("the engine scene needs Debian's gnubg (apt-get install gnubg)")
    match = MatchStarted(5, seats=(Seat.PERSON, Seat.ENGINE))
    return new_session(config, seed=SEED, records=match, engines=engines)


SCENES: dict[str, Scene] = {
    "opening": Scene("screenshot.png", fresh, opening),
    "phone": Scene("screenshot-phone.png", fresh, opening, phone=True),
    "choosing": Scene("screenshot-choosing.png", fresh, choosing),
    "engine": Scene("screenshot-engine.png", gnubg_black, engine_on_roll),
    "bearoff": Scene("screenshot-bearoff.png", bear_off, bearing_off),
}


def main(names: list[str]) -> int:
    unknown = [name for name in names if name not in SCENES]
    if unknown:
        print(f"screenshot.py: no scene {unknown[0]!r}: the scenes are {', '.join(SCENES)}")
        return 2
    with chromium() as browser:
        for name in names or list(SCENES):
            SCENES[name].shoot(browser)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
