"""The page's sound in Chromium: a cue is synthesised with WebAudio from the buzzer's own
notes, only after the user has touched the page, never while muted, and off by default."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from playwright.sync_api import Page, expect

from bgpi.base.words import BLACK, WHITE
from bgpi.present.cues import Cue, pairs
from bgpi.service.config import Config, SoundConfig
from bgpi.web.run import SimServer
from tests.web.browser import drag
from tests.web.started import started_session
from tests.web.test_browser import open_page

SEED = 23  # White opens 3-1


def serve(enabled: bool) -> SimServer:
    config = replace(Config(), sound=SoundConfig(enabled=enabled))
    return SimServer(started_session(config, seed=SEED))


@pytest.fixture
def loud() -> Iterator[SimServer]:
    with serve(True) as running:
        yield running


@pytest.fixture
def quiet() -> Iterator[SimServer]:
    with serve(False) as running:
        yield running


def played(page: Page) -> list[dict[str, object]]:
    result: list[dict[str, object]] = page.evaluate("window.bgpiSound.played")
    return result


def passed(page: Page) -> list[dict[str, str]]:
    result: list[dict[str, str]] = page.evaluate("window.bgpiSound.passed")
    return result


def wait_cues(page: Page, count: int) -> None:
    """Until the page has taken ``count`` cues, played or let pass."""
    page.wait_for_function(
        f"() => window.bgpiSound.played.length + window.bgpiSound.passed.length >= {count}",
        timeout=5000,
    )


def notes(cue: Cue) -> list[list[float]]:
    return [[hz, seconds] for hz, seconds in pairs(cue)]


def test_the_dice_are_heard_once_the_user_has_pressed_a_key(page: Page, loud: SimServer) -> None:
    open_page(page, loud)
    toggle = page.locator("#sound-toggle")
    expect(toggle).to_have_text("Sound on")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("r")  # White's ROLL: a key press, which lets the page's audio start
    wait_cues(page, 1)
    page.keyboard.press("Shift+R")
    expect(page.locator("body")).to_have_attribute("data-phase", "moving")
    wait_cues(page, 2)
    assert [entry["cue"] for entry in played(page)] == ["dice", "dice"]
    assert all(entry["notes"] == notes(Cue.DICE) for entry in played(page))
    assert page.evaluate("window.bgpiSound.context.state") == "running"
    first, second = (float(entry["at"]) for entry in played(page))  # type: ignore[arg-type]
    assert second >= first + sum(s for _, s in pairs(Cue.DICE)) - 1e-6  # one after the other


def test_a_cue_before_any_interaction_is_let_pass(page: Page, loud: SimServer) -> None:
    open_page(page, loud)
    loud.call(lambda session: session.sim.roll(WHITE))  # a press at the board, not the page
    wait_cues(page, 1)
    assert played(page) == []
    assert passed(page) == [{"cue": "dice", "why": "no interaction yet"}]


def test_muted_the_page_plays_nothing_and_remembers_it(page: Page, loud: SimServer) -> None:
    open_page(page, loud)
    page.locator("#sound-toggle").click()
    expect(page.locator("#sound-toggle")).to_have_text("Sound off")
    page.keyboard.press("r")
    page.keyboard.press("Shift+R")
    wait_cues(page, 2)
    assert played(page) == []
    assert [entry["why"] for entry in passed(page)] == ["muted", "muted"]
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-phase", "moving")
    expect(page.locator("#sound-toggle")).to_have_text("Sound off")


def test_sound_is_off_by_default_and_the_switch_turns_it_on(page: Page, quiet: SimServer) -> None:
    open_page(page, quiet)
    expect(page.locator("#sound-toggle")).to_have_text("Sound off")
    page.keyboard.press("r")
    wait_cues(page, 1)
    assert played(page) == [] and passed(page) == [{"cue": "dice", "why": "muted"}]
    page.locator("#sound-toggle").click()  # a click: the page may start its audio now
    expect(page.locator("#sound-toggle")).to_have_text("Sound on")
    page.keyboard.press("Shift+R")
    expect(page.locator("body")).to_have_attribute("data-phase", "moving")
    drag(page, 8, 5, slot=2)
    drag(page, 6, 5)
    expect(page.locator("#status")).to_contain_text("White has played 3-1")  # all settled
    page.locator('.button[data-player="0"][data-button="roll"] rect').click()
    wait_cues(page, 3)
    assert [entry["cue"] for entry in played(page)] == ["dice", "turn"]
    assert played(page)[-1]["notes"] == notes(Cue.TURN)
    assert quiet.call(lambda session: session.sim.match.turn) == BLACK
