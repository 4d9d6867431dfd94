"""Regenerate docs/screenshot.png: the page of `bgpi sim` after an opening play.

The config's match is started on the fresh board; White and Black roll for the opening
(seeded dice: White 3, Black 1), White plays 8/5 6/5 with the mouse and ends the turn with
ROLL; Black rolls and lifts a checker from the 12 point, held, so its legal destinations
glow. Debian's chromium, headless, through Playwright for Python (no browser download)::

    .venv/bin/python scripts/screenshot.py [--phone] [OUTPUT.png]

With ``--phone``, the page as a phone held upright shows it (390x844 CSS px, the board
turned), written to docs/screenshot-phone.png by default.
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the browser helpers of the tests drive the page here too

from bgpi.service.config import Config  # noqa: E402
from bgpi.web.run import SimServer, new_session  # noqa: E402
from tests.web.browser import checker_centre, chromium, drag, slot_centre  # noqa: E402

SEED = 23
OUTPUT = ROOT / "docs" / "screenshot.png"
PHONE_OUTPUT = ROOT / "docs" / "screenshot-phone.png"
DESKTOP = {"width": 1320, "height": 980}
PHONE = {"width": 390, "height": 844}


def main(output: Path, *, phone: bool = False) -> None:
    with SimServer(new_session(Config(), seed=SEED)) as server, chromium() as browser:
        page = browser.new_page(viewport=PHONE if phone else DESKTOP, is_mobile=phone)
        page.goto(server.url)
        body = page.locator("body")
        expect(body).to_have_attribute("data-phase", "choosing the match")
        page.keyboard.down("r")  # ROLL held: the fresh board's match, as the config has it
        page.wait_for_timeout(1000)
        page.keyboard.up("r")
        expect(body).to_have_attribute("data-phase", "opening")
        page.keyboard.press("r")
        page.keyboard.press("Shift+R")
        expect(body).to_have_attribute("data-phase", "moving")
        drag(page, 8, 5, slot=page.locator('.checker[data-zone="5"]').count())
        drag(page, 6, 5, slot=page.locator('.checker[data-zone="5"]').count())
        expect(page.locator("#status")).to_contain_text("ROLL ends the turn")  # the play seen
        page.keyboard.press("r")
        expect(page.locator("#log li").last).to_have_text("White 31: 8/5 6/5")
        page.keyboard.press("Shift+R")
        expect(body).to_have_attribute("data-phase", "moving")
        # Black lifts a checker from the 12 point and holds it: its destinations glow.
        page.mouse.move(*checker_centre(page, 12))
        page.mouse.down()
        page.mouse.move(*slot_centre(page, 15, 2), steps=5)
        page.wait_for_function(
            "() => [...document.querySelectorAll('.led')].filter(l => l.dataset.rgb === '0,74,6')"
            ".length > 0"
        )
        page.wait_for_timeout(300)
        output.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(output))
    print(f"wrote {output}")


if __name__ == "__main__":
    args = sys.argv[1:]
    on_phone = "--phone" in args
    paths = [arg for arg in args if arg != "--phone"]
    main(Path(paths[0]) if paths else PHONE_OUTPUT if on_phone else OUTPUT, phone=on_phone)
