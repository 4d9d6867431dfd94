"""A phone at a real board enters dice thrown by hand on the companion page, which refuses
every other command; the board's buttons enter them as well."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from bgpi.base.words import BLACK, WHITE
from bgpi.journal.records import DiceSource
from bgpi.service.config import Config, DiceConfig
from bgpi.web.companion import Companion
from tests.web.test_companion import Board, serving
from tests.web.webclient import receive_until, send, socket

CONFIG = Config(dice=DiceConfig(DiceSource.ENTERED))


@pytest.fixture
def running(tmp_path: Path) -> Iterator[tuple[Board, Companion]]:
    with serving(CONFIG, tmp_path, post=True) as served:
        yield served


def entering(message: dict[str, object]) -> bool:
    return message["type"] == "state" and message["phase"] == "entering the dice"


def test_the_phone_enters_the_opening_dice_and_may_do_nothing_else(
    running: tuple[Board, Companion],
) -> None:
    board, companion = running
    assert companion.address is not None
    with socket(companion.address.port) as ws:
        receive_until(ws, lambda m: m["type"] == "state" and m["phase"] == "choosing the match")
        board.hold(WHITE)  # the config's match: entered dice
        receive_until(ws, lambda m: m["type"] == "state" and m["phase"] == "setup")
        board.set_up()
        receive_until(ws, lambda m: m["type"] == "state" and m["phase"] == "opening")
        send(ws, type="enter", dice=[4])
        assert (
            "no dice are entered in phase opening"
            in (receive_until(ws, lambda m: m["type"] == "error")["message"])
        )
        board.click(WHITE)
        state = receive_until(ws, entering)
        assert state["dice_source"]["entering"]["player"] == WHITE
        send(ws, type="enter", dice=[4, 4])
        assert (
            "are not 1 dice of 1 to 6"
            in (receive_until(ws, lambda m: m["type"] == "error")["message"])
        )
        send(ws, type="enter", dice=[5])
        receive_until(ws, lambda m: m["type"] == "state" and m["opening"] == [5, None])
        board.click(BLACK)
        receive_until(ws, lambda m: entering(m) and m["dice_source"]["entering"]["player"] == 1)
        send(ws, type="enter", dice=[2])
        moving = receive_until(ws, lambda m: m["type"] == "state" and m["phase"] == "moving")
        assert moving["dice"] == [5, 2] and moving["turn"] == WHITE
        send(ws, type="lift", zone=6, colour=WHITE)
        assert (
            "only shows the board" in (receive_until(ws, lambda m: m["type"] == "error")["message"])
        )


def test_the_phone_page_shows_two_rows_of_faces_for_the_roll_and_enters_it(
    running: tuple[Board, Companion], page: Page
) -> None:
    board, companion = running
    assert companion.address is not None
    page.set_viewport_size({"width": 390, "height": 844})  # a phone
    page.goto(companion.address.url)
    expect(page.locator("body")).to_have_attribute("data-phase", "choosing the match")
    board.hold(WHITE)
    board.set_up()
    expect(page.locator("body")).to_have_attribute("data-phase", "opening")
    for player, die in ((WHITE, 6), (BLACK, 1)):
        board.click(player)
        expect(page.locator("#dice-faces div.faces")).to_have_count(1)
        page.locator(f'#dice-faces button[data-die="{die}"]').click()
        expect(page.locator("#dice-faces div.faces")).to_have_count(0)
    expect(page.locator("body")).to_have_attribute("data-phase", "moving")
    expect(page.locator("#dice-source")).to_have_text("your own, entered")


# GoDice paired, but no die ever speaks: the table waits for each throw, as it would for a
# pair left in the box; the phone enters the roll instead, as the thrower's held CUBE would.
GODICE = Config(dice=DiceConfig(DiceSource.GODICE, "AA:BB:CC:DD:EE:01", "AA:BB:CC:DD:EE:02"))


def throwing(message: dict[str, object]) -> bool:
    return message["type"] == "state" and message["phase"] == "rolling"


def test_the_phone_enters_a_roll_the_godice_owe_and_a_read_only_page_may_not(
    tmp_path: Path,
) -> None:
    with serving(GODICE, tmp_path, post=True) as (board, companion):
        assert companion.address is not None
        with socket(companion.address.port) as ws:
            receive_until(ws, lambda m: m["type"] == "state" and m["phase"] == "choosing the match")
            board.hold(WHITE)  # the config's match: GoDice
            receive_until(ws, lambda m: m["type"] == "state" and m["phase"] == "setup")
            board.set_up()
            for player, die in ((WHITE, 5), (BLACK, 2)):
                receive_until(ws, lambda m: m["type"] == "state" and m["phase"] == "opening")
                board.click(player)
                state = receive_until(ws, throwing)
                throw = state["dice_source"]["throwing"]
                assert (throw["player"], throw["count"], throw["enterer"]) == (player, 1, player)
                send(ws, type="enter", dice=[die, die])
                assert (
                    "are not 1 dice of 1 to 6"
                    in (receive_until(ws, lambda m: m["type"] == "error")["message"])
                )
                send(ws, type="enter", dice=[die])
            moving = receive_until(ws, lambda m: m["type"] == "state" and m["phase"] == "moving")
            assert moving["dice"] == [5, 2] and moving["turn"] == WHITE
            assert moving["dice_source"]["throwing"] is None
    with serving(GODICE, tmp_path / "read-only") as (board, companion):
        assert companion.address is not None
        with socket(companion.address.port) as ws:
            receive_until(ws, lambda m: m["type"] == "state" and m["phase"] == "choosing the match")
            board.hold(WHITE)
            receive_until(ws, lambda m: m["type"] == "state" and m["phase"] == "setup")
            board.set_up()
            receive_until(ws, lambda m: m["type"] == "state" and m["phase"] == "opening")
            board.click(WHITE)
            receive_until(ws, throwing)
            send(ws, type="enter", dice=[5])
            assert (
                "only shows the board"
                in (receive_until(ws, lambda m: m["type"] == "error")["message"])
            )
