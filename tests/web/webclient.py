"""Plain HTTP and WebSocket clients for the page's server, on the loopback only."""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from websockets.sync.client import ClientConnection, connect


def get(
    port: int, path: str, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    """GET ``path`` from 127.0.0.1:``port``: status, headers (lower-case names), body."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


def request(port: int, method: str, path: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request(method, path)
        return conn.getresponse().status
    finally:
        conn.close()


@contextmanager
def socket(port: int, query: str = "", **options: Any) -> Iterator[ClientConnection]:
    with connect(f"ws://127.0.0.1:{port}/ws{query}", proxy=None, open_timeout=10, **options) as ws:
        yield ws


def receive_until(
    ws: ClientConnection, wanted: Callable[[dict[str, Any]], bool], timeout: float = 10.0
) -> dict[str, Any]:
    """The first message for which ``wanted`` is true."""
    end = time.monotonic() + timeout
    while True:
        left = end - time.monotonic()
        if left <= 0:
            raise TimeoutError("the wanted message did not come")
        message: dict[str, Any] = json.loads(ws.recv(timeout=left))
        if wanted(message):
            return message


def send(ws: ClientConnection, **message: Any) -> None:
    ws.send(json.dumps(message))
