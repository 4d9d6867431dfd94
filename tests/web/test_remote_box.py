"""The remote match on the page of ``bgpi sim --remote`` (the companion page of ``bgpi run``
draws the same box from the same message): the match code as text and QR code, this board's
side, and the link's state, live; beside the board on a desktop, first under it on a phone
held upright, covering neither the board nor the panels. Chromium, against a real mosquitto
that the test stops and starts again."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, FloatRect, Page, ViewportSize, expect

from bgpi.remote.board import LinkState
from bgpi.web.qr import qr_svg
from tests.remote.boards import CODE
from tests.remote.conftest import MOSQUITTO, Mosquitto

PHONE: ViewportSize = {"width": 390, "height": 844}


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    if not Path(MOSQUITTO).exists():
        pytest.skip("needs mosquitto: apt-get install mosquitto")
    running = Mosquitto(tmp_path / "broker")
    running.start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def server(broker: Mosquitto, tmp_path: Path) -> Iterator[str]:
    """``bgpi sim --remote`` as a person starts it: White's board of a remote match whose
    other board has not come yet; its page's address."""
    command = [
        sys.executable, "-m", "bgpi", "sim", "--remote", broker.url, "--match", CODE,
        "--side", "white", "--port", "0", "--length", "1", "--state-dir", str(tmp_path / "white"),
    ]  # fmt: skip
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert process.stdout is not None
        for line in process.stdout:
            if line.startswith("bgpi sim: http"):
                yield line.split()[-1]
                break
        else:
            raise AssertionError(f"bgpi sim --remote did not start: status {process.wait()}")
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)


def box(page: Page, selector: str) -> FloatRect:
    found = page.locator(selector).bounding_box()
    assert found is not None, selector
    return found


def apart(a: FloatRect, b: FloatRect) -> bool:
    """Whether two boxes do not overlap."""
    return (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def shows_the_match(page: Page) -> None:
    remote = page.locator("#remote-box")
    expect(remote).to_be_visible()
    expect(page.locator("#remote-code")).to_have_text(CODE)
    expect(page.locator("#remote-side")).to_have_text("white")
    state = page.locator("#remote-state")
    expect(state).to_have_attribute("data-link", LinkState.CONNECTED.value)  # White to roll
    expect(state).to_have_text("connected")
    qr = page.locator("#remote-qr")
    source = qr.get_attribute("src")
    assert source is not None
    svg = urllib.parse.unquote(source.removeprefix("data:image/svg+xml;charset=utf-8,"))
    assert svg == qr_svg(CODE)  # the code itself, for the other player's phone
    assert qr.evaluate("img => img.complete && img.naturalWidth > 0")  # drawn


def test_the_page_shows_the_code_its_qr_and_the_link_live(
    page: Page, server: str, broker: Mosquitto, tmp_path: Path
) -> None:
    page.goto(server)
    shows_the_match(page)
    board = box(page, "#board")
    remote = box(page, "#remote-box")
    assert apart(board, remote)  # beside the board, not over it
    assert remote["x"] + remote["width"] <= page.viewport_size["width"]  # type: ignore[index]
    for panel in range(2):
        assert apart(box(page, f'.panel-group[data-player="{panel}"]'), remote)
    page.keyboard.press("r")  # White's opening die, drawn with a board that has not come
    state = page.locator("#remote-state")
    expect(state).to_have_attribute("data-link", LinkState.WAITING.value)
    expect(state).to_have_text("waiting for the other board")
    expect(page.locator("#status")).to_contain_text("waiting for its half")
    expect(page.locator("body")).to_have_attribute("data-phase", "rolling")
    broker.stop()
    expect(state).to_have_attribute("data-link", LinkState.OFFLINE.value, timeout=30_000)
    expect(state).to_contain_text("the broker cannot be reached")
    # The remote fault, and what still holds: play here goes on (its half of the dice waits).
    status = page.locator("#status")
    expect(status).to_contain_text("The other board is not answering (")
    expect(status).to_contain_text("cannot be reached): what is played here is sent once it")
    expect(status).to_contain_text("waiting for its half")
    page.screenshot(path=str(tmp_path / "broker-gone.png"))
    broker.start()
    expect(state).to_have_attribute("data-link", LinkState.WAITING.value, timeout=30_000)
    expect(page.locator("#status")).not_to_contain_text("is not answering")


def test_on_a_phone_held_upright_the_match_comes_first_under_the_board(
    browser: Browser, server: str, tmp_path: Path
) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(server)
        expect(page.locator("body")).to_have_attribute("data-orientation", "portrait")
        shows_the_match(page)
        board, remote, match = box(page, "#board"), box(page, "#remote-box"), box(page, "#match")
        assert board["y"] + board["height"] <= remote["y"]  # under the board, not over it
        assert remote["y"] < match["y"]  # and before the score
        assert remote["x"] >= 0 and remote["x"] + remote["width"] <= PHONE["width"]
        qr = box(page, "#remote-qr")
        assert qr["width"] >= 96 and qr["x"] + qr["width"] <= PHONE["width"]  # scannable
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.locator("#remote-box").scroll_into_view_if_needed()
        page.screenshot(path=str(tmp_path / "phone.png"))
        assert not errors, errors
    finally:
        context.close()
