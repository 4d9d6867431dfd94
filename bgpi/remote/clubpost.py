"""A board that serves its page publishes each match it finishes to its club.

Watched after each step of the loop that owns the table, and the journal read only when the
table's phase changed (a match ends in a step that changes it); published on a thread of its
own, so the loop never waits on the broker. A broker that is gone costs one log line, and
the match stays in the journal for ``bgpi export``. The match the journal holds finished
when the board starts is published again: the result's topic is its ID, so a second publish
replaces the first, and a power cut between the last game and the publish loses nothing. A
money session never finishes, so it is never published.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence

from bgpi.journal.export import MatHeader
from bgpi.journal.records import Record
from bgpi.journal.store import Journal
from bgpi.remote.broker import Broker
from bgpi.remote.club import publish_result
from bgpi.table import Phase, Table

log = logging.getLogger("bgpi")
JOIN_TIMEOUT = 15.0  # seconds a closing board waits for a publish under way


class ClubPoster:
    """Publishes to ``club`` on ``broker`` each match that ends, headed with ``board`` (the
    board's name) and ``link`` (its page's ``.mat``, or None where nobody else reaches it)."""

    def __init__(self, broker: Broker, club: str, *, board: str, link: str | None) -> None:
        self.broker, self.club, self.board, self.link = broker, club, board, link
        self._phase: Phase | None = None
        self._published: set[int] = set()
        self._threads: list[threading.Thread] = []

    def watch(self, table: Table, journal: Journal) -> None:
        """After a step: the journal's latest match, finished, is published (once)."""
        if table.phase is self._phase:
            return
        self._phase = table.phase
        matches = journal.matches()
        if not matches or not matches[-1].finished or matches[-1].id in self._published:
            return
        match_id = matches[-1].id
        self._published.add(match_id)
        records = journal.records(match_id)
        header = MatHeader.journaled(journal, self.board, match_id)
        thread = threading.Thread(
            target=self._publish, args=(records, header), name="bgpi-club", daemon=True
        )
        self._threads.append(thread)
        thread.start()

    def _publish(self, records: Sequence[Record], header: MatHeader) -> None:
        try:
            publish_result(self.broker, self.club, records, header, link=self.link)
        except (OSError, ValueError) as exc:  # the broker gone, refused, slow; too big
            log.warning("club %s: the result was not published: %s", self.club, exc)
            return
        log.info("published the result to club %s", self.club)

    def close(self) -> None:
        """Let a publish under way finish (closing twice is harmless)."""
        for thread in self._threads:
            thread.join(JOIN_TIMEOUT)
        self._threads.clear()
