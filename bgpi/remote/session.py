"""One board's side of the protocol, as a pure core: messages in, messages out, no I/O.

A :class:`Session` keeps both sides' numbered messages in order, answers hellos with what
the other board lacks, runs the commit-reveal exchange of the dice, and catches a cheat: a
revealed secret that does not match its commitment, an old message sent again as new, two
different messages under one number. A cheat pauses the match (:attr:`Session.paused`) and
the session owes the other board a :class:`~bgpi.remote.wire.Halt` saying why. A message
that does not open (forged, another match's, garbled) is only ignored and counted: a stranger
on the broker must not be able to stop a match.

A board whose peer fell silent while it owed a message may claim the match by forfeit (a
:class:`~bgpi.remote.wire.Claim`); either board's claim, sent or taken, settles the match
(:attr:`Session.forfeit`). The rule is the claimant's order, as a flag's fall on a clock: a
claim stands once sent, and a message of the other board that it had not taken by then came
too late. Only crossed claims (each board thought the other silent: a broken link) are
weighed: the claim of the board that had taken every message the other sent before its own
claim stands (at most one had; if neither, White's).

The shell journals every message the session sends or takes (:mod:`bgpi.remote.log`) and
rebuilds the session from them after a restart (:meth:`Session.restore`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Final

from bgpi.base.words import WHITE, Player
from bgpi.journal.records import MatchStarted
from bgpi.remote.fairdice import SECRET_BYTES, commitment, dice_of
from bgpi.remote.pairing import Pairing, side_name
from bgpi.remote.untrusted import printable
from bgpi.remote.wire import (
    Action,
    BadMessageError,
    Body,
    Claim,
    Commit,
    Envelope,
    Halt,
    Hello,
    Intent,
    Reveal,
    match_json,
    open_envelope,
    seal,
)

_RESIGNING = frozenset({Action.RESIGN, Action.ACCEPT, Action.REJECT})  # add no record
EARLY: Final = 256  # messages taken ahead of the one due; further ahead is not kept
HELLOS: Final = 1024  # the other board's latest hellos remembered, to know a replay


@dataclass(frozen=True, slots=True)
class Pause:
    """Why the match stopped, and which side stopped it."""

    reason: str
    by: Player


@dataclass(frozen=True, slots=True)
class Settled:
    """The match is over by forfeit: ``winner`` won it by the claim ``claim``; ``late`` of
    the loser's messages had been sent but were not taken before the claim."""

    winner: Player
    claim: Claim
    late: int = 0


@dataclass(frozen=True, slots=True)
class Inbound:
    """What one message from the broker led to."""

    accepted: tuple[Body, ...] = ()  # the other board's new numbered messages, in order
    resend: tuple[int, ...] = ()  # the numbers of my messages the other board lacks
    hello: bool = False  # answer a hello with mine
    ask: bool = False  # a message came before the one due: ask for the gap with a hello
    note: str | None = None  # why the message was ignored, for the log
    duplicate: bool = False  # a message already taken (QoS 1 delivers at least once)


