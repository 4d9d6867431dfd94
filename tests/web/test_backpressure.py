"""The page under load: however fast the table changes and however slowly pages read, what
the server holds for them stays bounded, a page that is behind gets the newest state, a page
that reads nothing is closed, and a fresh page is still answered.

The first test is the server alone, fed a new state every millisecond or so through the
companion's :class:`~bgpi.web.threads.Mailbox`; the second is the issue's own case:
``bgpi run --self-play`` with 200 pages open, half never reading."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import queue
import re
import socket
import subprocess
import sys
import threading
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO, Any, TypeVar

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from bgpi.web.server import Hub, Snapshot
from bgpi.web.threads import LoopThread, Mailbox

PAD = "x" * 4000  # a state about the size of a real one
BOUND = 60.0  # seconds: generous bounds on waits, never a measure of speed
T = TypeVar("T")


def apart(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)`` on a thread of its own: once a page test has started the
    session's browser, Playwright's sync API keeps an event loop running on this one."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, main).result()


@contextmanager
def hub_serving(hub: Hub) -> Iterator[tuple[LoopThread, int]]:
    """``hub`` serving on 127.0.0.1 on a loop thread of its own; (the thread, the port)."""
    thread = LoopThread("test-hub")
    bound = threading.Event()
    stop = asyncio.Event()

    async def main() -> None:
        async with hub.serve("127.0.0.1", 0):
            bound.set()
            await stop.wait()

    serving = thread.submit(main())
    assert bound.wait(10)
    try:
        yield thread, hub.guard.port
    finally:
        thread.soon(stop.set)
        serving.result(BOUND)
        thread.close()


async def silent_page(port: int) -> ClientConnection:
    """A page that reads nothing: its own receive buffer is small and the library stops
    reading the socket once one message waits."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    return await connect(
        f"ws://127.0.0.1:{port}/ws",
        sock=sock,
        proxy=None,
        max_size=None,
        max_queue=1,
        ping_interval=None,
        open_timeout=BOUND,
    )


def state(number: int) -> dict[str, object]:
    return {"type": "state", "number": number, "pad": PAD}


def test_pages_behind_get_the_newest_state_and_a_page_that_reads_nothing_is_closed(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, "bgpi.web")
    hub = Hub({"type": "layout"})
    hub.slow_after = 2.0
    with hub_serving(hub) as (thread, port):
        mailbox: Mailbox[Snapshot] = Mailbox(thread, hub.publish, Snapshot.then)
        published = 0
        backlogs: list[int] = []

        def publish_until(done: threading.Event) -> None:
            # Ten new states each millisecond or so: far faster than the slow page reads
            # them, even on a machine so busy that this thread wakes seldom (one at a time,
            # a starved publisher once fell behind the page and it saw every state).
            nonlocal published
            while not done.wait(0.001):
                for _ in range(10):
                    published += 1
                    mailbox.put(Snapshot(state=state(published)))

        async def run() -> tuple[list[int], tuple[int | None, str | None]]:
            silent = [await silent_page(port) for _ in range(3)]
            async with connect(f"ws://127.0.0.1:{port}/ws", proxy=None, max_size=None) as slow:
                done = threading.Event()
                publisher = threading.Thread(target=publish_until, args=(done,))
                publisher.start()
                seen: list[int] = []
                try:
                    # The slow page reads a state every 10 ms or so (slower than they come),
                    # until the silent pages have been closed; the server's backlog is
                    # sampled all along.
                    while len(thread.call(lambda: hub.pages)) > 1:
                        message = json.loads(await asyncio.wait_for(slow.recv(), BOUND))
                        if message["type"] == "state":
                            seen.append(message["number"])
                        backlogs.append(thread.call(hub.backlog))
                        await asyncio.sleep(0.01)
                finally:
                    done.set()
                    publisher.join()
                # A silent page was closed with a reason, which it reads if it reads again
                # (within the close's timeout: then the connection is cut).
                with pytest.raises(ConnectionClosed):
                    while True:
                        await asyncio.wait_for(silent[0].recv(), BOUND)
                for page in silent[1:]:  # the others need not wait for the close to time out
                    page.transport.abort()
                # Once publishing stops, the slow page is given the very last state.
                while not seen or seen[-1] != published:
                    message = json.loads(await asyncio.wait_for(slow.recv(), BOUND))
                    seen.append(message["number"])
            return seen, (silent[0].close_code, silent[0].close_reason)

        seen, closed_with = apart(run())

    assert closed_with == (1013, "too slow: fell behind")
    assert seen == sorted(set(seen))  # in order, each once, never an old one after a newer
    assert len(seen) < published  # states the page was behind on were skipped: the newest won
    # Four pages at most: per page the socket's buffer, and a message of each kind waiting.
    message = len(json.dumps(state(published)))
    assert max(backlogs) <= 4 * (2**15 + 4 * message)
    closed = [r.getMessage() for r in caplog.records if "closed a page" in r.getMessage()]
    assert len(closed) == 3, closed


