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
from dataclasses import dataclass, replace
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, Protocol

from bgpi.base.words import PLAYERS, Player
from bgpi.hal import open_buttons, open_buzzer, open_pixels, open_sensors
from bgpi.hal.api import Buttons, Buzzer, Dice, Event, Pixels, Sensors
from bgpi.hal.dice import SystemDice
from bgpi.hal.errors import INSTALL, BackendUnavailableError
from bgpi.hal.registry import Kind, Settings, backend
from bgpi.journal.records import GameEnded, MatchStarted, Seat
from bgpi.journal.store import JOURNAL_NAME, Check, Journal, JournalError
from bgpi.lights.render import next_change, render
from bgpi.lights.scene import Alert, Scene
from bgpi.present.cues import Cue, pairs
from bgpi.present.diagram import match_text
from bgpi.sensing.board import capacities
from bgpi.service.config import Config
from bgpi.service.driver import Driver
from bgpi.service.edge import table_event
from bgpi.service.notify import Notifier
from bgpi.service.reload import ConfigWatch, with_rules_of
from bgpi.service.resume import resume
from bgpi.table import (
    Chosen,
    Decided,
    DecisionRequest,
    DiceRolled,
    Hinted,
    HintRequest,
    Phase,
    Table,
    TableConfig,
    waiting,
)
from bgpi.table import Event as TableEvent

if TYPE_CHECKING:  # the engine's modules load only when a seat or the analysis needs them
    from bgpi.engine import Engine
    from bgpi.engine.analysis import Analyst
    from bgpi.engine.seat import EngineSeat
    from bgpi.engine.worker import Answer, EngineWorker

if TYPE_CHECKING:
    from bgpi.remote.board import RemoteSeat, RemoteStatus
    from bgpi.remote.link import Link

log = logging.getLogger("bgpi")

MAX_WAIT = 0.5  # the loop wakes at least this often (stop flag, watchdog)
REMOTE_WAIT = 0.05  # with a remote match, this often: the other board's word is read here


@dataclass
class Hardware:
    """The backends the table runs on."""

    sensors: Sensors
    buttons: Buttons
    pixels: Pixels
    dice: Dice
    buzzer: Buzzer | None = None  # [sound] enabled with a buzzer_pin
    godice: Heard | None = None  # the GoDice pair ([dice] first, second), read on its thread


class Heard(Protocol):
    """A backend that tells what it hears to the loop's queue once started (the GoDice link)."""

    def start(self, emit: Callable[[Event], None]) -> None: ...

    def close(self) -> None: ...


def open_hardware(config: Config, stack: ExitStack) -> Hardware:
    """Open the configured backends; ``stack`` closes them. A missing library or device
    fails here with one line saying what to do (BackendUnavailableError)."""
    sensors = open_sensors(config.sensors.backend, config.geometry, **_sensor_options(config))
    stack.callback(sensors.close)
    buttons = open_buttons(config.buttons.backend, **_button_options(config))
    stack.callback(buttons.close)
    pixels = open_pixels(config.leds.backend, config.ledmap.length, **_pixel_options(config))
    stack.callback(pixels.close)
    buzzer = open_board_buzzer(config)
    if buzzer is not None:
        stack.callback(buzzer.close)
    godice = open_godice(config)
    if godice is not None:
        stack.callback(godice.close)
    return Hardware(sensors, buttons, pixels, SystemDice(), buzzer, godice)


def open_godice(config: Config) -> Heard | None:
    """The GoDice pair's link if ``[dice]`` pairs two dice (``bgpi dice pair``); bleak and
    godice only then (the pi extra)."""
    addresses = config.dice.paired
    if addresses is None:
        return None
    try:
        from bgpi.hal.godicelink import open_link  # noqa: PLC0415 (the radio's libraries)
    except ImportError as exc:
        raise BackendUnavailableError(
            f"[dice] pairs GoDice, but {exc.name} is not installed: {INSTALL}"
        ) from None
    return open_link(addresses, time.monotonic)


def open_board_buzzer(config: Config) -> Buzzer | None:
    """The buzzer, if sound is on and a pin is given; of the buttons' backend (the simulated
    one sounds nothing)."""
    sound = config.sound
    if not sound.enabled or sound.buzzer_pin is None:
        return None
    chosen = backend(Kind.BUZZER, config.buttons.backend)
    return open_buzzer(config.buttons.backend, **chosen.options(backend_settings(config)))


