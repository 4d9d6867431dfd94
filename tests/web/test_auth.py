"""Who may use the page: loopback binds check the Host, network binds the token, WebSockets
their Origin."""

import pytest

from bgpi.web.auth import COOKIE, Guard, is_loopback, new_token


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("localhost", True),
        ("::1", True),
        ("[::1]", True),
        ("127.0.0.2", True),
        ("0.0.0.0", False),
        ("::", False),
        ("192.168.1.20", False),
        ("bgpi.local", False),
    ],
)
def test_only_loopback_addresses_keep_the_page_on_this_machine(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_tokens_are_long_and_new_each_time() -> None:
    tokens = {new_token() for _ in range(20)}
    assert len(tokens) == 20
    assert all(len(token) >= 20 for token in tokens)


def test_a_loopback_bind_asks_no_token_but_the_host_must_be_the_loopback() -> None:
    guard = Guard(None, 8421)
    assert guard.refuse("/", {"host": "127.0.0.1:8421"}, websocket=False) is None
    assert guard.refuse("/", {"host": "localhost:8421"}, websocket=False) is None
    assert guard.refuse("/", {"host": "evil.example:8421"}, websocket=False) is not None
    assert guard.refuse("/", {}, websocket=False) is not None
    assert guard.cookie() is None


def test_a_network_bind_asks_the_token_in_the_query_or_the_cookie() -> None:
    guard = Guard("s3cret-token", 8421)
    host = {"host": "bgpi.local:8421"}
    assert guard.refuse("/?token=s3cret-token", host, websocket=False) is None
    assert guard.refuse("/ws", {**host, "cookie": f"{COOKIE}=s3cret-token"}, websocket=True) is None
    assert guard.refuse("/", host, websocket=False) == (
        "this page needs its token: open the address bgpi printed"
    )
    assert guard.refuse("/?token=guess", host, websocket=False) is not None
    assert guard.refuse("/", {**host, "cookie": f"{COOKIE}=guess"}, websocket=False) is not None
    assert guard.refuse("/", {**host, "cookie": "garbage;;=\\"}, websocket=False) is not None
    assert guard.cookie() == f"{COOKIE}=s3cret-token; Path=/; HttpOnly; SameSite=Strict"


def test_a_websocket_must_come_from_the_page_itself() -> None:
    guard = Guard(None, 8421)
    headers = {"host": "127.0.0.1:8421", "origin": "http://127.0.0.1:8421"}
    assert guard.refuse("/ws", headers, websocket=True) is None
    headers["origin"] = "https://attacker.example"
    assert guard.refuse("/ws", headers, websocket=True) == (
        "a WebSocket from https://attacker.example is not this page's"
    )
    assert guard.refuse("/ws", {"host": "127.0.0.1:8421"}, websocket=True) is None  # no browser
