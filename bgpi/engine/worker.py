"""The engine's thread in the shell: the table's asks are answered off the event loop's
thread, so the board keeps reading the sensors and blinking (and the simulator's page keeps
answering) while gnubg thinks.

The loop hands each :class:`~bgpi.table.DecisionRequest` with the (immutable) table it was
asked from; the worker asks the seat's engine and posts the answer back into the loop's queue
as an event (:class:`~bgpi.table.Decided` or :class:`~bgpi.table.Chosen`, made by
:func:`~bgpi.table.seats.answered`: before its roll an engine that would resign offers it).
A person's :class:`~bgpi.table.HintRequest` goes the same way to the :class:`Advisor` and
comes back as a :class:`~bgpi.table.Hinted`. An answer the table can no longer take (it
moved on) is refused by the table like any other. The engine's own time limit stops a hung
gnubg; a failure is said and asked once more of the restarted engine; a second failure is
said and the question left unanswered.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping

from bgpi.base.words import Player
from bgpi.engine.api import EngineError
from bgpi.engine.hints import Advisor
from bgpi.engine.seat import EngineSeat
from bgpi.table import Chosen, Decided, DecisionRequest, Hinted, HintRequest, Table
from bgpi.table.seats import SeatAnswer, answered

log = logging.getLogger(__name__)

Answer = Decided | Chosen | Hinted
Job = tuple[DecisionRequest | HintRequest, Table]


class EngineWorker:
    """One thread answering for the engine seats in ``seats`` (player -> seat) and, with an
    ``advisor``, the hints people at this board ask for."""

    def __init__(
        self,
        seats: Mapping[Player, EngineSeat],
        post: Callable[[Answer], None],
        *,
        advisor: Advisor | None = None,
        clock: Callable[[], float] = time.monotonic,
        say: Callable[[str], None] = log.warning,
    ) -> None:
        self.seats, self.post, self.clock, self.say = dict(seats), post, clock, say
        self.advisor = advisor
        self._asks: queue.Queue[Job | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="bgpi-engine", daemon=True)
        self._thread.start()

    def ask(self, request: DecisionRequest, table: Table) -> None:
        """Called on the loop's thread: queue the question, return at once."""
        if request.player in self.seats:
            self._asks.put((request, table))

    def hint(self, request: HintRequest, table: Table) -> None:
        """Called on the loop's thread: queue the hint asked for, return at once."""
        if self.advisor is not None:
            self._asks.put((request, table))

    def idle(self) -> None:
        """Wait until every question queued so far is answered (for tests and benchmarks)."""
        self._asks.join()

    def close(self, timeout: float = 5.0) -> None:
        """Stop the thread (after the question in hand) and close the engines; idempotent."""
        if self._thread.is_alive():
            self._asks.put(None)
            self._thread.join(timeout)
        for seat in self.seats.values():
            seat.engine.close()
        if self.advisor is not None:
            self.advisor.close()

    def _run(self) -> None:
        while (item := self._asks.get()) is not None:
            try:
                self._do(*item)
            finally:
                self._asks.task_done()
        self._asks.task_done()

    def _do(self, request: DecisionRequest | HintRequest, table: Table) -> None:
        if isinstance(request, HintRequest):
            assert self.advisor is not None  # only queued with one
            self.post(self.advisor(request, table, self.clock()))
            return
        answer = self._answer(request, table)
        if answer is not None:
            self.post(answered(request.player, answer, self.clock()))

    def _answer(self, request: DecisionRequest, table: Table) -> SeatAnswer | None:
        seat = self.seats[request.player]
        try:
            answer = seat(request, table)
            return answer if answer is not None else seat(request, table)
        except EngineError as exc:
            self.say(f"{seat.engine.name} failed twice: {exc}; the seat is not answered")
            return None
