"""An asyncio loop on a thread of its own, for a server that runs beside another owner: the
companion beside the app's loop, the simulator's page beside a test or a script."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from concurrent.futures import Future
from contextlib import suppress
from typing import Any, Generic, TypeVar

T = TypeVar("T")

JOIN_TIMEOUT = 5.0


class LoopThread:
    """A daemon thread running an event loop until :meth:`close`."""

    def __init__(self, name: str) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_forever()
        finally:
            self.loop.close()

    def submit(self, coroutine: Coroutine[Any, Any, T]) -> Future[T]:
        """Run ``coroutine`` on the loop; its future, for any thread to wait on."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop)

    def call(self, function: Callable[[], T], timeout: float = JOIN_TIMEOUT) -> T:
        """Run ``function`` on the loop's thread and wait for its result."""

        async def run() -> T:
            return function()

        return self.submit(run()).result(timeout)

    def soon(self, function: Callable[[], object]) -> None:
        """Have the loop run ``function`` soon, from any thread, without waiting."""
        with suppress(RuntimeError):  # the loop has closed: nobody is left to show it to
            self.loop.call_soon_threadsafe(function)

    def close(self) -> None:
        """Stop the loop and wait for the thread (closing twice is harmless)."""
        if self._thread.is_alive():
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(JOIN_TIMEOUT)


class Mailbox(Generic[T]):
    """Values handed from any thread to a function on a loop's thread, merged while they wait:
    however fast they come, at most one call waits on the loop, and it takes the merge of all
    that came since the last (so a loop that falls behind skips to the newest, and nothing
    piles up)."""

    def __init__(
        self, thread: LoopThread, take: Callable[[T], object], merge: Callable[[T, T], T]
    ) -> None:
        self._thread = thread
        self._take = take
        self._merge = merge
        self._lock = threading.Lock()
        self._waiting: T | None = None

    def put(self, value: T) -> None:
        with self._lock:
            waiting = self._waiting
            self._waiting = value if waiting is None else self._merge(waiting, value)
        if waiting is None:  # else the call already waiting takes this one too
            self._thread.soon(self._deliver)

    def _deliver(self) -> None:
        with self._lock:
            value, self._waiting = self._waiting, None
        if value is not None:
            self._take(value)
