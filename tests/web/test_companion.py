"""The companion page of a real board: `bgpi run`'s loop publishes, the page only shows."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from websockets.exceptions import InvalidStatus

from bgpi.base.words import BLACK, WHITE
from bgpi.hal.dice import SeededDice
from bgpi.hal.sim import SimBoard, SimButtons, SimPixels
from bgpi.rules import Position
from bgpi.sensing.board import zone_of
from bgpi.service.app import App, Hardware
from bgpi.service.config import Config
from bgpi.web.companion import Companion
from tests.web.webclient import get, receive_until, send, socket

SEED = 23  # White 3, Black 1


class Board:
    """The real board's stand-in: simulated backends on the wall clock, driven by the test's
    hands from the test's thread, as players would."""

    def __init__(self) -> None:
        self.sensors = SimBoard(clock=time.monotonic)
        self.buttons = SimButtons(clock=time.monotonic)
        self.pixels = SimPixels(Config().ledmap.length)

    def hardware(self, config: Config, stack: ExitStack) -> Hardware:
        return Hardware(self.sensors, self.buttons, self.pixels, SeededDice(SEED))

    def set_up(self) -> None:
        start = Position.initial()
        layout = {}
        for colour, side in ((WHITE, start.player), (BLACK, start.opponent)):
            for index, count in enumerate(side):
                if count and index:
                    layout[zone_of(colour, index)] = (colour, count)
        self.sensors.setup(layout)

    def hold(self, player: int) -> None:
        self.buttons.press(player, "roll")
        time.sleep(Config().buttons.long_press_ms / 1000 + 0.3)
        self.buttons.release(player, "roll")

    def click(self, player: int) -> None:
        self.buttons.press(player, "roll")
        time.sleep(0.05)
        self.buttons.release(player, "roll")


@contextmanager
def serving(
    config: Config, tmp_path: Path, *, post: bool = False
) -> Iterator[tuple[Board, Companion]]:
    """``bgpi run`` on a simulated board with its companion page; with ``post``, the page
    may post the dice a phone enters to the app's loop, as ``bgpi run`` lets it."""
    board = Board()
    companion = Companion(config, port=0)
    app = App(config, tmp_path, hardware=board.hardware)
    app.observer = companion
    if post:
        companion.post = app.events.put
    companion.start()
    runner = threading.Thread(target=app.run, name="bgpi-app")
    runner.start()
    try:
        yield board, companion
    finally:
        app.stop.set()
        runner.join(10)
        companion.close()
    assert not runner.is_alive()


@pytest.fixture
def running(tmp_path: Path) -> Iterator[tuple[Board, Companion]]:
    with serving(Config(), tmp_path) as served:
        yield served


def test_the_companion_shows_the_real_board_live_and_refuses_every_command(
    running: tuple[Board, Companion],
) -> None:
    board, companion = running
    assert companion.address is not None and companion.token is None
    port = companion.address.port
    with socket(port) as ws:
        layout = receive_until(ws, lambda m: m["type"] == "layout")
        assert layout["mode"] == "companion"
        choosing = receive_until(
            ws, lambda m: m["type"] == "state" and m["phase"] == "choosing the match"
        )["choosing"]
        assert choosing["match"] == "a 5-point match"  # the config's, shown read-only
        assert [(o["label"], o["value"], o["shown"]) for o in choosing["options"]] == [
            ("length", "a 5-point match", True),
            ("Crawford rule", "on", False),
            ("cube limit", "64", False),
            ("dice", "the board's", False),
            ("clock", "off", False),
        ]
        send(ws, type="start")
        assert (
            "only shows the board" in receive_until(ws, lambda m: m["type"] == "error")["message"]
        )
        board.hold(WHITE)  # the fresh board's match, as the config has it
        receive_until(ws, lambda m: m["type"] == "state" and m["phase"] == "setup")
        board.set_up()
        receive_until(ws, lambda m: m["type"] == "state" and m["phase"] == "opening")
        board.click(WHITE)
        board.click(BLACK)
        moving = receive_until(ws, lambda m: m["type"] == "state" and m["phase"] == "moving")
        assert moving["dice"] == [3, 1]
        assert moving["log"][-1]["text"] == "White 31:"
        frame = receive_until(ws, lambda m: m["type"] == "frame" and m["pixels"].strip("0"))
        assert len(frame["pixels"]) == 6 * layout["length"]
        board.sensors.lift(13, WHITE)
        lifted = receive_until(ws, lambda m: m["type"] == "state" and m["destinations"])
        assert lifted["destinations"] == [9, 10]
        thirteen = next(zone for zone in lifted["board"] if zone["zone"] == 13)
        assert thirteen["slots"] == [WHITE] * 4 + [None, None]
        # The page may look, not touch: a lift from it is refused and nothing moves.
        send(ws, type="lift", zone=6, colour=WHITE)
        error = receive_until(ws, lambda m: m["type"] == "error")
        assert "only shows the board" in error["message"]
        assert board.sensors.checkers(6) == (WHITE,) * 5
    status, _, body = get(port, "/match.mat")
    assert status == 200 and b" 5 point match" in body


def test_a_companion_bound_to_the_network_needs_its_token(tmp_path: Path) -> None:
    companion = Companion(Config(), host="0.0.0.0", port=0)
    address = companion.start()
    try:
        assert address.token is not None and address.url.endswith(f"/?token={address.token}")
        assert get(address.port, "/")[0] == 403
        assert get(address.port, f"/?token={address.token}")[0] == 200
        with pytest.raises(InvalidStatus), socket(address.port):
            pass
        with socket(address.port, f"?token={address.token}") as ws:
            assert receive_until(ws, lambda m: True)["type"] == "layout"
    finally:
        companion.close()
        companion.close()


def test_the_companion_page_shows_the_options_being_chosen_read_only(
    running: tuple[Board, Companion], page: Page
) -> None:
    board, companion = running
    assert companion.address is not None
    page.goto(companion.address.url)
    expect(page.locator("body")).to_have_attribute("data-phase", "choosing the match")
    expect(page.locator("#choose-box")).to_be_visible()
    expect(page.locator("#choose-options tr.shown td.value")).to_have_text("a 5-point match")
    # length, Crawford, limit, dice, clock
    expect(page.locator("#choose-options tr")).to_have_count(5)
    expect(page.locator("#choose-options button")).to_have_count(0)  # read-only
    expect(page.locator("#choose-start")).to_be_hidden()
    board.hold(WHITE)  # chosen at the board: the match starts, the options go
    expect(page.locator("body")).to_have_attribute("data-phase", "setup")
    expect(page.locator("#choose-box")).to_be_hidden()
