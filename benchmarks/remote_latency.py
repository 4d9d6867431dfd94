"""Latency of remote play over a loopback mosquitto: run ``python benchmarks/remote_latency.py``.

From the moment a board has committed a play and hands it to its link (sealed, signed, in its
message log on disk, published with QoS 1) until the other board's lights show the play's
first move: the message opened, checked and in its message log, the play handed to its table
as the remote seat's choice, and the new frame written to its (simulated) strip. The
reference, measured in the same run on the same broker: a bare payload of the same size
published with QoS 1 and received, no signature and no journal. Both brokers are Debian's
mosquitto on 127.0.0.1: as installed (Nagle's algorithm on), and with ``set_tcp_nodelay``.
"""

from __future__ import annotations

import argparse
import shutil
import socket
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bgpi.base.words import BLACK, WHITE
from bgpi.journal.records import MatchStarted, Played
from bgpi.remote.broker import Broker
from bgpi.remote.demo import seats_of
from bgpi.remote.hands import make
from bgpi.remote.link import Link
from bgpi.remote.log import MessageLog
from bgpi.remote.pairing import Pairing
from bgpi.remote.session import Session
from bgpi.remote.transport import Message, Transport
from bgpi.remote.wire import Action, Body, Intent
from bgpi.sim.simtable import SimTable
from bgpi.table import Chosen, Decided
from bgpi.table import Intent as TableIntent

MOVES = ((24, 18, 6, False), (13, 8, 5, False))


class Dice:
    """White's 6 and Black's 5 for the opening roll: White plays 6-5."""

    def __init__(self) -> None:
        self.values = [6, 5]

    def die(self) -> int:
        return self.values.pop(0)

    def roll(self) -> tuple[int, int]:
        raise AssertionError("no roll after the opening")


def black_board() -> SimTable:
    """Black's board, the remote White to play the opening 6-5."""
    sim = SimTable(MatchStarted(5, seats=seats_of(BLACK)))
    sim.driver.dice = Dice()
    sim.setup()
    sim.driver.dispatch(Decided(WHITE, TableIntent.OPENING_ROLL, sim.clock()))
    make(sim, Intent(3, Action.OPENING), BLACK)
    return sim


def start_broker(directory: Path, nodelay: bool) -> tuple[subprocess.Popen[bytes], int]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    config = directory / f"mosquitto-{port}.conf"
    lines = [f"listener {port} 127.0.0.1", "allow_anonymous true"]
    config.write_text("\n".join(lines + (["set_tcp_nodelay true"] if nodelay else [])) + "\n")
    exe = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    process = subprocess.Popen([exe, "-c", str(config)], stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return process, port
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("mosquitto did not start")


def timed(rounds: int, once: Callable[[int], None]) -> list[float]:
    times = []
    for n in range(rounds):
        start = time.perf_counter()
        once(n)
        times.append(time.perf_counter() - start)
    return times


def bare(broker: Broker, rounds: int, size: int) -> list[float]:
    receiver = Transport(broker, topics=("bench/bare",), persistent=False).open()
    sender = Transport(broker, persistent=False).open()
    while not receiver.subscribed:
        receiver.poll(0.05)
    payload = b"x" * size

    def once(_: int) -> None:
        sender.publish("bench/bare", payload)
        while not any(isinstance(a, Message) for a in receiver.poll(1.0)):
            pass

    try:
        return timed(rounds, once)
    finally:
        sender.close()
        receiver.close()


def protocol(broker: Broker, rounds: int, directory: Path) -> tuple[list[float], int]:
    pairing, match = Pairing("BENCH-22222"), MatchStarted(5)
    links = []
    for side in (WHITE, BLACK):
        transport = Transport(
            broker, client_id=pairing.client_id(side), topics=(pairing.topic(side.other),)
        ).open()
        log = MessageLog(directory / f"bench-{side}-{time.monotonic_ns()}.sqlite")
        links.append(Link(Session(pairing, side, match), transport, log))
    white, black = links
    while not (white.transport.subscribed and black.transport.subscribed):
        white.transport.poll(0.05)
    sim = black_board()
    moving, before = sim.driver.table, sim.driver.frame
    got: list[Body] = []

    def light(body: Body) -> None:  # the play to the table, and its first move on the strip
        assert isinstance(body, Intent)
        frames = sim.driver.frames_written
        # Each round the same play from the same position: the driver as it was before it.
        sim.driver.table, sim.driver.frame = moving, before
        sim.driver._scene = None  # else it takes the scene for one already shown
        sim.driver.dispatch(Chosen(WHITE, Played(WHITE, body.moves).move_values(), sim.clock()))
        assert sim.driver.frames_written > frames, "the play did not light"
        got.append(body)

    black.on_accept = light

    def once(n: int) -> None:
        white.send(Intent(2 * n + 5, Action.PLAY, MOVES))
        while len(got) <= n:
            black.pump(1.0)

    try:
        return timed(rounds, once), len(white.session.sent[-1])
    finally:
        for link in links:
            link.transport.close()
            link.messages.close()


def report(name: str, times: list[float], reference: list[float]) -> None:
    ms = sorted(t * 1000 for t in times)
    ref = statistics.median(reference)
    p95 = ms[int(len(ms) * 0.95)]
    print(
        f"  {name:<37} median {statistics.median(ms):6.2f} ms  p95 {p95:6.2f} ms"
        f"  ({statistics.median(times) / ref:4.1f}x the bare message)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for nodelay in (False, True):
            process, port = start_broker(Path(tmp), nodelay)
            broker = Broker.parse(f"mqtt://127.0.0.1:{port}")
            try:
                play, size = protocol(broker, args.rounds, Path(tmp))
                reference = bare(broker, args.rounds, size)
            finally:
                process.terminate()
                process.wait()
            print(f"mosquitto on 127.0.0.1, set_tcp_nodelay {'true' if nodelay else 'false'}:")
            report(f"bare QoS 1 message ({size} bytes)", reference, reference)
            report("a play, commit to the other's lights", play, reference)


if __name__ == "__main__":
    main()
