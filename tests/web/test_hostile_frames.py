"""What a stranger can send the page's server: a frame that is no command is ignored with
one log line (never a traceback, and the page stays open), and a request whose headers say
two things at once is refused."""

from __future__ import annotations

import logging
import socket as sockets
from collections.abc import Iterator

import pytest

from bgpi.service.config import Config
from bgpi.web.run import SimServer
from tests.web.started import started_session
from tests.web.webclient import receive_until, send, socket


@pytest.fixture
def server() -> Iterator[SimServer]:
    with SimServer(started_session(Config(), seed=23)) as running:
        yield running


def no_tracebacks(caplog: pytest.LogCaptureFixture) -> None:
    failed = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not failed, [r.getMessage() for r in failed]


@pytest.mark.parametrize(
    ("frame", "named"),
    [
        (b"\xff\xfe\x00\x9c not JSON at all", "a binary frame of 20 bytes"),
        (b'{"type": "press"}', "a binary frame of 17 bytes"),
        ("[" * 2000, "JSON nested deeper than"),
        ('{"type": "lift", "zone": ' + "[" * 1500 + "]" * 1500 + "}", "nested deeper"),
        ("{not json", "not JSON"),
        ("[1, 2]", "not a JSON object"),
    ],
)
def test_a_frame_that_is_no_command_is_ignored_with_one_log_line(
    server: SimServer, caplog: pytest.LogCaptureFixture, frame: str | bytes, named: str
) -> None:
    caplog.set_level(logging.INFO)
    before = server.call(lambda s: (s.sim.board.counts(), len(s.sim.driver.log)))
    with socket(server.address.port) as ws:
        receive_until(ws, lambda m: m["type"] == "state")
        ws.send(frame)
        # The page is still open and still answered: the next command gets its reply.
        send(ws, type="fly")
        error = receive_until(ws, lambda m: m["type"] == "error")
        assert "unknown command 'fly'" in error["message"]
    ignored = [r.getMessage() for r in caplog.records if "ignored a frame" in r.getMessage()]
    assert len(ignored) == 1 and named in ignored[0], ignored
    assert len(ignored[0]) < 200  # one line, not the frame
    no_tracebacks(caplog)
    assert server.call(lambda s: (s.sim.board.counts(), len(s.sim.driver.log))) == before


def raw_request(port: int, head: str) -> bytes:
    with sockets.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(head.encode())
        answer = b""
        while chunk := conn.recv(4096):
            answer += chunk
    return answer


def test_a_request_with_two_host_headers_is_refused(server: SimServer) -> None:
    port = server.address.port
    good = f"Host: 127.0.0.1:{port}\r\n"
    assert raw_request(port, f"GET / HTTP/1.1\r\n{good}\r\n").startswith(b"HTTP/1.1 200 ")
    for first, second in ((good, "Host: attacker.example\r\n"), ("Host: evil\r\n", good)):
        answer = raw_request(port, f"GET / HTTP/1.1\r\n{first}{second}\r\n")
        assert answer.startswith(b"HTTP/1.1 400 "), answer[:80]
        assert b"two host headers" in answer


def test_a_websocket_with_two_origin_headers_is_refused(server: SimServer) -> None:
    port = server.address.port
    head = (
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        f"Sec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:{port}\r\n"
        "Origin: http://evil.example\r\n\r\n"
    )
    assert raw_request(port, head).startswith(b"HTTP/1.1 400 ")
