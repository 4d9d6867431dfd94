"""The GoDice pair kept connected: an asyncio event loop on a thread of its own (bleak is
async; the shell's loop is not), a bounded retry with backoff when a die is lost, and a fault
said while a die is gone or its battery low, cleared once it is back.

On a Pi, Wi-Fi and Bluetooth share one chip, and a die's link drops now and then. A lost die
is tried again after 0.5 s, 1 s, 2 s ... up to 30 s between tries, :data:`ATTEMPTS` tries in a
round; a round that fails is said once and the next begins after :data:`ROUND_PAUSE` (a die
switched off for the evening comes back when it is switched on, and the log is not flooded).
Each try is logged once; no failure of the radio ever leaves this thread. The table falls
back on entered dice meanwhile (:mod:`bgpi.table.thrown`).

``bleak-retry-connector`` was weighed and left out: it connects a fresh client of a class it
is given, to a ``BLEDevice`` from a scan, and retries only that first connect; the dice are
lost mid-match, and the library (``godice``) holds one client per die. Ours retries any
client the library holds, the simulator's fake one included.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Coroutine
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from bgpi.base.faults import FaultSource
from bgpi.base.i18n import _
from bgpi.hal.api import DieEvent, FaultEvent
from bgpi.hal.godice import LOW_BATTERY, GoDicePair
from bgpi.sensing.godice import Rest, colour_words

log = logging.getLogger(__name__)

ATTEMPTS: Final = 8  # tries in a round: 0.5 + 1 + 2 + ... + 30 s, a little over a minute
ROUND_PAUSE: Final = 300.0  # seconds between rounds once a round failed
CHARGED: Final = LOW_BATTERY + 5  # a low die counts as charged again from here (no flicker)
ANSWER: Final = 5.0  # seconds a die has to answer a question (its battery, its colour)
T = TypeVar("T")

Emit = Callable[[DieEvent | FaultEvent], None]


@dataclass(frozen=True, slots=True)
class Backoff:
    """How long to wait before each try of a round: ``first`` doubling up to ``most``."""

    first: float = 0.5
    most: float = 30.0
    attempts: int = ATTEMPTS
    pause: float = ROUND_PAUSE

    def delay(self, attempt: int) -> float:
        """The wait before try ``attempt`` (1, 2, ...)."""
        return min(self.most, self.first * float(2 ** (attempt - 1)))


@dataclass
class _Die:
    """What the link knows of one die."""

    up: bool = False
    colour: str | None = None
    battery: int | None = None
    low: bool = False


Client = Callable[[int, Callable[[Any], None]], Any]
"""Makes die ``index``'s BLE client, calling the given callback when its link drops: bleak's
``BleakClient(address, disconnected_callback=...)`` on a board, a
:class:`~bgpi.hal.godice.FakeBleClient` in the simulator and the tests."""


class GoDiceLink:
    """The pair's event loop and the connections it keeps: the clients ``client`` makes, each
    die's word and the faults to the ``emit`` given to :meth:`start` (any thread's queue),
    stamped by ``clock``. Whatever the radio's stack raises (bleak's errors, dbus-fast's, the
    OS's, a timeout) is caught where the dice are touched, logged once, never raised: the
    board plays on, with entered dice while a die is down."""

    def __init__(
        self,
        client: Client,
        clock: Callable[[], float],
        *,
        backoff: Backoff | None = None,
    ) -> None:
        clients = (client(0, lambda _c: self.lost(0)), client(1, lambda _c: self.lost(1)))
        self.pair = GoDicePair(clients, self._heard, clock)
        self.emit: Emit = _unheard
        self.clock = clock
        self.backoff = backoff or Backoff()
        self.dice = (_Die(), _Die())
        self.fault: str | None = None
        self._loop = asyncio.new_event_loop()
        self._loop.set_exception_handler(_escaped)
        self._thread = threading.Thread(target=self._loop.run_forever, name="godice", daemon=True)
        self._trying: dict[int, asyncio.Task[None]] = {}
        self._starting: Future[None] | None = None
        self._closed = False

    @property
    def closed(self) -> bool:
        return self._closed

    def start(self, emit: Emit) -> None:
        """Start the loop and begin connecting both dice, their words and faults to
        ``emit``; it returns at once (a die takes seconds to answer, or never: it is tried
        again, and is a fault meanwhile). :meth:`ready` waits for the first tries."""
        self.emit = emit
        self._thread.start()
        self._starting = asyncio.run_coroutine_threadsafe(self._connect_all(), self._loop)

    def ready(self, timeout: float = 60.0) -> None:
        """Wait until each die was tried once (connected, or a fault said)."""
        if self._starting is not None:
            self._starting.result(timeout)

    def run(self, step: Coroutine[Any, Any, T], timeout: float = 30.0) -> T:
        """``step`` run on the pair's loop, waited for (the simulator's hands throw so)."""
        future: Future[T] = asyncio.run_coroutine_threadsafe(step, self._loop)
        return future.result(timeout)

    def lost(self, index: int) -> None:
        """Die ``index``'s link dropped (its client's disconnected callback, on any thread)."""
        if not self._closed:
            self._loop.call_soon_threadsafe(self._lost, index)

    def quiet(self, timeout: float = 30.0) -> None:
        """Wait until no die is being tried again (a test's or the simulator's pause)."""

        async def tries() -> None:
            while self._trying:
                await asyncio.gather(*self._trying.values(), return_exceptions=True)

        self.ready(timeout)
        self.run(tries(), timeout)

    def close(self) -> None:
        """Disconnect the dice and stop the loop; closing twice is harmless."""
        if self._closed:
            return
        self._closed = True
        if self._thread.is_alive():
            try:
                self.run(self._close(), timeout=10.0)
            except Exception as exc:  # the radio's stack, closing
                log.warning("godice: closing: %s", exc)
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10.0)
        self._loop.close()

    # -- on the loop ----------------------------------------------------------------------

    async def _connect_all(self) -> None:
        for index in (0, 1):
            if not await self._try(index, 0):
                self._lost(index)
        self._said()

    async def _try(self, index: int, attempt: int) -> bool:
        """One try to connect die ``index``, logged once if it fails."""
        try:
            await self.pair.connect(index)
            die = self.dice[index]
            die.colour = die.colour or await asyncio.wait_for(self.pair.colour(index), ANSWER)
        except Exception as exc:  # the radio's stack: see the class
            # One failed try, logged once: the die is tried again, the board plays on.
            tries = f" (try {attempt} of {self.backoff.attempts})" if attempt else ""
            log.warning("godice: die %d did not connect%s: %s", index + 1, tries, exc)
            return False
        self.dice[index].up = True
        log.info("godice: die %d (%s) connected", index + 1, self.dice[index].colour)
        await self._check_battery(index)
        return True

    def _lost(self, index: int) -> None:
        die = self.dice[index]
        if index in self._trying or self._closed:
            return
        if die.up:
            log.warning("godice: die %d lost", index + 1)
        die.up = False
        self._said()
        self._trying[index] = self._loop.create_task(self._again(index))

    async def _again(self, index: int) -> None:
        """Tries in rounds until die ``index`` is back."""
        try:
            while not self._closed:
                for attempt in range(1, self.backoff.attempts + 1):
                    await asyncio.sleep(self.backoff.delay(attempt))
                    if await self._try(index, attempt):
                        self._said()
                        return
                # A warning, not an error: dice paired but switched off while the board
                # rolls its own are no failure.
                log.warning(
                    "godice: die %d not back after %d tries: trying again in %.0f s",
                    index + 1,
                    self.backoff.attempts,
                    self.backoff.pause,
                )
                await asyncio.sleep(self.backoff.pause)
        finally:
            self._trying.pop(index, None)

    async def _heard(self, event: DieEvent) -> None:
        self.emit(event)
        if event.rest is Rest.STABLE:  # after each throw: a die running low says so in time
            await self._check_battery(event.die)

    async def _check_battery(self, index: int) -> None:
        die = self.dice[index]
        try:
            die.battery = await asyncio.wait_for(self.pair.battery(index), ANSWER)
        except Exception as exc:  # the radio's stack: see the class
            log.warning("godice: die %d did not say its battery: %s", index + 1, exc)
            return
        low = die.battery < (CHARGED if die.low else LOW_BATTERY)
        if low != die.low:
            die.low = low
            self._said()

    def _said(self) -> None:
        """The fault as the dice stand now, emitted when it changed."""
        words = []
        for number, die in enumerate(self.dice, start=1):
            colour = "?" if die.colour is None else colour_words(die.colour)
            name = _("die {number} ({colour})").format(number=number, colour=colour)
            if not die.up:
                words.append(_("{die} is gone").format(die=name))
            elif die.low:
                words.append(
                    _("{die} is low on battery ({level}%)").format(die=name, level=die.battery)
                )
        fault = "; ".join(words) or None
        if fault != self.fault:
            self.fault = fault
            self.emit(FaultEvent(FaultSource.GODICE, fault, self.clock()))

    async def _close(self) -> None:
        for task in list(self._trying.values()):
            task.cancel()
        await self.pair.close()


def _unheard(event: DieEvent | FaultEvent) -> None:
    """Before :meth:`GoDiceLink.start`: nobody listens yet."""


def open_link(addresses: tuple[str, str], clock: Callable[[], float]) -> GoDiceLink:
    """The link to the pair at ``addresses`` (die 1's, die 2's) through bleak, on a board."""
    from bleak import BleakClient  # noqa: PLC0415 (a board's radio: the pi extra)

    def client(index: int, lost: Callable[[Any], None]) -> Any:
        return BleakClient(addresses[index], disconnected_callback=lost, timeout=10.0)

    return GoDiceLink(client, clock)


def _escaped(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """Whatever escapes a task on the pair's loop is said, never raised: the board plays on."""
    log.error("godice: %s", context.get("exception") or context.get("message"))
