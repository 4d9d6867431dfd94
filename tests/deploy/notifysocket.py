"""A fake systemd notify socket: a bound datagram socket that collects what a service sends."""

from __future__ import annotations

import socket
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class FakeNotifySocket:
    """What systemd listens on: ``$NOTIFY_SOCKET`` for a service, and the messages it got."""

    def __init__(self, sock: socket.socket, env_value: str) -> None:
        self.sock = sock
        self.env_value = env_value
        self.messages: list[tuple[float, str]] = []

    def receive(self, timeout: float) -> str | None:
        """The next message, or None if none comes within ``timeout`` seconds."""
        self.sock.settimeout(timeout)
        try:
            data = self.sock.recv(4096)
        except TimeoutError:
            return None
        message = data.decode()
        self.messages.append((time.monotonic(), message))
        return message

    def wait_for(self, line: str, timeout: float) -> list[str]:
        """Every message up to and including the first with ``line``; fails after ``timeout``."""
        seen: list[str] = []
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            message = self.receive(left)
            if message is None:
                break
            seen.append(message)
            if line in message.split("\n"):
                return seen
        raise AssertionError(f"no {line} within {timeout} s; got {seen}")

    def collect(self, seconds: float) -> list[str]:
        """Every message that arrives in the next ``seconds``."""
        seen: list[str] = []
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            message = self.receive(left)
            if message is not None:
                seen.append(message)
        return seen


@contextmanager
def fake_notify_socket(*, abstract: bool = False) -> Iterator[FakeNotifySocket]:
    """A notify socket on a short path (a socket path has at most 107 bytes, more than some
    pytest temporary directories leave), or in the abstract namespace."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    with tempfile.TemporaryDirectory(prefix="bgpi-") as directory:
        try:
            if abstract:
                name = f"bgpi-test-{Path(directory).name}"
                sock.bind(b"\0" + name.encode())
                value = "@" + name
            else:
                value = str(Path(directory) / "notify")
                sock.bind(value)
            yield FakeNotifySocket(sock, value)
        finally:
            sock.close()
