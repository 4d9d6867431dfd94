"""The shell's event loop: backends from the config, resume from the journal, clean stop."""

import threading
from contextlib import ExitStack
from pathlib import Path

from bgpi.app import App, Hardware, _button_options, _pixel_options, _sensor_options
from bgpi.config import Config, parse
from bgpi.hal.dice import SeededDice
from bgpi.hal.gpio import ChainSettings
from bgpi.hal.sim import SimBoard, SimButtons, SimPixels
from bgpi.records import GameStarted
from bgpi.store import JOURNAL_NAME, Journal
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

    def __call__(self, config: Config, stack: ExitStack) -> Hardware:
        stack.callback(self.pixels.close)
        return Hardware(self.board, SimButtons(), self.pixels, SeededDice(1))


def run_until_ready(app: App) -> threading.Thread:
    ready = threading.Event()
    app.on_ready = ready.set
    thread = threading.Thread(target=app.run)
    thread.start()
    assert ready.wait(30)
    return thread


def test_run_starts_a_match_resumes_it_and_goes_dark_on_stop(tmp_path: Path) -> None:
    config = Config()
    hardware = SimHardware(config)
    app = App(config, tmp_path, hardware=hardware)
    thread = run_until_ready(app)
    assert app.driver is not None and app.driver.table.phase is Phase.SETUP
    app.stop.set()
    thread.join(30)
    assert hardware.pixels.last == ((0, 0, 0),) * config.ledmap.length
    with Journal.open(tmp_path / JOURNAL_NAME) as journal:
        assert len(journal.matches()) == 1
        journal.append(GameStarted())  # as if the board had been set up before a power cut
    again = App(config, tmp_path, hardware=SimHardware(config))
    thread = run_until_ready(again)
    assert again.driver is not None and again.driver.table.phase is Phase.OPENING
    again.stop.set()
    thread.join(30)
