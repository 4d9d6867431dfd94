"""The mosquitto config docs/remote.md documents (docs/mosquitto/), run as written: an
oversized publish never reaches a board (a 100 MB one is refused from its header), a stranger
can neither read nor write a match's topics, and two boards still play a match and publish
its result to their club."""

from __future__ import annotations

import socket
import struct
import subprocess
import sys
from pathlib import Path

from bgpi.base.words import BLACK, WHITE
from bgpi.remote.broker import Broker
from bgpi.remote.pairing import Pairing
from bgpi.remote.transport import Message, Transport, match_transport
from tests.remote.boards import CODE
from tests.remote.conftest import DOCUMENTED, Mosquitto
from tests.remote.test_two_boards import finish_both, pair

PAIRING = Pairing(CODE)
DOC = Path(__file__).parents[2] / "docs" / "remote.md"


def test_the_doc_shows_the_config_and_the_acl_as_shipped() -> None:
    doc = DOC.read_text()
    for name in ("bgpi.conf", "bgpi.acl"):
        assert (DOCUMENTED / name).read_text() in doc, f"docs/remote.md does not show {name}"


def _string(text: str) -> bytes:
    return struct.pack("!H", len(text)) + text.encode()


def _length(n: int) -> bytes:
    """MQTT's variable-length remaining length."""
    out = bytearray()
    while True:
        n, digit = divmod(n, 128)
        out.append(digit | (0x80 if n else 0))
        if not n:
            return bytes(out)


def publish_huge(port: int, topic: str, size: int) -> int:
    """Log in as the match's room and start a QoS 0 publish of ``size`` bytes on ``topic``;
    how many bytes went before the broker closed the connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        connect = _string("MQTT") + bytes([4, 0x82]) + struct.pack("!H", 30)
        connect += _string("huge") + _string(PAIRING.room)
        sock.sendall(b"\x10" + _length(len(connect)) + connect)
        assert sock.recv(4) == b"\x20\x02\x00\x00"  # accepted
        header = _string(topic)
        sock.sendall(b"\x30" + _length(len(header) + size) + header)
        sent, chunk = 0, bytes(65_536)
        try:
            while sent < size:
                sent += sock.send(chunk)
        except OSError:  # reset or a broken pipe: the broker hung up
            pass
        return sent


def arrivals(transport: Transport) -> list[bytes]:
    return [a.payload for a in transport.poll(1.0) if isinstance(a, Message)]


def test_an_oversized_publish_and_a_strangers_never_reach_the_board(guarded: Mosquitto) -> None:
    broker = Broker.parse(guarded.url)
    board = match_transport(broker, PAIRING, WHITE).open()  # reads Black's topic
    peer = match_transport(broker, PAIRING, BLACK).open()
    snoop = Transport(broker, topics=("bgpi/v1/#", "#"), persistent=False, limit=None).open()
    someone = Transport(
        Broker.parse(guarded.url, username="someone"), persistent=False, limit=None
    ).open()
    try:
        black = PAIRING.topic(BLACK)
        someone.publish(black, b"[" * 16_000)
        snoop.publish(black, b"junk")
        sent = publish_huge(guarded.port, black, 100_000_000)
        assert sent < 20_000_000  # refused from its header, not read to its end
        big = Transport(
            Broker.parse(guarded.url, username=PAIRING.room), persistent=False, limit=None
        ).open()
        big.publish(black, bytes(1_000_000))  # the broker hangs up on it
        big.flush(2)
        big.close()
        peer.publish(black, b"the peer's message")
        peer.flush()
        assert arrivals(board) == [b"the peer's message"]  # and nothing before it
        assert arrivals(snoop) == []  # nobody else reads a match's topics
    finally:
        for transport in (board, peer, snoop, someone):
            transport.close()


def test_two_boards_play_a_match_and_publish_its_result_through_the_documented_broker(
    guarded: Mosquitto, tmp_path: Path
) -> None:
    white, black = pair(guarded, tmp_path, length=1)
    white.start("--club", "Hinterhof BG")
    black.start("--club", "Hinterhof BG")
    finish_both(white, black)
    listed = subprocess.run(
        [sys.executable, "-m", "bgpi", "club", "results", "--broker", guarded.url,
         "--club", "Hinterhof BG"],
        capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert listed.returncode == 0, listed.stderr
    assert len(listed.stdout.splitlines()) == 2, listed.stdout  # the table's head, one match
