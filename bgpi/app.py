"""The shell: the event loop of ``bgpi run``.

One thread owns the table. Backends push their events into one queue from their own threads;
the loop takes them one at a time, and when the queue is quiet it ticks the table at the
time the settle filter or a blinking light next needs it. Backend callbacks never touch the
table.

On start the journal is replayed to the exact table state; the board is then read and, if it
was bumped while the power was off, the LEDs show what to fix. SIGTERM and SIGINT stop the
loop cleanly: LEDs off, journal closed.

A damaged journal (corrupt, foreign, newer, locked, a record that does not fit...) is never
played over: ``bgpi run`` logs the one line that names it, shows the fault on the LEDs until
it is stopped (systemd's status line says why), and then exits with status 1.
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
from typing import Any, Protocol

from bgpi.config import Config
from bgpi.driver import Driver
from bgpi.hal import open_buttons, open_pixels, open_sensors
from bgpi.hal.api import Buttons, Dice, Event, Pixels, Sensors
from bgpi.hal.dice import SystemDice
from bgpi.hal.registry import Kind, Settings, backend
from bgpi.lights.render import next_change, render
from bgpi.lights.scene import FAULT, Scene
from bgpi.notify import Notifier
from bgpi.records import Record
from bgpi.resume import complete
from bgpi.sensing.board import capacities
from bgpi.store import Journal, JournalError, corrupt
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
    sensors = open_sensors(config.sensors.backend, config.geometry, **_sensor_options(config))
    stack.callback(sensors.close)
    buttons = open_buttons(config.buttons.backend, **_button_options(config))
    stack.callback(buttons.close)
    pixels = open_pixels(config.leds.backend, config.ledmap.length, **_pixel_options(config))
    stack.callback(pixels.close)
    return Hardware(sensors, buttons, pixels, SystemDice())


# What each backend takes from the config is the registry's business (bgpi.hal.registry). The
# simulated backends run on the wall clock here (in tests, on a manual one).


def backend_settings(config: Config) -> Settings:
    """The config's settings for the backends, by meaning."""
    return Settings(
        pins=config.pins,
        scan_hz=config.sensors.scan_hz,
        port=config.sensors.port,
        bounce_time=config.buttons.bounce_ms / 1000,
        led_wiring=config.leds.wiring,
        pixel_order=config.leds.pixel_order,
    )


def _sensor_options(config: Config) -> dict[str, Any]:
    return backend(Kind.SENSORS, config.sensors.backend).options(backend_settings(config))


def _button_options(config: Config) -> dict[str, Any]:
    return backend(Kind.BUTTONS, config.buttons.backend).options(backend_settings(config))


def _pixel_options(config: Config) -> dict[str, Any]:
    return backend(Kind.PIXELS, config.leds.backend).options(backend_settings(config))


def table_config(config: Config) -> TableConfig:
    return TableConfig(
        capacities(config.geometry),
        settle=config.sensors.settle_ms / 1000,
        long_press=config.buttons.long_press_ms / 1000,
    )


def resume(config: Config, journal: Journal) -> Table:
    """The table the journal leads to (finishing a step an older bgpi journaled only half
    of); a new match from the config if it holds none."""
    if not journal.matches():
        journal.new_match(config.match_record())
    return resume_records(config, journal)[0]


def resume_records(config: Config, journal: Journal) -> tuple[Table, list[Record]]:
    """The latest match's table and records, a step an older bgpi journaled only half of
    finished and journaled. A journal that does not replay by the rules is a damaged one
    (CorruptJournalError, naming the file)."""
    try:
        return complete(table_config(config), journal.records(), journal)
    except ValueError as exc:
        raise corrupt(f"{journal.path}: {exc}") from None


class Hands(Protocol):
    """Simulated hands that play at the board (``bgpi run --self-play``, bgpi.selfplay): told
    before the loop starts, then called after each turn of it, on its thread."""

    def start(self, driver: Driver, journal: Journal, stop: threading.Event) -> None: ...

    def __call__(self, driver: Driver) -> None: ...


Observer = Callable[[Driver, Journal], None]
"""Sees the table after each step of the loop, on the loop's thread (the companion web page,
bgpi.web.companion): it must be quick and never change what it sees."""


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
        notifier: Notifier | None = None,
    ) -> None:
        self.config = config
        self.state_dir = state_dir
        self.hardware = hardware
        self.on_ready = on_ready
        self.on_alive = on_alive
        self.observer: Observer | None = None  # set it to watch every step (the web page)
        self.hands: Hands | None = None  # set it to play by itself on the simulator
        # Under systemd (bgpi.service is Type=notify) this tells it READY, feeds its watchdog
        # and says STOPPING; anywhere else $NOTIFY_SOCKET is unset and it does nothing.
        self.notifier = notifier if notifier is not None else Notifier.from_environment()
        self.stop = threading.Event()
        self.events: queue.Queue[Event] = queue.Queue()
        self.driver: Driver | None = None
        self.on_refusal: Callable[[JournalError], None] | None = None  # a damaged journal

    def run(self) -> int:
        self.state_dir.mkdir(parents=True, exist_ok=True)
        with ExitStack() as stack:
            try:
                journal = stack.enter_context(Journal.open(self.state_dir / JOURNAL_NAME))
                table = resume(self.config, journal)
            except JournalError as exc:
                return self._refuse(exc, stack)
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
                log=journal.records(),
            )
            if self.hands:
                self.hands.start(self.driver, journal, self.stop)
            hardware.sensors.start(self.events.put)
            hardware.buttons.start(self.events.put)
            log.info("ready: %s, phase %s", table.match, table.phase.value)
            if self.on_ready:
                self.on_ready()
            stack.callback(self.notifier.close)
            self.notifier.ready(f"{table.match}, {table.phase.value}")
            self._loop(self.driver, journal)
            self.notifier.stopping()
        log.info("stopped")
        return 0

    def _loop(self, driver: Driver, journal: Journal) -> None:
        while not self.stop.is_set():
            if self.observer:
                self.observer(driver, journal)
            now = time.monotonic()
            due = driver.deadline(now)
            wait = MAX_WAIT if due is None else min(MAX_WAIT, max(0.0, due - now))
            try:
                event = self.events.get(timeout=wait)
            except queue.Empty:
                driver.tick(time.monotonic())
            else:
                driver.handle(event)
            if self.hands:
                self.hands(driver)
            if self.on_alive:
                self.on_alive()
            self.notifier.alive()

    def _refuse(self, error: JournalError, stack: ExitStack) -> int:
        """A damaged journal: say so, show the fault on the LEDs until stopped, fail."""
        if self.on_refusal:
            self.on_refusal(error)
        else:
            log.error("%s", error)
        hardware = self.hardware(self.config, stack)
        stack.callback(_dark, hardware.pixels)
        scene = Scene(alert=FAULT)
        stack.callback(self.notifier.close)
        self.notifier.ready(f"refused: {error}")  # systemd's status line says why
        if self.on_ready:
            self.on_ready()
        frame = None
        while True:
            now = time.monotonic()
            shown = render(scene, self.config.ledmap, self.config.style, now)
            if shown != frame:
                hardware.pixels.show(shown)
                frame = shown
            if self.on_alive:
                self.on_alive()
            self.notifier.alive()
            due = next_change(scene, self.config.style, now)
            wait = MAX_WAIT if due is None else min(MAX_WAIT, max(0.0, due - now))
            if self.stop.wait(wait):
                return 1

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
