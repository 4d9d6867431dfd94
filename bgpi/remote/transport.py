"""The broker connection: paho-mqtt, QoS 1, a persistent session, reconnecting by itself.

Threads: paho's network thread only puts what arrives on a queue; everything else (the
session, the journal, the table) belongs to the thread that calls :meth:`Transport.poll`.
paho is imported here only, when a remote match or the club's results are asked for.

Anyone on the broker may publish on the topics a board reads, so what arrives is bounded
before it is kept: a message longer than the transport's ``limit`` is dropped unread (paho
has read it, but it is neither copied nor queued: the broker's own limit, in
``docs/remote.md``, keeps a huge one off the board), and the queue holds at most
:data:`QUEUED` messages (the rest are dropped: a board that waits says hello again, which
brings what it lacks). Each drop is a warning, a few a minute at most.
"""

from __future__ import annotations

import logging
import queue
import socket
import ssl
import time
from dataclasses import dataclass, replace
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from bgpi.base.errors import BgpiError
from bgpi.base.words import Player
from bgpi.remote.broker import Broker
from bgpi.remote.pairing import Pairing
from bgpi.remote.quiet import QuietLog
from bgpi.remote.wire import MAX_BYTES

log = logging.getLogger("bgpi")
QOS = 1
QUEUED = 1024  # messages waiting for the board's thread; more are dropped


class TransportError(BgpiError, OSError):
    """The broker cannot be reached or refused us."""


@dataclass(frozen=True, slots=True)
class Connected:
    """(Re)connected to the broker: a board says hello again."""


@dataclass(frozen=True, slots=True)
class Message:
    topic: str
    payload: bytes
    retained: bool = False


Arrival = Connected | Message


class Transport:
    """One client of the broker, subscribed to ``topics``."""

    def __init__(
        self,
        broker: Broker,
        *,
        client_id: str = "",
        topics: tuple[str, ...] = (),
        persistent: bool = True,
        limit: int | None = MAX_BYTES,
    ) -> None:
        self.broker, self.topics, self.limit = broker, topics, limit
        self._arrivals: queue.Queue[Arrival] = queue.Queue(QUEUED)
        self._reconnected = False  # a Connected the full queue could not take
        self._drops = QuietLog(log)
        self._refused: str | None = None
        self._acks = 0  # subscriptions the broker confirmed since the last connection
        self._closing = False
        self._opened = False
        self._client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=client_id,
            clean_session=not persistent,  # persistent: the broker keeps what comes while away
            protocol=mqtt.MQTTv311,
        )
        if broker.username is not None:
            self._client.username_pw_set(broker.username, broker.password)
        if broker.tls:
            self._client.tls_set(ca_certs=broker.ca_file, cert_reqs=ssl.CERT_REQUIRED)
        self._client.reconnect_delay_set(min_delay=1, max_delay=4)
        self._client.on_connect = self._on_connect
        self._client.on_message = self._on_message
        self._client.on_disconnect = self._on_disconnect
        self._client.on_subscribe = self._on_subscribe
        self._client.on_connect_fail = self._on_connect_fail

    def open(self, timeout: float = 10.0) -> Transport:
        """Connect, waiting up to ``timeout`` seconds for the broker; then paho reconnects by
        itself whenever the connection drops."""
        try:
            self._client.connect_async(self.broker.host, self.broker.port, keepalive=15)
        except (OSError, ValueError) as exc:
            raise TransportError(f"broker {self.broker}: {exc}") from None
        self._client.loop_start()
        end = time.monotonic() + timeout
        while not self.subscribed:  # connected, and every subscription confirmed
            if self._refused is not None:
                self.close()
                raise TransportError(f"broker {self.broker}: {self._refused}")
            if time.monotonic() > end:
                self.close()
                raise TransportError(f"broker {self.broker}: no connection in {timeout:g} s")
            time.sleep(0.02)
        self._opened = True
        return self

    def publish(self, topic: str, payload: bytes, *, retain: bool = False) -> None:
        """QoS 1; while the connection is down paho keeps it and sends it on reconnect (and
        the hello that follows a reconnect makes up for anything lost on the way)."""
        self._client.publish(topic, payload, qos=QOS, retain=retain)

    def poll(self, timeout: float) -> list[Arrival]:
        """What arrived, waiting up to ``timeout`` seconds for the first."""
        arrivals: list[Arrival] = []
        if self._reconnected:
            self._reconnected = False
            arrivals.append(Connected())
        try:
            arrivals.append(self._arrivals.get(timeout=0 if arrivals else timeout))
        except queue.Empty:
            return arrivals
        while not self._arrivals.empty():
            arrivals.append(self._arrivals.get_nowait())
        return arrivals

    def flush(self, timeout: float = 5.0) -> None:
        """Wait until every message published so far has left (or ``timeout``)."""
        end = time.monotonic() + timeout
        while self._client.want_write() or self._pending():
            if time.monotonic() > end or not self._client.is_connected():
                return
            time.sleep(0.02)

    def _pending(self) -> bool:
        return bool(getattr(self._client, "_out_messages", {}))

    def close(self) -> None:
        self._closing = True
        self._client.disconnect()
        self._client.loop_stop()

    # -- paho's thread ------------------------------------------------------------------------

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            self._refused = f"refused the connection: {reason}"
            log.warning("broker %s refused the connection: %s", self.broker, reason)
            return
        sock = client.socket()
        if isinstance(sock, socket.socket):  # small messages go at once, not after an ACK
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._acks = 0
        for topic in self.topics:
            client.subscribe(topic, qos=QOS)
        try:
            self._arrivals.put_nowait(Connected())
        except queue.Full:
            self._reconnected = True

    def _on_connect_fail(self, client: Any, userdata: Any) -> None:
        if not self._opened:  # at the start, say so; later, paho tries again by itself
            self._refused = "no broker answers there"

    def _on_subscribe(self, client: Any, userdata: Any, mid: Any, codes: Any, props: Any) -> None:
        self._acks += 1

    @property
    def subscribed(self) -> bool:
        """The broker has confirmed every subscription (retained messages follow)."""
        return self._client.is_connected() and self._acks >= len(self.topics)

    def _on_disconnect(
        self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any
    ) -> None:
        if not self._closing:
            log.warning("broker %s: disconnected (%s); reconnecting", self.broker, reason)

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        # Never raises: an exception here would end paho's thread, and the board's link.
        size = len(message.payload)
        try:
            topic = message.topic
        except UnicodeDecodeError:  # a broker lets none through; paho would raise here
            self._drops.warning("dropped a message whose topic is not UTF-8")
            return
        if self.limit is not None and size > self.limit:
            self._drops.warning(f"dropped a message of {size} bytes: more than {self.limit}")
            return
        try:
            self._arrivals.put_nowait(Message(topic, bytes(message.payload), bool(message.retain)))
        except queue.Full:
            self._drops.warning(f"dropped a message: {QUEUED} are waiting already")


def match_transport(broker: Broker, pairing: Pairing, side: Player) -> Transport:
    """The connection of ``side``'s board in a match: its own persistent session, reading the
    other side's topic. A board given no account logs in as its match's room, so the
    broker's ACL can keep each match's topics to its two boards (``docs/remote.md``)."""
    login = broker if broker.username else replace(broker, username=pairing.room)
    theirs = pairing.topic(side.other)
    return Transport(login, client_id=pairing.client_id(side), topics=(theirs,))
