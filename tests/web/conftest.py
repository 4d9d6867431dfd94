"""Fixtures for the browser tests: one headless Chromium for the session, a page each."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from tests.web.browser import CHROMIUM, chromium

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        message = (
            f"the browser tests need Debian's chromium at {CHROMIUM} (apt-get install chromium)"
        )
        if os.environ.get("CI"):
            pytest.fail(message)  # CI installs it: its absence is a broken CI, not a skip
        pytest.skip(message)
    with chromium() as running:
        yield running


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"the page's JavaScript failed: {errors}"
