"""A board's link to the other board: the session, its log and the broker, together.

Every message goes to the log before it is published. Every connection (the first, and
each reconnect) starts with a hello, which brings what either board missed; so does a
silence of :data:`NUDGE` seconds while a board waits. What a hello makes a board send again
is bounded (:mod:`~bgpi.remote.resend`), and a message that does not open is logged, a few
lines a minute at most (:mod:`~bgpi.remote.quiet`).
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from typing import Final

from bgpi.base.errors import BgpiError
from bgpi.remote.fairdice import SECRET_BYTES
from bgpi.remote.log import MessageLog
from bgpi.remote.pairing import Pairing, side_name
from bgpi.remote.quiet import QuietLog
from bgpi.remote.resend import ResendBudget
from bgpi.remote.session import Inbound, Session
from bgpi.remote.transport import Connected, Transport
from bgpi.remote.wire import Body, Claim

log = logging.getLogger("bgpi")
NUDGE: Final = 3.0  # seconds of silence before a waiting board says hello again


class MatchPausedError(BgpiError, RuntimeError):
    """The match is paused: a cheat was caught, or the boards are out of step."""


class SilenceError(BgpiError, TimeoutError):
    """The other board has said nothing for too long."""


class MatchForfeitedError(BgpiError, RuntimeError):
    """The match is over by forfeit: a claim was sent or taken (:attr:`Session.forfeit`)."""


class Link:
    """The session of one board, journaled and on the broker."""

    def __init__(
        self,
        session: Session,
        transport: Transport,
        messages: MessageLog,
        *,
        patience: float = 120.0,
    ) -> None:
        self.session, self.transport, self.messages = session, transport, messages
        self.patience = patience
        self.pairing: Pairing = session.pairing
        self._mine = self.pairing.topic(session.side)
        self._theirs = self.pairing.topic(session.peer)
        self._heard = self._nudged = time.monotonic()
        self._spoke = self._heard  # the silence a claim names: never started over by hand
        self._budget = ResendBudget()
        self._notes = QuietLog(log)
        self.on_accept: Callable[[Body], None] | None = None

    def hello(self, *, answer: bool = False) -> None:
        hello = self.session.hello(secrets.token_hex(8), answer=answer)
        self.transport.publish(self._mine, hello)

    def send(self, body: Body) -> None:
        """Journal, then publish, my next message."""
        raw = self.session.send(body)
        self.messages.sync(self.session)
        self.transport.publish(self._mine, raw)
        # The other board may now think before it answers.
        self._heard = self._spoke = time.monotonic()

    def flush(self) -> None:
        """Send whatever the session owes the other board."""
        while owed := self.session.due():
            for body in owed:
                self.send(body)

    def pump(self, timeout: float) -> None:
        """Take what arrived within ``timeout`` seconds; ``MatchPausedError`` once the match
        is paused."""
        for arrival in self.transport.poll(timeout):
            if isinstance(arrival, Connected):
                self.hello()
            elif arrival.topic == self._theirs:
                self._take(self.session.take(arrival.payload))
        self.flush()
        self.check()

    def wait(self, timeout: float) -> None:
        """Wait for the other board: a hello after :data:`NUDGE` seconds of silence (in
        case a message was lost), ``SilenceError`` after ``patience``. Silence is the lack of
        a new message of the other board's: its hellos (which a board that stalls could go
        on sending), a replay or a stranger's junk do not break it."""
        self.pump(timeout)
        now = time.monotonic()
        if now - self._heard > self.patience:
            raise SilenceError(
                f"no word from {side_name(self.session.peer)} in {self.patience:g} s"
            )
        if now - max(self._heard, self._nudged) > NUDGE:
            self._nudged = now
            self.hello()

    def heard(self) -> None:
        """Start the patience over (a board that waits for as long as it takes)."""
        self._heard = time.monotonic()

    def silence(self) -> float:
        """Seconds since the match last moved between the boards (a message of the other
        board's taken, or mine sent), whatever the patience was started over since."""
        return time.monotonic() - self._spoke

    def _take(self, inbound: Inbound) -> None:
        if inbound.note is not None and not inbound.duplicate:
            self._notes.warning(inbound.note)
        self.messages.sync(self.session)
        now = time.monotonic()
        if inbound.accepted:  # the match moved on: junk, a replay or a hello does not count
            self._heard = self._spoke = now
        for seq in self._budget.allow(inbound.resend, now):
            self.transport.publish(self._mine, self.session.sent[seq - 1])
        if (inbound.hello or inbound.ask) and self._budget.answer(now):
            self.hello(answer=inbound.hello)
        if self.on_accept is not None:
            for body in inbound.accepted:
                self.on_accept(body)

    def check(self) -> None:
        paused = self.session.paused
        if paused is not None:
            self.flush()  # the halt that tells the other board why, out before a demo ends
            self.transport.flush()
            raise MatchPausedError(paused.reason)
        forfeit = self.session.forfeit
        if forfeit is not None:
            raise MatchForfeitedError(f"{side_name(forfeit.winner)} won the match by forfeit")

    def claim(self, at: int) -> None:
        """Claim the match by forfeit (the other board owes a message and said nothing past
        :attr:`patience`), my journal's match holding ``at`` records: journaled, published,
        and the match is over here."""
        silent = round(self.silence())
        self.send(Claim(len(self.session.received), silent, at))
        self.transport.flush()

    def pause(self, reason: str) -> None:
        self.session.pause(reason)
        self.check()

    def dice(self, draw: int) -> tuple[int, int]:
        """The dice of ``draw``: commit, wait for the other commitment, reveal, wait."""
        self._commit(draw)
        while (dice := self.session.dice(draw)) is None:
            self.wait(0.2)
        return dice

    def dice_now(self, draw: int) -> tuple[int, int] | None:
        """The dice of ``draw`` if both secrets are out, else None at once (my commitment,
        then my secret, sent as they are due): for a loop that must not stand still.
        ``SilenceError`` after ``patience``, as :meth:`wait`."""
        self._commit(draw)
        dice = self.session.dice(draw)
        if dice is None:
            self.wait(0)
            dice = self.session.dice(draw)
        return dice

    def _commit(self, draw: int) -> None:
        if self.session.secret(draw) is None:
            secret = secrets.token_bytes(SECRET_BYTES)
            self.messages.keep_secret(draw, secret)  # before its commitment leaves
            self.session.remember(draw, secret)
        self.flush()
