"""The shell's event loop: backends from the config, resume from the journal, clean stop."""

import threading
import time
from contextlib import ExitStack
from pathlib import Path

from bgpi.base.words import BLACK, ROLL, ButtonName
from bgpi.hal.dice import SeededDice
from bgpi.hal.gpio import ChainSettings
from bgpi.hal.sim import ManualClock, SimBoard, SimButtons, SimPixels
from bgpi.journal.records import GameStarted, MatchStarted
from bgpi.journal.store import JOURNAL_NAME, Journal
from bgpi.service.app import App, Hardware, _button_options, _pixel_options, _sensor_options
from bgpi.service.config import Config, parse
from bgpi.table import Phase


def test_backend_options_come_from_the_config() -> None:
    config = parse(
        {
            "sensors": {"backend": "gpio", "scan_hz": 500.0},
            "buttons": {"backend": "gpio", "bounce_ms": 30},
            "leds": {"backend": "neopixel", "wiring": "pwm"},
            "pins": {"led_data": 18},
        }
    )
    sensors = _sensor_options(config)
    assert sensors["settings"] == ChainSettings(scan_hz=500.0)
    assert sensors["pins"] == config.pins
    assert _button_options(config) == {"pins": config.pins, "bounce_time": 0.03}
    assert _pixel_options(config) == {"wiring": "pwm", "pixel_order": "GRB", "data_pin": 18}
    serial = parse({"sensors": {"backend": "serial", "port": "/dev/ttyACM0"}})
    assert _sensor_options(serial) == {"port": "/dev/ttyACM0"}


class SimHardware:
    """The simulated board for App, kept to look at after the run."""

    def __init__(self, config: Config) -> None:
        self.board = SimBoard(config.geometry)
        self.pixels = SimPixels(config.ledmap.length)
        self.clock = ManualClock()
        self.buttons = SimButtons(clock=self.clock)

    def __call__(self, config: Config, stack: ExitStack) -> Hardware:
        stack.callback(self.pixels.close)
        return Hardware(self.board, self.buttons, self.pixels, SeededDice(1))

    def hold(self, player: int, button: ButtonName, seconds: float = 1.0) -> None:
        self.buttons.press(player, button)
        self.clock.advance(seconds)
        self.buttons.release(player, button)


def wait_for(app: App, phase: Phase, seconds: float = 30.0) -> None:
    """Until the app's table is in ``phase`` (a bounded wait: the loop runs on its thread)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if app.driver is not None and app.driver.table.phase is phase:
            return
        time.sleep(0.02)
    raise AssertionError(f"the table never reached {phase.value}")


def run_until_ready(app: App) -> threading.Thread:
    ready = threading.Event()
    app.on_ready = ready.set
    thread = threading.Thread(target=app.run)
    thread.start()
    assert ready.wait(30)
    return thread


def test_run_starts_a_match_resumes_it_and_goes_dark_on_stop(tmp_path: Path) -> None:
    config = parse({"rules": {"length": 7, "crawford": False}})
    hardware = SimHardware(config)
    app = App(config, tmp_path, hardware=hardware)
    thread = run_until_ready(app)
    # A fresh board: the players choose the first match, the config's shown; nothing is
    # journaled until one of them holds ROLL to start it.
    assert app.driver is not None and app.driver.table.phase is Phase.CHOOSING
    assert app.driver.scene.score == (7, 1)  # the length on the score pixels, option 1
    assert app.driver.log == []
    hardware.hold(BLACK, ROLL)
    wait_for(app, Phase.SETUP)
    app.stop.set()
    thread.join(30)
    assert hardware.pixels.last == ((0, 0, 0),) * config.ledmap.length
    with Journal.open(tmp_path / JOURNAL_NAME) as journal:
        assert journal.records() == [MatchStarted(7, crawford=False)]
        journal.append(GameStarted())  # as if the board had been set up before a power cut
    again = App(config, tmp_path, hardware=SimHardware(config))
    thread = run_until_ready(again)
    assert again.driver is not None and again.driver.table.phase is Phase.OPENING
    again.stop.set()
    thread.join(30)


def test_run_reads_the_godice_pair_on_its_own_thread_through_the_loops_queue(
    tmp_path: Path,
) -> None:
    """``bgpi run`` with a pair paired: the link (over fake BLE clients, the library's own
    decoding) puts each die's word on the loop's queue; a die lost turns the throw to entered
    dice, and back once the link brought it back."""
    from bgpi.hal.godice import FakeBleClient  # noqa: PLC0415 (the godice library)
    from bgpi.hal.godicelink import Backoff, GoDiceLink  # noqa: PLC0415
    from bgpi.journal.records import DiceSource, OpeningDie  # noqa: PLC0415
    from bgpi.sensing.godice import Rest  # noqa: PLC0415

    addresses = ("C0:11:22:33:44:01", "C0:11:22:33:44:02")
    config = parse({"dice": {"source": "godice", "first": addresses[0], "second": addresses[1]}})
    fakes = tuple(FakeBleClient(address, colour=1) for address in addresses)

    def client(index: int, lost: object) -> FakeBleClient:
        fakes[index].disconnected = lost  # type: ignore[assignment]
        return fakes[index]

    link = GoDiceLink(client, time.monotonic, backoff=Backoff(first=0.01, attempts=3))

    class WithDice(SimHardware):
        def __call__(self, config: Config, stack: ExitStack) -> Hardware:
            stack.callback(link.close)
            return Hardware(self.board, self.buttons, self.pixels, SeededDice(1), godice=link)

    with Journal.open(tmp_path / JOURNAL_NAME) as journal:
        journal.new_match(MatchStarted(5, dice=DiceSource.GODICE))
        journal.append(GameStarted())
    hardware = WithDice(config)
    app = App(config, tmp_path, hardware=hardware)
    thread = run_until_ready(app)
    try:
        assert app.driver is not None and app.driver.table.config.godice
        link.ready()  # started by the app, without holding up its loop
        hardware.hold(BLACK, ROLL, 0.1)
        wait_for(app, Phase.ROLLING)
        link.run(fakes[1].rolling())
        fakes[1].drop(refusals=2)  # from this thread: the link hears of it on its own
        wait_for(app, Phase.ENTERING)  # entered meanwhile: the die is gone
        link.quiet()
        wait_for(app, Phase.ROLLING)  # back: read from the dice again
        link.run(fakes[1].rolling())
        link.run(fakes[1].rest(4, Rest.STABLE))
        wait_for(app, Phase.OPENING)
        assert app.driver.log[-1] == OpeningDie(BLACK, 4, DiceSource.GODICE)
    finally:
        app.stop.set()
        thread.join(30)
