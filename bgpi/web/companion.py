"""The companion page of a real board (``bgpi run``): the live board, score, log, gnubg's
analysis of the match and export, read-only.

The app's loop owns the table. After each step it calls the companion (on its own thread),
which builds a snapshot only when the table or the frame changed (cheap values: the table is
immutable, the frame a tuple) and hands it to the server's loop, on a thread of its own,
through a :class:`~bgpi.web.threads.Mailbox`: snapshots that come faster than the loop takes
them are merged (the latest state wins), so a busy table never queues work on the page. The
server never reads the table, and every command from the page is refused but one: while
dice thrown by hand are entered, the phone may enter them (:mod:`bgpi.web.entry`), posted to
the app's loop as an event.

In a remote match (``[remote]``) the page also shows the match code, as text and as a QR
code (for the other player's phone), and the link's state: connected, waiting for the other
board, the broker gone, or paused because of a cheat and why.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from bgpi.base.words import RGB
from bgpi.journal.export import MatHeader
from bgpi.journal.records import Record
from bgpi.journal.store import Journal
from bgpi.present.gamelog import current_match
from bgpi.service.config import Config
from bgpi.service.driver import Driver
from bgpi.table import DiceRolled, Table
from bgpi.web.auth import is_loopback, new_token
from bgpi.web.entry import READ_ONLY, EntryOnly
from bgpi.web.linkview import remote_message
from bgpi.web.run import DEFAULT_PORT, START_TIMEOUT, Address
from bgpi.web.server import Hub, PageCommandError, Snapshot
from bgpi.web.threads import LoopThread, Mailbox
from bgpi.web.view import board_of_table, frame_message, layout_message, state_message

if TYPE_CHECKING:
    from bgpi.remote.board import RemoteStatus

LOOPBACK: Final = "127.0.0.1"


class Companion:
    """Serves the read-only page for the table of an :class:`~bgpi.service.app.App`; pass it as the
    app's observer. Bound to a loopback address by default; to any other, with a token."""

    def __init__(self, config: Config, *, host: str = LOOPBACK, port: int = DEFAULT_PORT) -> None:
        self.config = config
        self.host = host
        self.port = port
        self.token = None if is_loopback(host) else new_token()
        layout = layout_message(
            config.ledmap, config.geometry, config.style, "companion", sound=config.sound.enabled
        )
        # Told the dice a phone enters (bgpi.web.entry), for the app's loop; None: refused.
        self.post: Callable[[DiceRolled], None] | None = None
        entry = EntryOnly(lambda: self._table, self._post, time.monotonic)
        # States stamped with the time the app's events carry (time.monotonic), as they go.
        self.hub = Hub(layout, token=self.token, controller=entry, now=time.monotonic)
        self.address: Address | None = None
        self._thread: LoopThread | None = None
        self._mailbox: Mailbox[Snapshot] | None = None
        self._stop: asyncio.Event | None = None
        self._table: Table | None = None
        self._frame: tuple[RGB, ...] | None = None
        self._logged = -1  # records of the driver's log already published
        self._records: tuple[Record, ...] = ()
        self._analysis: list[str] = []
        # A remote match's state, read on the app's loop (App.remote_status), if it has one.
        self.remote: Callable[[], RemoteStatus | None] | None = None
        self._status: RemoteStatus | None = None

    def start(self) -> Address:
        """Start serving; the address, once the port is bound."""
        self._thread = thread = LoopThread("bgpi-web")
        self._mailbox = Mailbox(thread, self.hub.publish, Snapshot.then)
        bound = threading.Event()

        async def main() -> None:
            self._stop = asyncio.Event()
            async with self.hub.serve(self.host, self.port):
                self.address = Address(self.host, self.hub.guard.port, self.token)
                bound.set()
                await self._stop.wait()

        self._serving = thread.submit(main())
        self._serving.add_done_callback(lambda _future: bound.set())
        bound.wait(START_TIMEOUT)
        if self.address is None:
            self.close()
            if self._serving.done():
                self._serving.result()  # raises why it could not bind
            raise RuntimeError(f"the companion page did not start within {START_TIMEOUT} s")
        return self.address

    def __call__(self, driver: Driver, journal: Journal) -> None:
        """After each step of the app's loop, on its thread: publish what changed."""
        if self._mailbox is None:
            return
        table, frame = driver.table, driver.frame
        status = self.remote() if self.remote is not None else None
        if table is self._table and frame is self._frame and status == self._status:
            return
        state = None
        records: tuple[Record, ...] | None = None
        header = None
        if table is not self._table or status != self._status:
            self._status = status
            self._table = table
            if len(driver.log) != self._logged:  # a new record: read the match back
                self._logged = len(driver.log)
                records = self._records = current_match(journal.records())
                header = MatHeader.journaled(journal, self.config.players.site)
                self._analysis = _analysis_lines(journal)
            board = board_of_table(table, self.config.geometry)
            state = {
                **state_message(table, board, self._records, cues=driver.heard),
                "analysis": self._analysis,
            }
            if status is not None:
                state["remote"] = remote_message(status)
        frame_part = None
        if frame is not self._frame:
            self._frame = frame
            frame_part = frame_message(frame)
        self._mailbox.put(Snapshot(state, frame_part, records, header))

    def _post(self, rolled: DiceRolled) -> None:
        if self.post is None:
            raise PageCommandError(READ_ONLY)
        self.post(rolled)

    def close(self) -> None:
        """Stop serving (closing twice is harmless)."""
        thread, stop = self._thread, self._stop
        self._thread = self._mailbox = None
        if thread is None:
            return
        if stop is not None:
            thread.soon(stop.set)
            if not self._serving.done():
                self._serving.result(START_TIMEOUT)
        thread.close()


def _analysis_lines(journal: Journal) -> list[str]:
    """gnubg's ratings of the current match so far, as stored after its last analysed game
    (read again with each new record; an analysis finishing later shows at the next one)."""
    from bgpi.engine.analysis import AnalysisStore, report  # noqa: PLC0415 (not on the way to ready)

    matches = journal.matches()
    if not matches:
        return []
    analysis = AnalysisStore(journal.path).latest(matches[-1].id)
    return report(analysis) if analysis is not None else []
