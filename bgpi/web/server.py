"""The page's server: one port, one asyncio loop. Plain HTTP GETs fetch the page, its two
files and the ``.mat``; a WebSocket at ``/ws`` carries the live messages of
:mod:`bgpi.web.view` to the page and the simulator's hands back (:mod:`bgpi.web.session`).

The hub never touches the table. Whoever owns it publishes :class:`Snapshot` values on the
hub's loop, and commands from the page go to a :class:`Controller` on that same loop; without
one (the companion of a real board) every command is refused.
"""

from __future__ import annotations

import email.utils
import http
import json
import logging
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from importlib import resources
from typing import Final, Protocol

from websockets.asyncio.server import Server, ServerConnection, broadcast, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from bgpi.journal.export import MatExportError, export_mat
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


class CommandError(ValueError):
    """A command from the page that cannot be done: the message goes back to the page."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What changed for the page: each part None when unchanged."""

    state: Mapping[str, object] | None = None
    frame: Mapping[str, object] | None = None
    records: Sequence[Record] | None = None  # the current match's, for the .mat


class Controller(Protocol):
    """The owner of a table the page may play (the simulator)."""

    def command(self, message: Mapping[str, object]) -> None:
        """Do what the page asks, or raise :class:`CommandError`."""
        ...

    def snapshot(self) -> Snapshot:
        """What changed since the last snapshot."""
        ...

    def let_go(self) -> None:
        """The last page closed: put down what its hands held."""
        ...


class Hub:
    """Serves the page and fans the owner's snapshots out to every open page."""

    def __init__(
        self,
        layout: Mapping[str, object],
        *,
        token: str | None = None,
        controller: Controller | None = None,
    ) -> None:
        self.layout = json.dumps(layout, separators=(",", ":"))
        self.token = token
        self.controller = controller
        self.guard = Guard(token, 0)
        self.clients: set[ServerConnection] = set()
        self.state: str | None = None
        self.frame: str | None = None
        self.records: tuple[Record, ...] = ()
        self._files = {path: _read(name) for path, (name, _) in FILES.items()}

    # -- publishing (on the hub's loop) -------------------------------------------------------

    def publish(self, snapshot: Snapshot) -> None:
        """Send what changed to every page."""
        if snapshot.records is not None:
            self.records = tuple(snapshot.records)
        if snapshot.state is not None:
            self.state = self._send(snapshot.state, self.state)
        if snapshot.frame is not None:
            self.frame = self._send(snapshot.frame, self.frame)

    def _send(self, message: Mapping[str, object], last: str | None) -> str:
        """``message`` as JSON, sent to every page unless it is the one they have."""
        encoded = json.dumps(message, separators=(",", ":"))
        if encoded != last:
            broadcast(self.clients, encoded)
        return encoded

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
        # Added and sent the current messages in one go, with no await between: a publish
        # can then neither be missed nor arrive before the layout.
        self.clients.add(connection)
        for text in (self.layout, self.state, self.frame):
            if text is not None:
                broadcast({connection}, text)
        try:
            async for message in connection:
                await self._command(connection, message)
        except ConnectionClosed:
            pass
        finally:
            self.clients.discard(connection)
            if not self.clients and self.controller is not None:
                self.controller.let_go()
                self.publish(self.controller.snapshot())

    async def _command(self, connection: ServerConnection, message: str | bytes) -> None:
        if self.controller is None:
            await _error(connection, "this page only shows the board: play on the board itself")
            return
        try:
            data = json.loads(message)
            if not isinstance(data, dict):
                raise CommandError(f"a command is a JSON object, not {message!r:.60}")
            self.controller.command(data)
        except (CommandError, json.JSONDecodeError) as exc:
            await _error(connection, str(exc))
        self.publish(self.controller.snapshot())

    def _process_request(self, connection: ServerConnection, request: Request) -> Response | None:
        """Every request passes here first: refused, served as a file, or (None) on to the
        WebSocket handshake."""
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
            text = export_mat(self.records)
        except MatExportError as exc:
            log.warning("cannot export the match: %s", exc)
            return _response(http.HTTPStatus.INTERNAL_SERVER_ERROR, f"bgpi: {exc}\n")
        response = _response(http.HTTPStatus.OK, text, "text/plain; charset=utf-8")
        response.headers["Content-Disposition"] = 'attachment; filename="bgpi-match.mat"'
        return response


async def _error(connection: ServerConnection, message: str) -> None:
    text = json.dumps({"type": "error", "message": message})
    with suppress(ConnectionClosed):  # the page has gone: nobody to tell
        await connection.send(text)


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
