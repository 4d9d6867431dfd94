"""The shell: the event loop of ``bgpi run``.

One thread owns the table. Backends push their events into one queue from their own threads;
the loop takes them one at a time, and when the queue is quiet it ticks the table at the
time the settle filter or a blinking light next needs it. Backend callbacks never touch the
table.

On start the journal is replayed to the exact table state; the board is then read and, if it
was bumped while the power was off, the LEDs show what to fix. SIGTERM and SIGINT stop the
loop cleanly: LEDs off, journal closed.
"""

from __future__ import annotations

import logging
import queue
import signal
import threading
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

from bgpi.config import Config
from bgpi.driver import Driver
from bgpi.hal import open_buttons, open_pixels, open_sensors
from bgpi.hal.api import ButtonEvent, Buttons, Dice, Pixels, SensorEvent, Sensors
from bgpi.hal.dice import SystemDice
from bgpi.sensing.board import capacities
from bgpi.store import Journal
from bgpi.table import Table, TableConfig

log = logging.getLogger("bgpi")

JOURNAL_NAME = "journal.sqlite"
MAX_WAIT = 0.5  # the loop wakes at least this often (stop flag, watchdog)


@dataclass
class Hardware:
    """The backends the table runs on."""

    sensors: Sensors
    buttons: Buttons
    pixels: Pixels
    dice: Dice


def open_hardware(config: Config, stack: ExitStack) -> Hardware:
    """Open the configured backends; ``stack`` closes them. A missing library or device
    fails here with one line saying what to do (BackendUnavailableError)."""
    # The simulated backends run on the wall clock here; in tests they run on a manual one.
    sim_clock = {"clock": time.monotonic}
    sensors = open_sensors(
        config.sensors.backend,
        config.geometry,
        **(sim_clock if config.sensors.backend == "sim" else {}),
    )
    stack.callback(sensors.close)
    buttons = open_buttons(
        config.buttons.backend, **(sim_clock if config.buttons.backend == "sim" else {})
    )
    stack.callback(buttons.close)
    pixels = open_pixels(config.leds.backend, config.ledmap.length)
    stack.callback(pixels.close)
    return Hardware(sensors, buttons, pixels, SystemDice())


def table_config(config: Config) -> TableConfig:
    return TableConfig(
        capacities(config.geometry),
        settle=config.sensors.settle_ms / 1000,
        long_press=config.buttons.long_press_ms / 1000,
    )


def resume(config: Config, journal: Journal) -> Table:
    """The table the journal leads to; a new match from the config if it holds none."""
    records = journal.records()
    if not records:
        journal.new_match(config.match_record())
        records = journal.records()
    return Table.replay(table_config(config), records)


class App:
    """``bgpi run``: the table on the configured hardware until told to stop."""

    def __init__(
        self,
        config: Config,
        state_dir: Path,
        *,
        hardware: Callable[[Config, ExitStack], Hardware] = open_hardware,
        on_ready: Callable[[], None] | None = None,
        on_alive: Callable[[], None] | None = None,
    ) -> None:
        self.config = config
        self.state_dir = state_dir
        self.hardware = hardware
        self.on_ready = on_ready
        self.on_alive = on_alive
        self.stop = threading.Event()
        self.events: queue.Queue[SensorEvent | ButtonEvent] = queue.Queue()
        self.driver: Driver | None = None

    def run(self) -> int:
        self.state_dir.mkdir(parents=True, exist_ok=True)
        with ExitStack() as stack:
            journal = stack.enter_context(Journal.open(self.state_dir / JOURNAL_NAME))
            table = resume(self.config, journal)
            hardware = self.hardware(self.config, stack)
            stack.callback(_dark, hardware.pixels)
            self.driver = Driver(
                table,
                journal,
                hardware.dice,
                hardware.pixels,
                self.config.geometry,
                self.config.ledmap,
                self.config.style,
            )
            hardware.sensors.start(self.events.put)
            hardware.buttons.start(self.events.put)
            log.info("ready: %s, phase %s", table.match, table.phase.value)
            if self.on_ready:
                self.on_ready()
            self._loop(self.driver)
        log.info("stopped")
        return 0

    def _loop(self, driver: Driver) -> None:
        while not self.stop.is_set():
            now = time.monotonic()
            due = driver.deadline(now)
            wait = MAX_WAIT if due is None else min(MAX_WAIT, max(0.0, due - now))
            try:
                event = self.events.get(timeout=wait)
            except queue.Empty:
                driver.tick(time.monotonic())
            else:
                if isinstance(event, SensorEvent):
                    driver.sensor(event.frame)
                else:
                    driver.button(event)
            if self.on_alive:
                self.on_alive()

    def handle_signals(self) -> None:
        """Stop cleanly on SIGTERM (systemd) and SIGINT (Ctrl-C)."""

        def stop(signum: int, _frame: FrameType | None) -> None:
            log.info("signal %s: stopping", signal.Signals(signum).name)
            self.stop.set()

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)


def _dark(pixels: Pixels) -> None:
    """LEDs off before the strip is closed."""
    try:
        pixels.show([(0, 0, 0)] * len(pixels))
    except Exception:  # a dead strip must not stop the shutdown
        log.warning("could not switch the LEDs off", exc_info=True)
