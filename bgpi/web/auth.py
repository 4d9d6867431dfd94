"""Who may use the page: a token for network binds, and the checks every request passes.

On 127.0.0.1 only this machine can connect, so no token is asked; the Host header must then
name the loopback address (a web page elsewhere cannot reach it through a DNS name that
resolves to 127.0.0.1), and a WebSocket's Origin must be the page's own (another site open in
the same browser cannot drive the board). Bound to a network, every request, the page's files,
the ``.mat`` and the WebSocket alike, carries the token as ``?token=`` or in the cookie the
page's first visit sets; without it the answer is 403 and nothing changes.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
from dataclasses import dataclass
from http.cookies import CookieError, SimpleCookie
from typing import Final
from urllib.parse import parse_qs, urlsplit

COOKIE: Final = "bgpi_token"
LOOPBACK_NAMES: Final = ("localhost", "127.0.0.1", "[::1]")


def is_loopback(host: str) -> bool:
    """Whether binding ``host`` keeps the page on this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a name: it may resolve to any interface


def new_token() -> str:
    """A token nobody can guess: 128 bits from the OS's CSPRNG."""
    return secrets.token_urlsafe(16)


@dataclass(frozen=True, slots=True)
class Guard:
    """The checks for one server: ``token`` (None on a loopback bind) and the ``port`` it
    listens on (the Host header of a loopback bind must name it)."""

    token: str | None
    port: int

    def refuse(self, path: str, headers: dict[str, str], *, websocket: bool) -> str | None:
        """Why a request may not be served, or None. ``headers`` by lower-case name."""
        if self.token is None:
            hosts = {f"{name}:{self.port}" for name in LOOPBACK_NAMES}
            if headers.get("host", "") not in hosts:
                return "this page answers on 127.0.0.1 only"
        elif not hmac.compare_digest(self.given(path, headers).encode(), self.token.encode()):
            return "this page needs its token: open the address bgpi printed"
        origin = headers.get("origin")
        if websocket and origin is not None and origin != f"http://{headers.get('host', '')}":
            return f"a WebSocket from {origin} is not this page's"
        return None

    @staticmethod
    def given(path: str, headers: dict[str, str]) -> str:
        """The token a request carries: in the query, else in the cookie ('' if none)."""
        query = parse_qs(urlsplit(path).query).get("token")
        if query:
            return query[0]
        try:
            cookie = SimpleCookie(headers.get("cookie", ""))
        except CookieError:
            return ""
        morsel = cookie.get(COOKIE)
        return morsel.value if morsel is not None else ""

    def cookie(self) -> str | None:
        """The Set-Cookie value that lets the page's later requests carry the token."""
        if self.token is None:
            return None
        return f"{COOKIE}={self.token}; Path=/; HttpOnly; SameSite=Strict"
