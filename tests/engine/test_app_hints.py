"""``bgpi run`` with hints on: a person's held ROLL asks gnubg on the engine's thread, and the
hint comes back into the loop, lit and said on the companion page's status line; without
gnubg the hint says how to install it."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from bgpi import engine as engine_package
from bgpi.base.words import BLACK, ROLL, WHITE
from bgpi.journal.records import GameStarted, MatchStarted, OpeningRolled
from bgpi.journal.store import JOURNAL_NAME, Journal
from bgpi.present.leds import scene_of
from bgpi.present.status import status
from bgpi.rules import Position
from bgpi.sensing.board import zone_of
from bgpi.service.app import App
from bgpi.service.config import parse
from bgpi.table import Table
from tests.engine.conftest import needs_gnubg
from tests.engine.test_app_seat import SimHardware, run

LONG_PRESS_MS = 100  # the config's shortest long press: the test holds ROLL longer


def table_when(app: App, ready: Callable[[Table], bool], seconds: float = 60.0) -> Table:
    """The app's table once ``ready`` says so (a bounded wait, not a timing assertion)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        assert app.driver is not None
        if ready(app.driver.table):
            return app.driver.table
        time.sleep(0.05)
    raise AssertionError(f"not so in {seconds} s")


def ask_for_a_hint(tmp_path: Path) -> Table:
    """White, a person with hints, has opened with 3-1 on the board set up; White holds
    ROLL: the table the hint reaches."""
    config = parse({"seats": {"white_hints": True}, "buttons": {"long_press_ms": LONG_PRESS_MS}})
    with Journal.open(tmp_path / JOURNAL_NAME) as journal:
        journal.new_match(MatchStarted(5))
        journal.append(GameStarted())
        journal.append(OpeningRolled(3, 1))
    hardware = SimHardware(config)
    start = Position.initial()
    layout = {
        zone_of(colour, index): (colour, count)
        for colour, side in ((WHITE, start.player), (BLACK, start.opponent))
        for index, count in enumerate(side)
        if count
    }
    hardware.board.setup(layout)
    app = App(config, tmp_path, hardware=hardware)
    thread = run(app)
    try:
        table_when(app, lambda table: table.observation is not None)  # the board read
        hardware.buttons.press(WHITE, ROLL)
        time.sleep(3 * LONG_PRESS_MS / 1000)  # held: the table tells it from the events' times
        hardware.buttons.release(WHITE, ROLL)
        return table_when(app, lambda table: table.hint is not None)
    finally:
        app.stop.set()
        thread.join(30)


@needs_gnubg
def test_bgpi_run_lights_and_says_gnubgs_play(tmp_path: Path) -> None:
    table = ask_for_a_hint(tmp_path)
    scene = scene_of(table)
    assert "Hint for White: gnubg expert would play 8/5 6/5." in status(table, scene)
    assert scene.lifted in ({zone_of(WHITE, 8)}, {zone_of(WHITE, 6)})


def test_bgpi_run_without_gnubg_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(engine_package.process, "GNUBG", "/nonexistent/gnubg")
    monkeypatch.setenv("PATH", "/nonexistent")
    table = ask_for_a_hint(tmp_path)
    line = status(table, scene_of(table))
    assert "Hint for White: no hint: GNU Backgammon is not installed" in line
    assert "apt-get install gnubg" in line
