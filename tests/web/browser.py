"""Headless Chromium for the browser tests and the screenshot script: Debian's chromium,
driven by Playwright for Python, with no browser download."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

CHROMIUM = Path(os.environ.get("BGPI_CHROMIUM", "/usr/bin/chromium"))
# The machine has no internet: without these, Chromium keeps trying to reach Google's hosts.
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@contextmanager
def chromium() -> Iterator[Browser]:
    from playwright.sync_api import sync_playwright  # noqa: PLC0415 (only where a browser runs)

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


def centre(page: Page, selector: str) -> tuple[float, float]:
    """Where on the screen the last element matching ``selector`` is."""
    for _ in range(50):  # the board may be redrawn between finding an element and measuring it
        box = page.locator(selector).last.bounding_box()
        if box is not None:
            return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.wait_for_timeout(50)
    raise AssertionError(f"nothing on the page matches {selector}")


def slot_centre(page: Page, zone: int, slot: int) -> tuple[float, float]:
    """Where on the screen slot ``slot`` of ``zone`` is."""
    return centre(page, f'.slot[data-zone="{zone}"][data-slot="{slot}"]')


def checker_centre(page: Page, zone: int) -> tuple[float, float]:
    """Where the outermost checker on ``zone``'s switches is."""
    return centre(page, f'.checker[data-zone="{zone}"][data-slot]')


def drag(page: Page, src: int, dst: int, slot: int = 0) -> None:
    """Lift the outermost checker of ``src`` and put it down on ``dst``, as a hand would;
    return once the page shows it there."""
    from playwright.sync_api import expect  # noqa: PLC0415

    landed = page.locator(f'.checker[data-zone="{dst}"]')
    before = landed.count()
    page.mouse.move(*checker_centre(page, src))
    page.mouse.down()
    page.mouse.move(*slot_centre(page, dst, slot), steps=4)
    page.mouse.up()
    expect(landed).to_have_count(before + 1)
