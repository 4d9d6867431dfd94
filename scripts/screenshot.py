"""Regenerate docs/screenshot.png: the page of `bgpi sim` after an opening play.

White and Black roll for the opening (seeded dice: White 3, Black 1), White plays 8/5 6/5
with the mouse and ends the turn with ROLL; Black rolls and lifts a checker from the 12
point, held, so its legal destinations glow. Debian's chromium, headless, through Playwright
for Python (no browser download)::

    .venv/bin/python scripts/screenshot.py [OUTPUT.png]
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import Page, expect, sync_playwright

from bgpi.config import Config
from bgpi.web.run import SimServer, new_session

SEED = 23
OUTPUT = Path(__file__).resolve().parent.parent / "docs" / "screenshot.png"
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def centre(page: Page, selector: str) -> tuple[float, float]:
    for _ in range(50):  # the board may be redrawn between finding an element and measuring it
        box = page.locator(selector).last.bounding_box()
        if box is not None:
            return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.wait_for_timeout(50)
    raise RuntimeError(f"nothing on the page matches {selector}")


def move(page: Page, src: int, dst: int, *, release: bool = True) -> None:
    landed = page.locator(f'.checker[data-zone="{dst}"]')
    before = landed.count()
    page.mouse.move(*centre(page, f'.checker[data-zone="{src}"][data-slot]'))
    page.mouse.down()
    page.mouse.move(*centre(page, f'.slot[data-zone="{dst}"][data-slot="{before}"]'), steps=5)
    if release:
        page.mouse.up()
        expect(landed).to_have_count(before + 1)


def main(output: Path) -> None:
    with SimServer(new_session(Config(), seed=SEED)) as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1320, "height": 980})
        page.goto(server.url)
        body = page.locator("body")
        expect(body).to_have_attribute("data-phase", "opening")
        page.keyboard.press("r")
        page.keyboard.press("Shift+R")
        expect(body).to_have_attribute("data-phase", "moving")
        move(page, 8, 5)
        move(page, 6, 5)
        page.keyboard.press("r")
        expect(page.locator("#log li").last).to_have_text("White 31: 8/5 6/5")
        page.keyboard.press("Shift+R")
        expect(body).to_have_attribute("data-phase", "moving")
        page.mouse.move(*centre(page, '.checker[data-zone="12"][data-slot]'))
        page.mouse.down()
        page.mouse.move(*centre(page, '.slot[data-zone="15"][data-slot="2"]'), steps=5)
        page.wait_for_function(
            "() => [...document.querySelectorAll('.led')].filter(l => l.dataset.rgb === '0,74,6')"
            ".length > 0"
        )
        page.wait_for_timeout(300)
        output.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(output))
        browser.close()
    print(f"wrote {output}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUTPUT)