# -- the case: 200 pages on `bgpi run --self-play` ------------------------------------

PAGES = 200
RECORDS = 150  # journaled during the flood, before the fresh page is asked for
GROWTH_MB = 60  # the server's RSS may grow this much at most (it grew 250 MB unbounded)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no VmRSS for process {pid}")


def pumped(stream: IO[str] | None, lines: queue.Queue[str | None]) -> None:
    """Each line of ``stream`` put in ``lines`` as it comes; None at its end."""

    def pump() -> None:
        assert stream is not None
        for line in stream:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()


def collected(stream: IO[str] | None, lines: list[str]) -> None:
    """Each line of ``stream`` appended to ``lines`` as it comes."""

    def collect() -> None:
        assert stream is not None
        for line in stream:
            lines.append(line)

    threading.Thread(target=collect, daemon=True).start()


async def reading_page(port: int) -> None:
    """A page that reads everything, until the service stops."""
    with suppress(ConnectionClosed):
        async with connect(f"ws://127.0.0.1:{port}/ws", proxy=None, max_size=None) as page:
            async for _message in page:
                pass


async def first_state(port: int) -> dict[str, object]:
    async with connect(
        f"ws://127.0.0.1:{port}/ws", proxy=None, max_size=None, open_timeout=BOUND
    ) as page:
        kinds = []
        while True:
            message = json.loads(await page.recv())
            kinds.append(message["type"])
            if message["type"] == "state":
                assert kinds[0] == "layout"
                return dict(message)


def test_two_hundred_pages_during_self_play_leave_the_page_answering_in_bounded_memory(
    tmp_path: Path,
) -> None:
    config = tmp_path / "bgpi.toml"
    config.write_text("[web]\nport = 0\n", encoding="utf-8")
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "bgpi", "run", "--self-play", "--seed", "7"),
            *("--config", str(config), "--state-dir", str(tmp_path / "state")),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    out: queue.Queue[str | None] = queue.Queue()
    err: list[str] = []
    pumped(process.stdout, out)
    collected(process.stderr, err)
    try:
        port = 0
        while not port:
            line = out.get(timeout=BOUND)
            assert line is not None, "bgpi run ended before serving the page"
            found = re.search(r"the companion page is at http://127\.0\.0\.1:(\d+)/", line)
            port = int(found.group(1)) if found else 0

        rss = [rss_mb(process.pid)]  # sampled at each record journaled

        async def journaled(count: int) -> None:
            while count > 0:
                line = await asyncio.to_thread(out.get, timeout=BOUND)
                assert line is not None, "bgpi run ended during the flood"
                count -= not line.startswith("bgpi run:")
                rss.append(rss_mb(process.pid))

        def closed() -> int:
            return sum("closed a page" in line for line in err)

        async def flood() -> dict[str, object]:
            readers = [asyncio.create_task(reading_page(port)) for _ in range(PAGES // 2)]
            silent = [await silent_page(port) for _ in range(PAGES // 2)]
            rss.append(rss_mb(process.pid))
            await journaled(RECORDS)
            # A fresh page is answered while the others flood, in a bounded wait.
            fresh = await asyncio.wait_for(first_state(port), BOUND)
            # Every silent page is closed, the match going on meanwhile.
            async with asyncio.timeout(2 * BOUND):
                while closed() < len(silent):
                    await journaled(1)
            for page in silent:
                page.transport.abort()
            process.terminate()
            await asyncio.wait_for(asyncio.gather(*readers), BOUND)
            return fresh

        fresh = apart(flood())
        assert process.wait(BOUND) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert fresh["type"] == "state" and fresh["phase"]
    connected, peak = rss[1], max(rss)  # rss[0] was before the pages
    assert peak - connected <= GROWTH_MB, f"RSS {rss[0]:.0f} MB, then {connected:.0f}, {peak:.0f}"
    assert not [line for line in err if "Traceback" in line or "ERROR" in line], err
