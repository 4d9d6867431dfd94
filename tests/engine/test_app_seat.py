"""``bgpi run`` with an engine in a seat: the shell asks it off the loop's thread and its
answers come back into the loop as the table's events; without gnubg the seat is a person."""

from __future__ import annotations

import threading
import time
from contextlib import ExitStack
from pathlib import Path

import pytest

from bgpi import engine as engine_package
from bgpi.hal.dice import SeededDice
from bgpi.hal.sim import SimBoard, SimButtons, SimPixels
from bgpi.journal.records import GameStarted, MatchStarted, OpeningDie, Seat
from bgpi.journal.store import JOURNAL_NAME, Journal
from bgpi.service.app import App, Hardware
from bgpi.service.config import Config, parse
from tests.engine.conftest import needs_gnubg


class SimHardware:
    def __init__(self, config: Config) -> None:
        self.board = SimBoard(config.geometry)
        self.buttons = SimButtons(clock=time.monotonic)
        self.pixels = SimPixels(config.ledmap.length)

    def __call__(self, config: Config, stack: ExitStack) -> Hardware:
        return Hardware(self.board, self.buttons, self.pixels, SeededDice(1))


def run(app: App) -> threading.Thread:
    ready = threading.Event()
    app.on_ready = ready.set
    thread = threading.Thread(target=app.run)
    thread.start()
    assert ready.wait(30)
    return thread


def records_until(app: App, found: type, seconds: float = 60.0) -> list[object]:
    """The driver's records once one of type ``found`` is among them (bounded wait)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        assert app.driver is not None
        log = list(app.driver.log)
        if any(isinstance(r, found) for r in log):
            return log
        time.sleep(0.05)
    raise AssertionError(f"no {found.__name__} in {seconds} s")


@pytest.mark.parametrize("seat", ["demo", pytest.param("gnubg:expert", marks=needs_gnubg)])
def test_the_engine_seat_rolls_for_the_opening_by_itself(tmp_path: Path, seat: str) -> None:
    config = parse({"seats": {"black": seat}})
    with Journal.open(tmp_path / JOURNAL_NAME) as journal:  # the board was set up
        journal.new_match(config.match_record())
        journal.append(GameStarted())
    app = App(config, tmp_path, hardware=SimHardware(config))
    thread = run(app)
    try:
        log = records_until(app, OpeningDie)
    finally:
        app.stop.set()
        thread.join(30)
    assert next(r for r in log if isinstance(r, OpeningDie)).player == 1  # no button pressed
    with Journal.open(tmp_path / JOURNAL_NAME) as journal:
        assert journal.records()[0] == MatchStarted(5, seats=(Seat.PERSON, Seat.ENGINE))


def test_without_gnubg_a_new_match_seats_a_person(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(engine_package.process, "GNUBG", "/nonexistent/gnubg")
    monkeypatch.setenv("PATH", "/nonexistent")
    config = parse({"seats": {"white": "gnubg:worldclass"}})
    hardware = SimHardware(config)
    app = App(config, tmp_path, hardware=hardware)
    thread = run(app)
    try:
        hardware.buttons.press(0, "roll")  # the fresh board's match, started as shown
        time.sleep(config.buttons.long_press_ms / 1000 + 0.3)
        hardware.buttons.release(0, "roll")
        records_until(app, MatchStarted)
    finally:
        app.stop.set()
        thread.join(30)
    with Journal.open(tmp_path / JOURNAL_NAME) as journal:
        assert journal.records()[0] == MatchStarted(5, seats=(Seat.PERSON, Seat.PERSON))
    assert "sudo apt-get install gnubg`; a person plays this seat" in caplog.text
