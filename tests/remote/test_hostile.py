"""A stranger on the broker and a cheating peer, against ``bgpi demo --remote`` boards over a
real mosquitto on loopback: junk on a match's topics neither crashes nor stops a board (and
fills its log with a few lines only), a replayed hello makes a board resend little, and a
peer's escape sequences never reach the other board's terminal."""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from pathlib import Path

from bgpi.base.words import BLACK, WHITE
from bgpi.journal.records import MatchStarted
from bgpi.remote.broker import Broker
from bgpi.remote.log import MessageLog, log_path
from bgpi.remote.pairing import Pairing
from bgpi.remote.transport import Message, Transport
from bgpi.remote.wire import Commit, Halt, seal
from tests.remote.boards import CODE, Board, Peer
from tests.remote.conftest import Mosquitto
from tests.remote.test_two_boards import finish_both, pair
from tests.remote.test_untrusted import HOSTILE

PAIRING = Pairing(CODE)
MEGABYTE = 1_048_576


def junk() -> list[bytes]:
    """What a stranger may publish on a match's topic: deep JSON, a megabyte, random bytes,
    a message of the old protocol, one framed like a message but signed with a made-up key."""
    framed = seal(Pairing("22222-22222"), BLACK, 1, Commit(0, "ab"))
    return [
        b"[" * 16_000,
        b"{" * 16_000,
        os.urandom(MEGABYTE + 1),
        os.urandom(700),
        b"",
        json.dumps(
            {"v": 1, "side": "black", "seq": 1, "body": {}, "mac": "0" * 64}, sort_keys=True
        ).encode(),
        framed,
        b"0" * 64 + b"." + b"[" * 16_000,
    ]


def stranger(mosquitto: Mosquitto) -> Transport:
    return Transport(Broker.parse(mosquitto.url), persistent=False, limit=None).open()


def test_junk_from_a_stranger_neither_crashes_nor_stops_a_board_nor_floods_its_log(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    them = stranger(mosquitto)
    try:
        for side in (WHITE, BLACK):  # retained: each board reads them at every (re)start
            for raw in junk()[:2]:
                them.publish(PAIRING.topic(side), raw, retain=True)
        them.flush()
        white, black = pair(mosquitto, tmp_path)
        white.start()
        black.start()
        white.wait_for_records(8)  # mid-match: a flood
        for _ in range(20):
            for side in (WHITE, BLACK):
                for raw in junk():
                    them.publish(PAIRING.topic(side), raw)
        them.flush(30)
        white_err, black_err, _ = finish_both(white, black)
    finally:
        them.close()
    for err, theirs in ((white_err, "black"), (black_err, "white")):
        assert "Traceback" not in err and "RecursionError" not in err
        assert f"ignored a message on {theirs}'s topic: " in err
        lines = err.splitlines()
        # 140 bad messages and 20 of a megabyte each: five lines a minute of each kind.
        assert 1 <= sum("ignored a message" in line for line in lines) <= 5, err
        assert 1 <= sum("dropped a message of 1048577 bytes" in line for line in lines) <= 5
        assert len(lines) <= 14, err


def test_a_hello_replayed_fifty_times_makes_a_board_resend_nothing_more(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    spy = Transport(
        Broker.parse(mosquitto.url), topics=(f"bgpi/v1/{PAIRING.room}/#",), persistent=False
    ).open()
    published: Counter[str] = Counter()
    black_hellos: list[bytes] = []

    def watch(timeout: float) -> None:
        for arrival in spy.poll(timeout):
            if not isinstance(arrival, Message):
                continue
            side = arrival.topic.rsplit("/", 1)[1]
            hello = json.loads(arrival.payload[65:])["seq"] == 0
            published[f"{side} {'hello' if hello else 'numbered'}"] += 1
            if side == "black" and hello:
                black_hellos.append(arrival.payload)

    try:
        white, black = pair(mosquitto, tmp_path)
        white.start()
        white.wait_for_records(2)  # connected, subscribed, set up: it hears Black's first hello
        black.start()
        white.wait_for_records(20)
        watch(0.1)
        assert black_hellos, published
        for _ in range(50):  # the first hello Black sent, which asked for everything
            spy.publish(PAIRING.topic(BLACK), black_hellos[0])
        while white.process is not None and white.process.poll() is None:
            watch(0.1)
        finish_both(white, black)
        time.sleep(0.5)
        watch(0.1)
    finally:
        spy.close()
    with MessageLog(log_path(white.state, PAIRING, WHITE)) as messages:
        sent = len(messages.messages("sent"))
    # Each numbered message once, and a few again after a hello that crossed them on the way.
    # Before, each of the 50 replays brought all White had sent again.
    assert sent <= published["white numbered"] <= sent + 10, (sent, published)
    assert published["white hello"] <= 20, published


def test_a_peers_escape_sequences_never_reach_the_other_boards_terminal(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    white = Board(mosquitto.url, "white", tmp_path / "white", length=1).start()
    peer = Peer(mosquitto.url, BLACK, MatchStarted(1))
    try:
        peer.until(lambda: any(isinstance(b, Commit) for b in peer.session.theirs))
        peer.send(Halt(HOSTILE))
        peer.transport.flush()
    finally:
        peer.close()
    code, out, err = white.finish()
    assert code == 1
    assert err.splitlines()[-1] == "bgpi demo: black paused the match: give up now please"
    for text in (out, err):
        assert not any(ch in text for ch in "\x1b\x07\x9b\x00\r\u202e"), repr(text)
