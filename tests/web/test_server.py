"""The page's server over real sockets: the files, the .mat, the live messages, the hands,
and what it refuses."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from websockets.exceptions import InvalidStatus

from bgpi.base.words import BLACK, WHITE
from bgpi.journal.export import MatHeader, export_mat
from bgpi.present.gamelog import current_match
from bgpi.service.config import Config
from bgpi.web.run import SimServer
from tests.web.started import started_session
from tests.web.webclient import get, receive_until, request, send, socket

SEED = 23  # White 3, Black 1


@pytest.fixture
def server() -> Iterator[SimServer]:
    with SimServer(started_session(Config(), seed=SEED)) as running:
        yield running


def port_of(server: SimServer) -> int:
    return server.address.port


def test_the_page_and_its_files_are_served(server: SimServer) -> None:
    status, headers, body = get(port_of(server), "/")
    assert status == 200
    assert headers["content-type"] == "text/html; charset=utf-8"
    assert b'<script src="app.js"' in body
    assert "default-src 'self'" in headers["content-security-policy"]
    assert "set-cookie" not in headers  # no token on the loopback
    for path, kind in (("/app.js", "text/javascript"), ("/style.css", "text/css")):
        status, headers, body = get(port_of(server), path)
        assert status == 200 and headers["content-type"].startswith(kind) and body
    assert get(port_of(server), "/secrets.txt")[0] == 404
    assert get(port_of(server), "/qr.svg")[0] == 404  # no token on the loopback: nothing to share
    assert get(port_of(server), "/ws")[0] == 426
    assert request(port_of(server), "POST", "/") in (400, 405)


def test_the_page_answers_to_the_loopback_name_only(server: SimServer) -> None:
    status, _, body = get(port_of(server), "/", {"Host": f"attacker.example:{port_of(server)}"})
    assert status == 403 and b"127.0.0.1 only" in body


def test_the_socket_sends_the_layout_the_state_and_the_frame(server: SimServer) -> None:
    with socket(port_of(server)) as ws:
        layout = receive_until(ws, lambda m: True)
        assert layout["type"] == "layout" and layout["mode"] == "sim"
        state = receive_until(ws, lambda m: True)
        assert state["type"] == "state" and state["phase"] == "opening"
        frame = receive_until(ws, lambda m: True)
        assert frame["type"] == "frame" and len(frame["pixels"]) == 6 * layout["length"]


def test_hands_through_the_socket_play_the_opening_and_the_mat_follows(server: SimServer) -> None:
    assert get(port_of(server), "/match.mat")[0] == 200  # the match has started: its header
    with socket(port_of(server)) as ws:
        for player in (WHITE, BLACK):
            send(ws, type="press", player=player, button="roll")
            send(ws, type="release", player=player, button="roll")
        receive_until(ws, lambda m: m["type"] == "state" and m["phase"] == "moving")
        send(ws, type="lift", zone=13, colour=WHITE)
        lifted = receive_until(ws, lambda m: m["type"] == "state" and m["destinations"])
        assert lifted["destinations"] == [9, 10]
        send(ws, type="place", zone=10, colour=WHITE, slot=0)
        send(ws, type="lift", zone=6, colour=WHITE)
        send(ws, type="place", zone=5, colour=WHITE, slot=0)
        receive_until(
            ws,
            lambda m: (
                m["type"] == "state"
                and ["0", "roll", "end turn"] in [[str(p[0]), p[1], p[2]] for p in m["prompts"]]
            ),
        )
        send(ws, type="press", player=WHITE, button="roll")
        send(ws, type="release", player=WHITE, button="roll")
        done = receive_until(ws, lambda m: m["type"] == "state" and m["phase"] == "before roll")
        assert any(entry["text"] == "White 31: 13/10 6/5" for entry in done["log"])
        send(ws, type="fly")
        error = receive_until(ws, lambda m: m["type"] == "error")
        assert "unknown command 'fly'" in error["message"]
    status, headers, body = get(port_of(server), "/match.mat")
    assert status == 200
    assert headers["content-disposition"] == 'attachment; filename="bgpi-match.mat"'
    records = server.call(lambda s: current_match(s.sim.driver.log))
    # Headed as `bgpi export` heads it: the config's site (no journal here, so no date).
    assert body.decode() == export_mat(records, MatHeader("bgpi"))
    assert "31: 13/10 6/5" in body.decode()


def test_closing_the_last_page_puts_the_held_checker_back(server: SimServer) -> None:
    with socket(port_of(server)) as ws:
        send(ws, type="lift", zone=13, colour=WHITE)
        receive_until(ws, lambda m: m["type"] == "state" and m["hand"])
    for _ in range(100):
        if server.call(lambda s: not s.hand):
            break
        time.sleep(0.02)
    assert server.call(lambda s: (s.hand, s.sim.board.checkers(13))) == ([], (WHITE,) * 5)


def test_a_socket_from_another_site_is_refused(server: SimServer) -> None:
    with (
        pytest.raises(InvalidStatus) as refused,
        socket(port_of(server), origin="http://evil.example"),
    ):  # type: ignore[arg-type]
        pass
    assert refused.value.response.status_code == 403


@pytest.fixture
def network() -> Iterator[SimServer]:
    # Bound to every interface, as `bgpi sim --host 0.0.0.0`; the test talks to it on the
    # loopback only.
    with SimServer(started_session(Config(), seed=SEED), host="0.0.0.0") as running:
        yield running


def test_a_network_bind_refuses_every_request_without_the_token(network: SimServer) -> None:
    port, token = network.address.port, network.token
    assert token is not None and f"?token={token}" in network.url
    before = network.call(
        lambda s: (s.sim.board.counts(), s.sim.table.opening, len(s.sim.driver.log))
    )
    for path in ("/", "/app.js", "/style.css", "/match.mat", "/qr.svg", "/?token=wrong"):
        status, _, body = get(port, path)
        assert status == 403, path
        assert b"needs its token" in body
    for query in ("", "?token=wrong"):
        with pytest.raises(InvalidStatus) as refused, socket(port, query):
            pass
        assert refused.value.response.status_code == 403
    # Nothing a refused request could carry has changed anything.
    after = network.call(
        lambda s: (s.sim.board.counts(), s.sim.table.opening, len(s.sim.driver.log))
    )
    assert after == before


def test_with_the_token_the_page_sets_a_cookie_and_the_hands_work(network: SimServer) -> None:
    port, token = network.address.port, network.token
    status, headers, _ = get(port, f"/?token={token}")
    assert status == 200
    cookie = headers["set-cookie"].split(";")[0]
    assert get(port, "/app.js", {"Cookie": cookie})[0] == 200
    with socket(port, additional_headers={"Cookie": cookie}) as ws:
        send(ws, type="press", player=WHITE, button="roll")
        state = receive_until(ws, lambda m: m["type"] == "state" and m["opening"][0] is not None)
        assert state["opening"] == [3, None]


def test_the_address_with_its_token_is_offered_as_a_qr_code(network: SimServer) -> None:
    port, token = network.address.port, network.token
    status, headers, body = get(port, f"/qr.svg?token={token}", {"Host": f"192.0.2.7:{port}"})
    assert status == 200 and headers["content-type"] == "image/svg+xml"
    assert body.startswith(b"<svg") and body.count(b"h4v4h-4z") > 100