def sounding(buzzer: Buzzer) -> Callable[[Cue], None]:
    """What the driver tells each cue to: the buzzer plays it on its own thread."""
    return lambda cue: buzzer.play(pairs(cue))


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
        buzzer_pin=config.sound.buzzer_pin,
        buzzer=config.sound.buzzer,
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
        accept_illegal=not config.rules.demand_correction,
        next_match=config.match_record().rules(),
        next_clock=config.clock.rules(),
        hints=config.seats.hints,
        takeback_wait=config.seats.takeback_wait_s,
        godice=config.dice.paired is not None,
        roster=config.players.roster,
    )


def replays(config: Config) -> Check:
    """What the journal must pass before ``bgpi run`` opens it for writing: its latest match
    replays by the rules. A record that does not fit is then named, and the journal refused,
    with not a byte of it (nor of its -wal and -shm) changed."""
    return lambda records: Table.replay(table_config(config), records)


class Hands(Protocol):
    """Simulated hands that play at the board (``bgpi run --self-play``, bgpi.sim.selfplay): told
    before the loop starts, then called after each turn of it that leaves its queue empty, on
    its thread."""

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
        # Under systemd (bgpi.service is Type=notify) this tells it READY, feeds its watchdog
        # and says STOPPING; anywhere else $NOTIFY_SOCKET is unset and it does nothing.
        self.notifier = notifier if notifier is not None else Notifier.from_environment()
        self.stop = threading.Event()
        self.events: queue.Queue[Event | Answer | DiceRolled] = queue.Queue()
        self.driver: Driver | None = None
        self.worker: EngineWorker | None = None
        self.analyst: Analyst | None = None
        self._stack: ExitStack | None = None  # the run's, for what is opened on the way
        self._analysed = True  # whether to ask for an analyst when a game ends
        self._records_seen = 0
        self.hands: Hands | None = None  # set it to play by itself on the simulator
        self.on_refusal: Callable[[JournalError], None] | None = None  # a damaged journal
        self.watch = ConfigWatch(config.source if config.source != "(defaults)" else None)
        self.remote: RemoteSeat | None = None  # the other board's seat, in a remote match

    def run(self) -> int:
        self.state_dir.mkdir(parents=True, exist_ok=True)
        with ExitStack() as stack:
            engines = self._open_engines()
            try:
                path = self.state_dir / JOURNAL_NAME
                journal = stack.enter_context(Journal.open(path, check=replays(self.config)))
                link = self._open_remote(journal, stack)
                table = resume(
                    table_config(self.config), journal, _with_seats(self.config, engines)
                )
            except JournalError as exc:
                for engine in engines.values():
                    engine.close()
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
                ask=self._ask,
                hint=self._hint,
                hear=sounding(hardware.buzzer) if hardware.buzzer is not None else None,
            )
            self._seat_remote(link, self.driver, journal)
            self._stack = stack
            self.worker = self._seat_engines(table, engines)
            if self.hands:
                self.hands.start(self.driver, journal, self.stop)
            hardware.sensors.start(self.events.put)
            hardware.buttons.start(self.events.put)
            if hardware.godice is not None:
                hardware.godice.start(self.events.put)
            # In the players' names, as `systemctl status bgpi` shows it to whoever looks.
            where = f"{'; '.join(match_text(table.match, table.names))}; {table.phase.value}"
            log.info("ready: %s", where)
            if self.on_ready:
                self.on_ready()
            stack.callback(self.notifier.close)
            self.notifier.ready(where)
            request = waiting(table)  # a match resumed while the engine was to answer
            if request is not None:
                self._ask(request)
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
            wait = wait if self.remote is None else min(wait, REMOTE_WAIT)
            try:
                event = self.events.get(timeout=wait)
            except queue.Empty:
                driver.tick(time.monotonic())
            else:
                self._take(driver, event)
            self._follow_remote()
            self._after_a_game(driver, journal)
            if self.hands and self.events.empty():
                # Only once the table has taken every event so far: else the hands would
                # act again on a table that has not yet seen their last press (its release
                # still queued), and a second ROLL would land on the roll it made.
                self.hands(driver)
            self._between_matches(driver)
            if self.on_alive:
                self.on_alive()
            self.notifier.alive()
        if self.observer:  # the last step too (a match that ended as the board stopped)
            self.observer(driver, journal)

    def _open_engines(self) -> dict[Player, Engine]:
        """The engines the config seats (none for two people: then nothing of the engine
        is even imported, which keeps the service's start quick on a Pi Zero)."""
        seats = (self.config.seats.white, self.config.seats.black)
        if all(seat == "person" for seat in seats):
            return {}
        from bgpi.engine.seats import open_engines  # noqa: PLC0415

        return open_engines(seats, say=log.warning, timeout=self.config.seats.timeout_s)

    def _take(self, driver: Driver, event: Event | Answer | DiceRolled) -> None:
        """An event from the queue to the table: a backend's converted at the edge, an
        engine's answer as it is."""
        taken: TableEvent
        if isinstance(event, Decided | Chosen | Hinted | DiceRolled):  # a phone's dice, too
            taken = event
        else:
            taken = table_event(event, driver.geometry)
        if self.remote is None:
            driver.dispatch(taken)
            return
        from bgpi.remote.link import MatchPausedError  # noqa: PLC0415 (a remote match only)

        try:
            driver.dispatch(taken)
        except MatchPausedError as exc:  # as the dice began to be drawn with the other board
            self.remote.paused_by(exc)

    # -- a remote match ([remote]: docs/remote.md) -----------------------------------------

    def _open_remote(self, journal: Journal, stack: ExitStack) -> Link | None:
        """The link to the other board if ``[remote]`` names a broker; the remote match is
        started in the journal (or resumed) before the table is."""
        from bgpi.remote.board import open_link, run_game  # noqa: PLC0415 (a remote match only)

        game = run_game(self.config)
        if game is None:
            return None
        link = open_link(stack, game, journal, self.config.match_record(), self.state_dir)
        log.info("remote match %s: %s", game.pairing.code, game.broker)
        return link

    def _seat_remote(self, link: Link | None, driver: Driver, journal: Journal) -> None:
        """The other board's seat: its word read at every turn of the loop, the dice drawn
        with it while the loop goes on (the board, the buttons, the page and the watchdog
        all served meanwhile)."""
        if link is None:
            return
        from bgpi.remote.board import RemoteSeat  # noqa: PLC0415

        self.remote = RemoteSeat(
            link, driver, time.monotonic, claim_after=self.config.remote.patience
        )
        self.remote.be_patient()

    def remote_status(self) -> RemoteStatus | None:
        """A remote match's state for the page (on the loop's thread); None: not one."""
        return self.remote.status() if self.remote is not None else None

    def _follow_remote(self) -> None:
        if self.remote is not None:
            self.remote.poll()

    def _analyst(self, stack: ExitStack) -> Analyst | None:
        """gnubg, on its own thread, to rate each game as it ends (``[seats] analyse``)."""
        if not self.config.seats.analyse:
            return None
        from bgpi.engine import EngineMissingError, GnubgEngine  # noqa: PLC0415
        from bgpi.engine.analysis import AnalysisStore, Analyst  # noqa: PLC0415
        from bgpi.engine.process import find_gnubg  # noqa: PLC0415

        try:
            find_gnubg()
        except EngineMissingError as exc:
            log.info("games are not analysed: %s", exc)
            return None
        # Started and ended as a seat's engine is; a whole match's analysis may take minutes.
        engine = GnubgEngine(timeout=self.config.seats.timeout_s)
        engine.analysis_timeout = max(600.0, self.config.seats.timeout_s)
        analyst = Analyst(AnalysisStore(self.state_dir / JOURNAL_NAME), engine, say=log.warning)
        stack.callback(analyst.close)
        return analyst

    def _refuse(self, error: JournalError, stack: ExitStack) -> int:
        """A damaged journal: say so, show the fault on the LEDs until stopped, fail."""
        if self.on_refusal:
            self.on_refusal(error)
        else:
            log.error("%s", error)
        hardware = self.hardware(self.config, stack)
        stack.callback(_dark, hardware.pixels)
        scene = Scene(alert=Alert.FAULT)
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

    def _after_a_game(self, driver: Driver, journal: Journal) -> None:
        """A game has ended in this step: queue its match for analysis."""
        log_now = driver.log
        if len(log_now) < self._records_seen:  # a new match began
            self._records_seen = 0
        new = log_now[self._records_seen :]
        self._records_seen = len(log_now)
        if not any(isinstance(r, GameEnded) for r in new):
            return
        analyst = self._analyst_now()
        if analyst is not None:
            matches = journal.matches()
            analyst.analyse(matches[-1].id, journal.records(matches[-1].id))

    def _analyst_now(self) -> Analyst | None:
        """The analyst, made when the first game ends rather than at start: gnubg and its
        modules cost nothing before anyone needs them."""
        if self.analyst is None and self._analysed and self._stack is not None:
            self.analyst = self._analyst(self._stack)
            self._analysed = self.analyst is not None
        return self.analyst

    def _between_matches(self, driver: Driver) -> None:
        """Once a match is over, a config edited meanwhile gives the next match's rules."""
        if driver.table.phase is not Phase.MATCH_OVER:
            return
        config = self.watch.changed()
        if config is not None:
            driver.table = with_rules_of(driver.table, config)

    def _ask(self, request: DecisionRequest) -> None:
        """The table waits for an engine seat: its thread answers into the loop's queue."""
        if self.worker is not None and self.driver is not None:
            self.worker.ask(request, self.driver.table)

    def _hint(self, request: HintRequest) -> None:
        """A person asks for a hint: the engine's thread answers into the loop's queue (the
        thread started with the first hint where no engine seat started it)."""
        if self.worker is None:
            self.worker = self._start_worker({})
        if self.driver is not None:
            self.worker.hint(request, self.driver.table)

    def _start_worker(self, seats: dict[Player, EngineSeat]) -> EngineWorker:
        """The engine's thread for ``seats``, and for the hints where the config gives any."""
        from bgpi.engine.levels import Level  # noqa: PLC0415
        from bgpi.engine.seats import gnubg_advisor  # noqa: PLC0415
        from bgpi.engine.worker import EngineWorker  # noqa: PLC0415

        advisor = None
        if self.config.seats.hints:
            level = Level.parse(self.config.seats.hint_level)
            advisor = gnubg_advisor(level, say=log.warning, timeout=self.config.seats.timeout_s)
        worker = EngineWorker(seats, self.events.put, advisor=advisor)
        assert self._stack is not None  # started inside run
        self._stack.callback(worker.close)
        return worker

    def _seat_engines(self, table: Table, engines: dict[Player, Engine]) -> EngineWorker | None:
        """The thread that answers for the match's engine seats, if it has any."""
        from bgpi.engine.seat import EngineSeat  # noqa: PLC0415

        seats: dict[Player, EngineSeat] = {}
        for player in PLAYERS:
            if table.seats[player] is not Seat.ENGINE:
                continue
            if player not in engines:
                log.error(
                    "the match seats the engine for %s, but none can play it: "
                    "the table waits for it (end the match or install gnubg)",
                    table.names[player],
                )
                continue
            seats[player] = EngineSeat(engines[player], log.warning)
        if not seats:
            for engine in engines.values():
                engine.close()
            return None
        return self._start_worker(seats)

    def handle_signals(self) -> None:
        """Stop cleanly on SIGTERM (systemd) and SIGINT (Ctrl-C)."""

        def stop(signum: int, _frame: FrameType | None) -> None:
            log.info("signal %s: stopping", signal.Signals(signum).name)
            self.stop.set()

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)


def _with_seats(config: Config, engines: dict[Player, Engine]) -> MatchStarted:
    """The config's new match, each side the engine only where one could be opened."""
    record = config.match_record()
    seats = tuple(Seat.ENGINE if p in engines else Seat.PERSON for p in PLAYERS)
    return replace(record, seats=(seats[0], seats[1]))


def _dark(pixels: Pixels) -> None:
    """LEDs off before the strip is closed."""
    try:
        pixels.show([(0, 0, 0)] * len(pixels))
    except Exception:  # a dead strip must not stop the shutdown
        log.warning("could not switch the LEDs off", exc_info=True)