class Session:
    """The protocol state of the board playing ``side`` in ``match``."""

    def __init__(self, pairing: Pairing, side: Player, match: MatchStarted) -> None:
        self.pairing, self.side, self.peer = pairing, side, side.other
        self.match = match
        self.sent: list[bytes] = []  # my numbered messages, message n at n - 1
        self.received: list[bytes] = []  # the other board's, in order
        self.mine: list[Body] = []
        self.theirs: list[Body] = []
        self._early: dict[int, bytes] = {}
        self._hellos: deque[str] = deque(maxlen=HELLOS)  # the nonces of the other's hellos
        self._secrets: dict[int, bytes] = {}  # my secret of each draw
        self._committed: set[int] = set()
        self._revealed: set[int] = set()
        self._their_commits: dict[int, str] = {}
        self._their_secrets: dict[int, bytes] = {}
        self._last_at = -1
        self.paused: Pause | None = None
        self.forfeit: Settled | None = None
        self._claims: dict[Player, tuple[int, Claim]] = {}  # each side's claim, and its number
        self._halt_sent = False
        self.ignored = 0  # messages that did not open

    # -- restoring --------------------------------------------------------------------------

    @classmethod
    def restore(
        cls,
        pairing: Pairing,
        side: Player,
        match: MatchStarted,
        *,
        sent: Iterable[bytes],
        received: Iterable[bytes],
        secrets: dict[int, bytes],
    ) -> Session:
        """The session a board's message log leads to."""
        session = cls(pairing, side, match)
        session._secrets = dict(secrets)
        for raw in sent:
            envelope = open_envelope(pairing, side, raw)
            session._sent(raw, envelope.body)
        for raw in received:
            session.take(raw)
        return session

    # -- sending ----------------------------------------------------------------------------

    def send(self, body: Body) -> bytes:
        """Seal my next numbered message (the shell journals it, then publishes it)."""
        raw = seal(self.pairing, self.side, len(self.sent) + 1, body)
        self._sent(raw, body)
        return raw

    def _sent(self, raw: bytes, body: Body) -> None:
        self.sent.append(raw)
        self.mine.append(body)
        if isinstance(body, Commit):
            self._committed.add(body.draw)
        elif isinstance(body, Reveal):
            self._revealed.add(body.draw)
        elif isinstance(body, Halt):
            self._halt_sent = True
            if self.paused is None:
                self.paused = Pause(body.reason, self.side)
        elif isinstance(body, Claim):
            self._claimed(self.side, len(self.sent), body)

    def hello(self, nonce: str, *, answer: bool = False) -> bytes:
        """A hello (not numbered): sent on every connection, and to ask for a gap. ``nonce``
        is new each time (the shell draws it), so the other board knows a replay."""
        body = Hello(len(self.received), len(self.sent), match_json(self.match), answer, nonce)
        return seal(self.pairing, self.side, 0, body)

    def remember(self, draw: int, secret: bytes) -> None:
        """My secret for ``draw`` (journaled before its commitment is sent). A draw keeps
        the first secret it was given: after a restart the same one is revealed."""
        if len(secret) != SECRET_BYTES:
            raise ValueError(f"a secret of {len(secret)} bytes, expected {SECRET_BYTES}")
        self._secrets.setdefault(draw, secret)

    def secret(self, draw: int) -> bytes | None:
        return self._secrets.get(draw)

    def due(self) -> list[Body]:
        """What I owe the other board now: my commitment for each draw I hold a secret of,
        my secret once I hold its commitment, a halt once I paused."""
        owed: list[Body] = []
        if self.forfeit is not None:
            return owed  # the match is over
        if self.paused is not None:
            if self.paused.by == self.side and not self._halt_sent:
                owed.append(Halt(self.paused.reason))
            return owed
        for draw in sorted(self._secrets):
            secret = self._secrets[draw]
            if draw not in self._committed:
                owed.append(Commit(draw, commitment(self.pairing.room, self.side, draw, secret)))
            elif draw in self._their_commits and draw not in self._revealed:
                owed.append(Reveal(draw, secret.hex()))
        return owed

    def pause(self, reason: str) -> None:
        """Pause the match from this side (the runner found the boards out of step)."""
        if self.paused is None:
            self.paused = Pause(reason, self.side)

    # -- reading ----------------------------------------------------------------------------

    def dice(self, draw: int) -> tuple[int, int] | None:
        """The dice of ``draw`` once both secrets are known."""
        mine, theirs = self._secrets.get(draw), self._their_secrets.get(draw)
        if mine is None or theirs is None or draw not in self._revealed:
            return None
        white, black = (mine, theirs) if self.side == WHITE else (theirs, mine)
        return dice_of(self.pairing.room, draw, white, black)

    def intents(self, side: Player) -> list[Intent]:
        bodies = self.mine if side == self.side else self.theirs
        return [body for body in bodies if isinstance(body, Intent)]

    # -- taking -----------------------------------------------------------------------------

    def take(self, raw: bytes) -> Inbound:
        """A message from the other board's topic."""
        try:
            envelope = open_envelope(self.pairing, self.peer, raw)
        except BadMessageError as exc:
            self.ignored += 1
            why = printable(str(exc))  # it may quote the message: bounded, plain
            return Inbound(note=f"ignored a message on {side_name(self.peer)}'s topic: {why}")
        if envelope.seq == 0:
            return self._hello(envelope)
        if isinstance(envelope.body, Hello):
            return self._cheat(f"{self._them} numbered a hello ({envelope.seq})")
        if self.paused is not None:
            return Inbound(note=f"the match is paused: {self.paused.reason}")
        return self._numbered(raw, envelope)

    def _numbered(self, raw: bytes, envelope: Envelope) -> Inbound:
        count = len(self.received)
        if envelope.seq <= count:
            if raw == self.received[envelope.seq - 1]:
                return Inbound(duplicate=True)
            return self._cheat(f"{self._them} sent two different messages numbered {envelope.seq}")
        if envelope.seq > count + 1:
            return self._ahead(raw, envelope, count)
        accepted = [envelope.body]
        inbound = self._accept(raw, envelope)
        while inbound is None and len(self.received) + 1 in self._early:
            early = self._early.pop(len(self.received) + 1)
            envelope = open_envelope(self.pairing, self.peer, early)
            accepted.append(envelope.body)
            inbound = self._accept(early, envelope)
        if inbound is not None:  # a cheat: what came before it stands
            return Inbound(tuple(accepted[:-1]), note=inbound.note)
        return Inbound(tuple(accepted))

    def _ahead(self, raw: bytes, envelope: Envelope, count: int) -> Inbound:
        """A message that came before the one due: kept for its turn (not too far ahead),
        but for a halt, which stops the match in any order: what it follows may never come
        (a board that paused at a hello resends nothing, and has stopped)."""
        body = envelope.body
        if isinstance(body, Halt):
            self.paused = Pause(f"{self._them} paused the match: {body.reason}", self.peer)
            return Inbound(note=f"paused: {self.paused.reason}")
        if envelope.seq > count + EARLY:
            return Inbound(note=f"message {envelope.seq} came far ahead of {count + 1}")
        self._early[envelope.seq] = raw
        return Inbound(ask=True, note=f"message {envelope.seq} came before {count + 1}")

    @property
    def _them(self) -> str:
        return side_name(self.peer)

    def _cheat(self, reason: str) -> Inbound:
        self.pause(reason)
        return Inbound(note=f"paused: {reason}")

    def _hello(self, envelope: Envelope) -> Inbound:
        body = envelope.body
        if not isinstance(body, Hello):
            return self._cheat(f"{self._them} sent an unnumbered {body.kind}")
        if body.nonce in self._hellos:  # a replay, or QoS 1's second delivery: no answer
            return Inbound(duplicate=True)
        self._hellos.append(body.nonce)
        try:
            theirs = body.match_record()
        except (BadMessageError, ValueError) as exc:
            return self._cheat(f"{self._them}'s hello names no match: {exc}")
        if replace(theirs, seats=self.match.seats) != self.match:  # each seats itself here
            return self._cheat(
                f"the boards disagree about the match: {self._them} means {_describe(theirs)}, "
                f"{side_name(self.side)} {_describe(self.match)}"
            )
        resend = tuple(range(body.have + 1, len(self.sent) + 1))
        return Inbound(resend=resend, hello=not body.answer)

    def _accept(self, raw: bytes, envelope: Envelope) -> Inbound | None:
        """Take the next message in order, or say (and pause) why it is a cheat."""
        reason = self._check(envelope.body)
        if reason is not None:
            return self._cheat(reason)
        body = envelope.body
        self.received.append(raw)
        self.theirs.append(body)
        if isinstance(body, Commit):
            self._their_commits[body.draw] = body.digest
        elif isinstance(body, Reveal):
            self._their_secrets[body.draw] = bytes.fromhex(body.secret)
        elif isinstance(body, Intent):
            self._last_at = body.at
        elif isinstance(body, Halt):
            self.paused = Pause(f"{self._them} paused the match: {body.reason}", self.peer)
        elif isinstance(body, Claim):
            self._claimed(self.peer, envelope.seq, body)
        return None

    def _claimed(self, side: int, seq: int, claim: Claim) -> None:
        """``side``'s claim, its message ``seq``: the match is settled (again, if crossed)."""
        self._claims[Player(side)] = (seq, claim)
        winner = Player(side)
        if len(self._claims) == 2:  # crossed: the claimant who had all the other sent before
            fair = [
                player
                for player, (_, made) in self._claims.items()
                if made.have >= self._claims[player.other][0] - 1
            ]
            winner = fair[0] if len(fair) == 1 else WHITE
        claim = self._claims[winner][1]
        late = len(self.sent) - claim.have if winner == self.peer else 0
        self.forfeit = Settled(winner, claim, late)

    def _check(self, body: Body) -> str | None:
        them = self._them
        if isinstance(body, Commit):
            if body.draw in self._their_commits:
                return f"{them} repeated an old message: its commitment for draw {body.draw}"
            return None
        if isinstance(body, Reveal):
            return self._check_reveal(body)
        if isinstance(body, Claim):
            return self._check_claim(body)
        if isinstance(body, Intent):
            stale = body.at < self._last_at or (
                body.at == self._last_at and body.action not in _RESIGNING
            )
            if stale:
                return f"{them} repeated an old message: {body.action.value} at record {body.at}"
        return None

    def _check_claim(self, body: Claim) -> str | None:
        """A claim must not say it had more of my messages than I sent, nor fewer records than
        the intents it had name (a play's record is made before it is sent; a decision's may
        wait on the dice): the records it counts out of my journal's match come too late."""
        them, sent = self._them, len(self.sent)
        if body.have > sent:
            return f"{them} claimed a forfeit having {body.have} messages of {sent}"
        had = [b for b in self.mine[: body.have] if isinstance(b, Intent)]
        least = max(
            (i.at + (i.action is Action.PLAY) for i in [*had, *self.intents(self.peer)]),
            default=0,
        )
        if body.at is not None and body.at < least:
            return f"{them} claimed a forfeit at record {body.at}, its intents name record {least}"
        return None

    def _check_reveal(self, body: Reveal) -> str | None:
        them, draw = self._them, body.draw
        if draw in self._their_secrets:
            return f"{them} repeated an old message: its secret for draw {draw}"
        if draw not in self._their_commits:
            return f"{them} revealed a secret for draw {draw} without committing to one"
        try:
            secret = bytes.fromhex(body.secret)
        except ValueError:
            return f"{them}'s secret for draw {draw} is not hexadecimal"
        if commitment(self.pairing.room, self.peer, draw, secret) != self._their_commits[draw]:
            return f"{them}'s secret for draw {draw} does not match its commitment"
        return None


def _describe(match: MatchStarted) -> str:
    kind = f"a {match.length}-point match" if match.length else "money"
    white, black = (printable(name, 40) for name in match.names)  # the other's may be anything
    return f"{kind} of {white} and {black}"
