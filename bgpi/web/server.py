"""The page's server: one port, one asyncio loop. Plain HTTP GETs fetch the page, its two
files and the ``.mat``; a WebSocket at ``/ws`` carries the live messages of
:mod:`bgpi.web.view` to the page and the simulator's hands back (:mod:`bgpi.web.session`).

The hub never touches the table. Whoever owns it publishes :class:`Snapshot` values on the
hub's loop, and commands from the page go to a :class:`Controller` on that same loop; without
one (the companion of a real board) every command is refused.

However fast the table changes and however slowly a page reads, what waits for each page is
bounded: one :class:`Outbox` per page holds at most the newest message of each kind (a state
not yet sent is replaced by a newer one: a page that is behind gets the latest state, not
every state), its own task sends them one at a time as the socket drains, and a page that has
not taken a message in :data:`SLOW_AFTER` seconds is closed (it reconnects, and starts from
the newest state).

A state waits composed as the table's step left it, so what it says of time would be stale by
the time it goes: a page that connects mid-move gets the state composed when the move began.
So each state is stamped as it is sent with ``sent``, the table's time then (the owner's
clock, the one the table's events carry), and the page counts the running clock on from
there (``clock.at`` in :func:`~bgpi.web.view.clock_message` is when its figures were true).
"""

from __future__ import annotations

import asyncio
import email.utils
import enum
import http
import json
import logging
import re
import socket
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from importlib import resources
from typing import Final, Protocol

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.frames import CloseCode
from websockets.http11 import Request, Response

from bgpi.base.errors import BgpiError
from bgpi.journal.export import MatExportError, MatHeader, export_mat
from bgpi.journal.records import Record
from bgpi.web.addresses import phone_host
from bgpi.web.auth import Guard
from bgpi.web.qr import QrError, qr_svg

log = logging.getLogger("bgpi.web")

FILES: Final = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/sound.js": ("sound.js", "text/javascript; charset=utf-8"),
    "/style.css": ("style.css", "text/css; charset=utf-8"),
}
MAT_PATH: Final = "/match.mat"
QR_PATH: Final = "/qr.svg"
SOCKET_PATH: Final = "/ws"
MAX_MESSAGE: Final = 4096  # the page's commands are a few dozen bytes
MAX_DEPTH: Final = 4  # a command is a flat object; a few levels spare
SLOW_AFTER: Final = 10.0  # seconds a page may leave one message untaken before it is closed
# The kernel's buffer for each page's socket (the kernel doubles it): a few states, so a page
# that stops reading is found in seconds, and holds little memory even in the kernel.
SEND_BUFFER: Final = 32 * 1024
CLOSE_TIMEOUT: Final = 10.0  # seconds a page closed as too slow has to read the close
# Headers a request may carry once only: with two, which one the checks read is a guess.
_SINGLE_HEADERS: Final = ("host", "origin", "cookie", "upgrade")

