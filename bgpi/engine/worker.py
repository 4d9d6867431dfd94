"""The engine's thread in the shell: the table's asks are answered off the event loop's
thread, so the board keeps reading the sensors and blinking while gnubg thinks.

The loop hands each :class:`~bgpi.table.DecisionRequest` with the (immutable) table it was
asked from; the worker asks the seat's engine and posts the answer back into the loop's queue
as an event (:class:`~bgpi.table.Decided` or :class:`~bgpi.table.Chosen`). An answer the
table can no longer take (it moved on) is refused by the table like any other. The engine's
own time limit stops a hung gnubg; a failure is said and asked once more of the restarted
engine; a second failure is said and the question left unanswered.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping

from bgpi.engine.api import EngineError
from bgpi.engine.seat import EngineSeat
from bgpi.rules import Move
from bgpi.table import Chosen, Decided, DecisionRequest, Intent, Table

log = logging.getLogger(__name__)

Answer = Decided | Chosen


class EngineWorker:
    """One thread answering for the engine seats in ``seats`` (player -> seat)."""

    def __init__(
        self,
        seats: Mapping[int, EngineSeat],
        post: Callable[[Answer], None],
        *,
        clock: Callable[[], float] = time.monotonic,
        say: Callable[[str], None] = log.warning,
    ) -> None:
        self.seats, self.post, self.clock, self.say = dict(seats), post, clock, say
        self._asks: queue.Queue[tuple[DecisionRequest, Table] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="bgpi-engine", daemon=True)
        self._thread.start()

    def ask(self, request: DecisionRequest, table: Table) -> None:
        """Called on the loop's thread: queue the question, return at once."""
        if request.player in self.seats:
            self._asks.put((request, table))

    def close(self, timeout: float = 5.0) -> None:
        """Stop the thread (after the question in hand) and close the engines; idempotent."""
        if self._thread.is_alive():
            self._asks.put(None)
            self._thread.join(timeout)
        for seat in self.seats.values():
            seat.engine.close()

    def _run(self) -> None:
        while (item := self._asks.get()) is not None:
            request, table = item
            answer = self._answer(request, table)
            if isinstance(answer, Intent):
                self.post(Decided(request.player, answer, self.clock()))
            elif answer is not None:
                self.post(Chosen(request.player, answer, self.clock()))

    def _answer(self, request: DecisionRequest, table: Table) -> Intent | tuple[Move, ...] | None:
        seat = self.seats[request.player]
        try:
            answer = seat(request, table)
            return answer if answer is not None else seat(request, table)
        except EngineError as exc:
            self.say(f"{seat.engine.name} failed twice: {exc}; the seat is not answered")
            return None
