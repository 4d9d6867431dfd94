"""``bgpi sim``: the whole table on the simulated board, played in the browser.

One thread: the asyncio loop runs the server, the page's commands and the clock, and owns the
simulated table (:class:`~bgpi.web.session.SimSession`). :class:`SimServer` runs the same on
a thread of its own, for the tests and the screenshot script.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Mapping
from contextlib import ExitStack, suppress
from dataclasses import dataclass, replace
from pathlib import Path
from types import TracebackType
from typing import Final, Self, TypeVar

from bgpi.base.i18n import _
from bgpi.base.words import BLACK, WHITE, Player
from bgpi.engine import Engine
from bgpi.engine.hints import Advisor
from bgpi.engine.levels import Level
from bgpi.engine.seat import EngineSeat
from bgpi.engine.seats import gnubg_advisor, open_engines
from bgpi.engine.worker import EngineWorker
from bgpi.journal.records import DiceSource, MatchStarted, Record, Seat
from bgpi.service.config import Config
from bgpi.service.driver import Journal as JournalProtocol
from bgpi.sim.simtable import Advise, Fresh, SimOptions, SimSeat, SimTable
from bgpi.table import DecisionRequest, HintRequest, Phase, Table, waiting
from bgpi.web.addresses import reachable_hosts
from bgpi.web.auth import is_loopback, new_token
from bgpi.web.server import MAT_PATH, Hub
from bgpi.web.session import SimSession
from bgpi.web.threads import LoopThread

T = TypeVar("T")

DEFAULT_PORT: Final = 8421
CLOCK_STEP: Final = 0.04  # seconds between two steps of the simulated clock: 5 per blink phase
START_TIMEOUT: Final = 10.0


@dataclass(frozen=True, slots=True)
class Address:
    """Where the page is served, and the token it needs (None on a loopback bind)."""

    host: str
    port: int
    token: str | None = None

    @property
    def url(self) -> str:
        """The address to open: on a bind to every interface, the first of :attr:`urls`."""
        return self.urls[0]

    @property
    def urls(self) -> tuple[str, ...]:
        """Every address that reaches the page: on a bind to every interface, this machine's
        IPv4 addresses and then its mDNS name (a phone resolves no bare host name)."""
        hosts: tuple[str, ...] = (self.host,)
        if self.host in ("0.0.0.0", "::", ""):
            hosts = reachable_hosts()
        query = f"?token={self.token}" if self.token else ""
        return tuple(f"http://{_bracketed(host)}:{self.port}/{query}" for host in hosts)

    @property
    def mat_link(self) -> str | None:
        """The page's ``.mat`` as another machine on the network opens it: without the token
        (it lets whoever holds it use the page), so a browser that opened the page with it
        (its cookie) gets the file, any other is refused. None on a loopback bind, which
        nobody else reaches."""
        if self.token is None:
            return None
        return self.urls[0].split("?", 1)[0] + MAT_PATH.lstrip("/")


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def new_session(
    config: Config,
    *,
    seed: int,
    records: MatchStarted | list[Record] | Fresh | None = None,
    journal: JournalProtocol | None = None,
    engines: Mapping[Player, Engine] | None = None,
    advisor: Advisor | None = None,
) -> SimSession:
    """A simulated table for ``config`` with seeded dice: a new match (``records`` a
    MatchStarted) with the checkers set up, or the match the records hold, the board standing
    as they leave it; a fresh board where the player chooses the match (``records`` a
    :class:`~bgpi.sim.simtable.Fresh`, or None: the config's match shown first). ``engines``
    play the seats the match gives the engine and ``advisor`` gives the hints the config
    allows, both on the engine's own thread: the page's loop never waits for gnubg, whose
    answers the table takes at the next tick of the clock."""
    records = records if records is not None else Fresh(config.match_record())
    sim = SimTable(
        records,
        options=SimOptions(
            seed=seed,
            settle=config.sensors.settle_ms / 1000,
            long_press=config.buttons.long_press_ms / 1000,
            hints=config.seats.hints,
            takeback_wait=config.seats.takeback_wait_s,
            godice=config.dice.paired is not None or _godice(records),
            roster=config.players.roster,
        ),
        geometry=config.geometry,
        ledmap=config.ledmap,
        style=config.style,
        journal=journal,
    )
    seats = {p: EngineSeat(e, _say) for p, e in (engines or {}).items()}
    worker = None
    if seats or advisor is not None:
        worker = EngineWorker(seats, sim.post, advisor=advisor, say=_say)
        sim.seats = {p: _asking(worker) for p in seats}
        sim.advise = _advising(worker)
    if sim.phase is Phase.SETUP:
        sim.setup()
    request = waiting(sim.table)  # resumed while an engine was to answer
    if request is not None and request.player in sim.seats:
        sim.ask(request)
    session = SimSession(
        sim, config.ledmap, config.style, worker=worker, sound=config.sound.enabled
    )
    session.site = config.players.site
    return session


def _godice(records: MatchStarted | list[Record] | Fresh) -> bool:
    """Whether the match shown or resumed reads GoDice: the simulator pairs a simulated
    pair to the board then (the hands throw it: bgpi.sim.godice)."""
    first: Record | None
    if isinstance(records, Fresh):
        first = records.defaults
    elif isinstance(records, list):
        first = records[0] if records else None
    else:
        first = records
    return isinstance(first, MatchStarted) and first.dice is DiceSource.GODICE


def _asking(worker: EngineWorker) -> SimSeat:
    """A seat that hands the table's question to the engine's thread and answers later."""

    def seat(request: DecisionRequest, table: Table) -> None:
        worker.ask(request, table)

    return seat


def _advising(worker: EngineWorker) -> Advise:
    def advise(request: HintRequest, table: Table) -> None:
        worker.hint(request, table)

    return advise


async def serve_sim(
    session: SimSession,
    *,
    host: str,
    port: int,
    token: str | None,
    ready: Callable[[Address], None],
    stop: asyncio.Event | None = None,
) -> None:
    """Serve the page for ``session`` until ``stop`` is set (or forever)."""
    hub = Hub(session.layout(), token=token, controller=session, now=session.now)
    stop = stop or asyncio.Event()
    async with hub.serve(host, port):
        hub.publish(session.snapshot())
        ready(Address(host, hub.guard.port, token))
        while not stop.is_set():
            with suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), CLOCK_STEP)
            session.catch_up()
            hub.publish(session.snapshot())


def run_sim(
    config: Config,
    *,
    host: str,
    port: int,
    seed: int,
    state_dir: Path,
    match: MatchStarted | None = None,
) -> int:
    """``bgpi sim``: serve until interrupted. The match is kept in the journal in
    ``state_dir``: an unfinished one resumes, else the player chooses a new one at the
    board, ``match`` (default: the config's) shown first. With ``[remote] club`` (which
    ``bgpi sim`` sets from its ``--club`` only), each match finished is published to the
    club on ``[remote] broker``."""
    from bgpi.journal.store import JOURNAL_NAME, Journal  # noqa: PLC0415
    from bgpi.service.app import replays, table_config  # noqa: PLC0415 (only when asked)
    from bgpi.service.resume import unfinished  # noqa: PLC0415

    token = None if is_loopback(host) else new_token()
    with ExitStack() as stack:
        state_dir.mkdir(parents=True, exist_ok=True)
        path = state_dir / JOURNAL_NAME  # refused before it is opened to write, if damaged
        journal = stack.enter_context(Journal.open(path, check=replays(config)))
        records = unfinished(table_config(config), journal)
        seats = (config.seats.white, config.seats.black)
        engines = open_engines(seats, say=_say, timeout=config.seats.timeout_s)
        for engine in engines.values():
            stack.callback(engine.close)
        advisor = None
        if config.seats.hints:
            level = Level.parse(config.seats.hint_level)
            advisor = gnubg_advisor(level, say=_say, timeout=config.seats.timeout_s)
        # A seat whose engine cannot be opened (no gnubg) is a person in a new match.
        fresh = replace(
            match or config.match_record(),
            seats=(
                Seat.ENGINE if WHITE in engines else Seat.PERSON,
                Seat.ENGINE if BLACK in engines else Seat.PERSON,
            ),
        )
        session = new_session(
            config,
            seed=seed,
            records=records or Fresh(fresh),
            journal=journal,
            engines=engines,
            advisor=advisor,
        )
        stack.callback(session.close)

        def ready(address: Address) -> None:
            _say(f"bgpi sim: {address.url}")
            for url in address.urls[1:]:
                _say("bgpi sim: " + _("also {url}").format(url=url))
            if token is not None:
                _say("bgpi sim: " + _("bound to the network: every request needs the token above"))
            _say("bgpi sim: " + _("seed {seed}; Ctrl-C stops").format(seed=seed))
            if config.remote.club:
                from bgpi.remote.clubpost import ClubPoster  # noqa: PLC0415 (a club only)
                from bgpi.remote.commands import board_name, broker_of  # noqa: PLC0415

                broker = broker_of(config, None)
                poster = ClubPoster(
                    broker, config.remote.club, board=board_name(), link=address.mat_link
                )
                stack.callback(poster.close)
                session.watchers.append(lambda sim: poster.watch(sim.table, journal))

        with suppress(KeyboardInterrupt):  # Ctrl-C is how it stops
            asyncio.run(serve_sim(session, host=host, port=port, token=token, ready=ready))
    return 0


def _say(text: str) -> None:
    print(text, flush=True)  # at once, even into a pipe: the address is what one waits for


class SimServer:
    """:func:`serve_sim` on a thread of its own, as a context manager; :meth:`call` runs a
    function on the session's thread (the only one that may touch it)."""

    def __init__(self, session: SimSession, *, host: str = "127.0.0.1", port: int = 0) -> None:
        self.session = session
        self.host = host
        self.port = port
        self.token = None if is_loopback(host) else new_token()
        self._address: Address | None = None
        self._thread: LoopThread | None = None
        self._stop: asyncio.Event | None = None

    @property
    def address(self) -> Address:
        if self._address is None:
            raise RuntimeError("the server has not started: use it in a with block")
        return self._address

    @property
    def url(self) -> str:
        return self.address.url

    def __enter__(self) -> Self:
        self._thread = thread = LoopThread("bgpi-sim")
        started = threading.Event()

        def ready(address: Address) -> None:
            self._address = address
            started.set()

        async def main() -> None:
            self._stop = asyncio.Event()
            await serve_sim(
                self.session,
                host=self.host,
                port=self.port,
                token=self.token,
                ready=ready,
                stop=self._stop,
            )

        self._serving = thread.submit(main())
        self._serving.add_done_callback(lambda _future: started.set())  # it failed to start
        started.wait(START_TIMEOUT)
        if self._address is None:
            thread.close()
            self._thread = None
            if self._serving.done():
                self._serving.result()  # raises what stopped it
            raise RuntimeError(f"the page did not start within {START_TIMEOUT} s")
        return self

    def call(self, function: Callable[[SimSession], T]) -> T:
        """``function(session)`` on the session's thread; its result."""
        if self._thread is None:
            raise RuntimeError("the server has not started: use it in a with block")
        return self._thread.call(lambda: function(self.session))

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        thread, stop = self._thread, self._stop
        if thread is None:
            return
        if stop is not None:
            thread.soon(stop.set)
            self._serving.result(START_TIMEOUT)
        thread.close()
        self._thread = None