# Everything comes from this server: no CDN (the board has no internet), no inline script.
_SECURITY_HEADERS: Final = (
    (
        "Content-Security-Policy",
        "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
        "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    ),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("Cache-Control", "no-store"),
)


class PageCommandError(BgpiError, ValueError):
    """A command from the page that cannot be done: the message goes back to the page."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What changed for the page: each part None when unchanged."""

    state: Mapping[str, object] | None = None
    frame: Mapping[str, object] | None = None
    records: Sequence[Record] | None = None  # the current match's, for the .mat
    header: MatHeader | None = None  # the .mat's header lines, as `bgpi export` writes them

    def then(self, newer: Snapshot) -> Snapshot:
        """This snapshot and a newer one as one: each part the newer's where it has one."""
        return Snapshot(
            newer.state if newer.state is not None else self.state,
            newer.frame if newer.frame is not None else self.frame,
            newer.records if newer.records is not None else self.records,
            newer.header if newer.header is not None else self.header,
        )


class Kind(enum.Enum):
    """The kinds of message a page is sent; of each, only the newest waits."""

    LAYOUT = "layout"
    STATE = "state"
    FRAME = "frame"
    ERROR = "error"


class Outbox:
    """What waits to go to one page: at most one message of each kind, the newest, in the
    order the kinds first came (the layout first)."""

    __slots__ = ("_ready", "_waiting", "connection")

    def __init__(self, connection: ServerConnection) -> None:
        self.connection = connection
        self._waiting: dict[Kind, str] = {}
        self._ready = asyncio.Event()

    def put(self, kind: Kind, text: str) -> None:
        self._waiting[kind] = text  # a message of that kind not yet sent is replaced
        self._ready.set()

    async def next(self) -> tuple[Kind, str]:
        """The oldest waiting message and its kind, once there is one."""
        while not self._waiting:
            self._ready.clear()
            await self._ready.wait()
        kind = next(iter(self._waiting))
        return kind, self._waiting.pop(kind)

    def backlog(self) -> int:
        """Bytes waiting for this page: the messages not yet sent and the socket's buffer."""
        transport = self.connection.transport
        buffered = transport.get_write_buffer_size() if not transport.is_closing() else 0
        return buffered + sum(len(text) for text in self._waiting.values())


class Controller(Protocol):
    """The owner of a table the page may play (the simulator)."""

    def command(self, message: Mapping[str, object]) -> None:
        """Do what the page asks, or raise :class:`PageCommandError`."""
        ...

    def snapshot(self) -> Snapshot:
        """What changed since the last snapshot."""
        ...

    def let_go(self) -> None:
        """The last page closed: put down what its hands held."""
        ...


class Hub:
    """Serves the page and fans the owner's snapshots out to every open page. With ``now``
    (the table's time, on the hub's loop), each state is stamped with it as it is sent."""

    def __init__(
        self,
        layout: Mapping[str, object],
        *,
        token: str | None = None,
        controller: Controller | None = None,
        now: Callable[[], float] | None = None,
    ) -> None:
        self.layout = json.dumps(layout, separators=(",", ":"))
        self.token = token
        self.controller = controller
        self.now = now
        self.guard = Guard(token, 0)
        self.slow_after = SLOW_AFTER
        self.pages: dict[ServerConnection, Outbox] = {}
        self.state: str | None = None
        self.frame: str | None = None
        self.records: tuple[Record, ...] = ()
        self.header: MatHeader | None = None
        self._files = {path: _read(name) for path, (name, _) in FILES.items()}

    # -- publishing (on the hub's loop) -------------------------------------------------------

    def publish(self, snapshot: Snapshot) -> None:
        """Send what changed to every page."""
        if snapshot.records is not None:
            self.records = tuple(snapshot.records)
        if snapshot.header is not None:
            self.header = snapshot.header
        if snapshot.state is not None:
            self.state = self._send(Kind.STATE, snapshot.state, self.state)
        if snapshot.frame is not None:
            self.frame = self._send(Kind.FRAME, snapshot.frame, self.frame)

    def _send(self, kind: Kind, message: Mapping[str, object], last: str | None) -> str:
        """``message`` as JSON, sent to every page unless it is the one they have."""
        encoded = json.dumps(message, separators=(",", ":"))
        if encoded != last:
            for outbox in self.pages.values():
                outbox.put(kind, encoded)
        return encoded

    def backlog(self) -> int:
        """Bytes waiting to go to the pages, on the hub's loop (bounded: see the module)."""
        return sum(outbox.backlog() for outbox in self.pages.values())

    # -- serving ------------------------------------------------------------------------------

    @asynccontextmanager
    async def serve(self, host: str, port: int) -> AsyncIterator[Server]:
        """Listen on ``host``:``port`` (0: any free port) while the block runs."""
        async with serve(
            self._connected,
            host,
            port,
            process_request=self._process_request,
            max_size=MAX_MESSAGE,
            server_header=None,
        ) as server:
            bound = server.sockets[0].getsockname()[1]
            self.guard = Guard(self.token, bound)
            yield server

    async def _connected(self, connection: ServerConnection) -> None:
        # Added and given the current messages in one go, with no await between: a publish
        # can then neither be missed nor arrive before the layout.
        sock = connection.transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        self.pages[connection] = outbox = Outbox(connection)
        outbox.put(Kind.LAYOUT, self.layout)
        for kind, text in ((Kind.STATE, self.state), (Kind.FRAME, self.frame)):
            if text is not None:
                outbox.put(kind, text)
        writer = asyncio.create_task(self._write(outbox))
        try:
            async for message in connection:
                self._command(outbox, message)
        except ConnectionClosed:
            pass
        finally:
            writer.cancel()
            self.pages.pop(connection, None)  # a page closed as too slow has gone already
            if not self.pages and self.controller is not None:
                self.controller.let_go()
                self.publish(self.controller.snapshot())

    async def _write(self, outbox: Outbox) -> None:
        """Send the page its messages one at a time, each once the socket has room: a page
        that takes none for :attr:`slow_after` seconds is closed."""
        connection = outbox.connection
        with suppress(ConnectionClosed):  # the page has gone: nobody to send to
            while True:
                kind, text = await outbox.next()
                if kind is Kind.STATE and self.now is not None:
                    text = stamped(text, self.now())
                try:
                    async with asyncio.timeout(self.slow_after):
                        await connection.send(text)
                except TimeoutError:
                    del self.pages[connection]  # given nothing more from now on
                    log.warning(
                        "closed a page that took nothing for %g s (%s)",
                        self.slow_after,
                        _peer(connection),
                    )
                    await _drop(connection)
                    return

    def _command(self, outbox: Outbox, message: str | bytes) -> None:
        data = _command_of(message, outbox.connection)
        if data is None:
            return
        if self.controller is None:
            _error(outbox, "this page only shows the board: play on the board itself")
            return
        try:
            self.controller.command(data)
        except PageCommandError as exc:
            _error(outbox, str(exc))
        self.publish(self.controller.snapshot())

    def _process_request(self, connection: ServerConnection, request: Request) -> Response | None:
        """Every request passes here first: refused, served as a file, or (None) on to the
        WebSocket handshake."""
        twice = [name for name in _SINGLE_HEADERS if len(request.headers.get_all(name)) > 1]
        if twice:
            log.info("refused %s: two %s headers", request.path.split("?", 1)[0], twice[0])
            return _response(http.HTTPStatus.BAD_REQUEST, f"bgpi: two {twice[0]} headers\n")
        headers = {name.lower(): value for name, value in request.headers.raw_items()}
        path = request.path.split("?", 1)[0]
        refusal = self._refusal(request, path, headers)
        if refusal is not None:
            return refusal
        if path == SOCKET_PATH:
            return None
        if path == MAT_PATH:
            return self._mat()
        if path == QR_PATH:
            return self._qr(headers.get("host", ""))
        return self._file(path)

    def _refusal(self, request: Request, path: str, headers: dict[str, str]) -> Response | None:
        if getattr(request, "method", "GET") != "GET":  # older websockets parse GET only
            return _response(http.HTTPStatus.METHOD_NOT_ALLOWED, "only GET is served\n")
        websocket = path == SOCKET_PATH
        why = self.guard.refuse(request.path, headers, websocket=websocket)
        if why is not None:
            log.info("refused %s: %s", path, why)
            return _response(http.HTTPStatus.FORBIDDEN, f"bgpi: {why}\n")
        if websocket and headers.get("upgrade", "").lower() != "websocket":
            return _response(http.HTTPStatus.UPGRADE_REQUIRED, "a WebSocket goes here\n")
        return None

    def _file(self, path: str) -> Response:
        if path not in FILES:
            return _response(http.HTTPStatus.NOT_FOUND, f"no {path} here\n")
        response = _response(http.HTTPStatus.OK, self._files[path], FILES[path][1])
        cookie = self.guard.cookie()
        if path == "/" and cookie is not None:
            response.headers["Set-Cookie"] = cookie
        return response

    def _qr(self, host: str) -> Response:
        """The address with its token as a QR code, for a phone: the address this browser
        used where a phone can resolve it, else this machine's own. Only a network bind has
        one."""
        if self.token is None:
            return _response(http.HTTPStatus.NOT_FOUND, "no token here: the page is local\n")
        try:
            svg = qr_svg(f"http://{phone_host(host)}/?token={self.token}")
        except QrError as exc:
            return _response(http.HTTPStatus.NOT_FOUND, f"bgpi: {exc}\n")
        return _response(http.HTTPStatus.OK, svg, "image/svg+xml")

    def _mat(self) -> Response:
        if not self.records:
            return _response(http.HTTPStatus.NOT_FOUND, "no match has been played yet\n")
        try:
            text = export_mat(self.records, self.header)
        except MatExportError as exc:
            log.warning("cannot export the match: %s", exc)
            return _response(http.HTTPStatus.INTERNAL_SERVER_ERROR, f"bgpi: {exc}\n")
        response = _response(http.HTTPStatus.OK, text, "text/plain; charset=utf-8")
        response.headers["Content-Disposition"] = 'attachment; filename="bgpi-match.mat"'
        return response


def _command_of(message: str | bytes, connection: ServerConnection) -> dict[str, object] | None:
    """The command a frame from the page holds; None for one that is no command at all
    (binary, not JSON, nested past :data:`MAX_DEPTH`), ignored with one log line."""
    why = None
    if isinstance(message, bytes):
        why = f"a binary frame of {len(message)} bytes"
    elif _depth(message) > MAX_DEPTH:
        why = f"JSON nested deeper than {MAX_DEPTH}"
    else:
        try:
            data = json.loads(message)
        except ValueError:
            why = f"not JSON: {message!r:.60}"
        else:
            if isinstance(data, dict):
                return data
            why = f"not a JSON object: {message!r:.60}"
    log.warning("ignored a frame from %s: %s", _peer(connection), why)
    return None


_STRING: Final = re.compile(r'"(?:[^"\\]|\\.)*"?', re.DOTALL)


def _depth(text: str) -> int:
    """How deep the arrays and objects of JSON ``text`` nest (its strings left out)."""
    depth = deepest = 0
    for char in _STRING.sub("", text):
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


async def _drop(connection: ServerConnection) -> None:
    """Close a page that reads nothing, with the reason should it read again; the close
    waits behind what it has not read, so after :data:`CLOSE_TIMEOUT` its socket is cut."""
    try:
        async with asyncio.timeout(CLOSE_TIMEOUT):
            await connection.close(CloseCode.TRY_AGAIN_LATER, "too slow: fell behind")
    except TimeoutError:
        connection.transport.abort()


def _peer(connection: ServerConnection) -> str:
    address = connection.remote_address
    return f"{address[0]}:{address[1]}" if address else "a page"


def stamped(state: str, now: float) -> str:
    """A state's JSON with ``sent``: the table's time ``now``, as it goes to a page. Added to
    the text, not encoded again: a state is an object, so its JSON ends with its brace."""
    return f'{state[:-1]},"sent":{json.dumps(now)}}}'


def _error(outbox: Outbox, message: str) -> None:
    outbox.put(Kind.ERROR, json.dumps({"type": "error", "message": message}))


def _read(name: str) -> bytes:
    return (resources.files("bgpi.web") / "static" / name).read_bytes()


def _response(
    status: http.HTTPStatus, body: str | bytes, content_type: str = "text/plain; charset=utf-8"
) -> Response:
    data = body.encode() if isinstance(body, str) else body
    headers = Headers(
        [
            ("Date", email.utils.formatdate(usegmt=True)),
            ("Connection", "close"),
            ("Content-Type", content_type),
            ("Content-Length", str(len(data))),
            *_SECURITY_HEADERS,
        ]
    )
    return Response(status.value, status.phrase, headers, data)
