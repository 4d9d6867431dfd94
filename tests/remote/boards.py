"""Boards for the remote tests: ``bgpi demo --remote`` in its own process, and a peer driven
by hand (to cheat) from the test."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bgpi.base.words import Player
from bgpi.journal.export import export_mat
from bgpi.journal.records import MatchStarted, Record
from bgpi.journal.store import Journal
from bgpi.remote.broker import Broker
from bgpi.remote.pairing import Pairing
from bgpi.remote.session import Session
from bgpi.remote.transport import Message, match_transport
from bgpi.remote.wire import Body

CODE = "K7QDM-2PXWA"


class Board:
    """One ``bgpi demo --remote`` process and its state directory."""

    def __init__(self, url: str, side: str, state: Path, *, length: int = 2, code: str = CODE):
        self.url, self.side, self.state, self.length, self.code = url, side, state, length, code
        self.process: subprocess.Popen[str] | None = None

    def start(self, *extra: str) -> Board:
        command = [
            sys.executable, "-m", "bgpi", "demo", "--remote", self.url, "--match", self.code,
            "--side", self.side, "--seed", "5", "--length", str(self.length),
            "--state-dir", str(self.state), "--patience", "60", *extra,
        ]  # fmt: skip
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
        )
        return self

    def finish(self, timeout: float = 120) -> tuple[int, str, str]:
        assert self.process is not None
        out, err = self.process.communicate(timeout=timeout)
        return self.process.returncode, out, err

    def kill(self) -> str:
        """Kill the process at once; what it had said on stderr."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        return self.process.communicate(timeout=10)[1]

    def records(self) -> list[Record]:
        path = self.state / "journal.sqlite"
        if not path.exists():
            return []
        with Journal.open(path, read_only=True) as journal:  # the board may be writing it
            return journal.records() if journal.matches() else []

    def mat(self) -> str:
        return export_mat(self.records())

    def wait_for_records(self, count: int, timeout: float = 60) -> None:
        self.wait_for(lambda records: len(records) >= count, f"record {count}", timeout)

    def wait_for(
        self, done: Callable[[list[Record]], bool], what: str, timeout: float = 60
    ) -> None:
        end = time.monotonic() + timeout
        while not done(self.records()):
            assert self.process is not None and self.process.poll() is None, self.finish()
            assert time.monotonic() < end, f"{self.side} has not reached {what}"
            time.sleep(0.02)


class Peer:
    """A board's side of the protocol driven by the test, on the real broker."""

    def __init__(self, url: str, side: Player, match: MatchStarted, code: str = CODE) -> None:
        self.pairing = Pairing(code)
        self.session = Session(self.pairing, side, match)
        self.transport = match_transport(Broker.parse(url), self.pairing, side).open()

    def send(self, body: Body) -> None:
        self.publish(self.session.send(body))

    def publish(self, raw: bytes, *, side: Player | None = None) -> None:
        topic = self.pairing.topic(self.session.side if side is None else side)
        self.transport.publish(topic, raw)

    def until(self, done: Callable[[], bool], timeout: float = 30) -> None:
        """Take the other board's messages (answering hellos) until ``done()``."""
        end = time.monotonic() + timeout
        self.publish(self.session.hello(os.urandom(8).hex()))
        while not done():
            assert time.monotonic() < end, "the other board did not get there"
            for arrival in self.transport.poll(0.1):
                if isinstance(arrival, Message):
                    inbound = self.session.take(arrival.payload)
                    for seq in inbound.resend:
                        self.publish(self.session.sent[seq - 1])
                    if inbound.hello:
                        self.publish(self.session.hello(os.urandom(8).hex(), answer=True))

    def close(self) -> None:
        self.transport.close()
