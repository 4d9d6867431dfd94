"""The messages two boards exchange, and their envelope: numbered, signed, checked.

A message is ``MAC.JSON``: 64 hex digits, a dot, and the JSON object ``{"v": 2, "side": ...,
"seq": ..., "body": {...}}``. ``seq`` numbers each side's messages from 1 (0: a hello, which
is not numbered, since it may be sent any number of times). ``MAC`` is HMAC-SHA256 with the
sender's key from the pairing over the room, the side and the JSON's bytes as sent, so a
message from another pairing, one whose sender is forged or one changed on the way does not
open. Anyone on the broker can publish on a match's topics, so a message is read in the
order that costs a stranger's bytes least: its size, then its signature over the raw bytes
(nothing a stranger wrote is parsed), then its JSON, nested at most
:data:`~bgpi.remote.untrusted.MAX_DEPTH` deep, then its shape.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar, Final

from bgpi.base.errors import BgpiError
from bgpi.base.words import Player
from bgpi.journal.records import MatchStarted, from_json, to_json
from bgpi.remote.pairing import SIDE_NAMES, Pairing
from bgpi.remote.untrusted import MAX_DEPTH, UntrustedJsonError, depth, loads, printable

VERSION: Final = 2  # 1: the signature inside the JSON, checked only once it was parsed
MAX_BYTES: Final = 16_384  # no message of a match is near this; a bigger one is not read
_MAC_HEX: Final = 64
_DOT: Final = ord(".")


class BadMessageError(BgpiError, ValueError):
    """A message that does not open: not ours, forged, or malformed (the reason says which)."""


class Action(Enum):
    """What a seat decided: the table's records follow from it at the other board."""

    OPENING = "opening"  # roll my die of the opening roll
    ROLL = "roll"
    DOUBLE = "double"
    TAKE = "take"
    BEAVER = "beaver"
    DROP = "drop"
    PLAY = "play"  # the moves are in the intent
    RESIGN = "resign"  # offer to resign ``result`` (1 single, 2 gammon, 3 backgammon)
    ACCEPT = "accept"  # the resignation offered
    REJECT = "reject"


@dataclass(frozen=True, slots=True)
class Hello:
    """Sent on every connection: what I have of yours (``have``), how many I sent
    (``sent``), and the match I mean. ``answer`` marks the reply to a hello. ``nonce`` is new
    in each hello, so a hello seen before is a replay (or a second delivery): not answered."""

    kind: ClassVar[str] = "hello"
    have: int
    sent: int
    match: str  # the MatchStarted record's JSON: both boards must mean the same match
    answer: bool = False
    nonce: str = ""

    def match_record(self) -> MatchStarted:
        """The match the other board means; ``BadMessageError`` if it is none."""
        nested = depth(self.match.encode())
        if nested > MAX_DEPTH:
            raise BadMessageError(f"a hello's match nested {nested} deep")
        try:
            record = from_json(self.match)
        except (TypeError, ValueError) as exc:  # a field of a wrong type: TypeError, too
            raise BadMessageError(f"a hello's match: {printable(str(exc))}") from None
        if not isinstance(record, MatchStarted):
            raise BadMessageError(f"a hello's match is a {record.kind} record")
        names = record.names
        if not isinstance(names, tuple) or [type(name) for name in names] != [str, str]:
            raise BadMessageError("a hello's match names no two players")
        return record


@dataclass(frozen=True, slots=True)
class Intent:
    """The sender's seat decided ``action``; its first record is record ``at`` (counted from
    0, the MatchStarted) of the match's journal."""

    kind: ClassVar[str] = "intent"
    at: int
    action: Action
    moves: tuple[tuple[int, int, int, bool], ...] = ()  # a play's moves, mover's numbering
    result: int = 0  # a resignation's: 1, 2 or 3


@dataclass(frozen=True, slots=True)
class Commit:
    """The hash of the sender's secret for draw ``draw``."""

    kind: ClassVar[str] = "commit"
    draw: int
    digest: str


@dataclass(frozen=True, slots=True)
class Reveal:
    """The sender's secret for draw ``draw``, once it holds the other's commitment."""

    kind: ClassVar[str] = "reveal"
    draw: int
    secret: str  # hex


@dataclass(frozen=True, slots=True)
class Halt:
    """The sender paused the match, and why: both boards show it."""

    kind: ClassVar[str] = "halt"
    reason: str


@dataclass(frozen=True, slots=True)
class Claim:
    """The sender claims the match by forfeit: the other board said nothing for ``silent``
    seconds while it owed a message; the sender had ``have`` of its messages (any later one
    came too late) and ``at`` records in its journal's match, the Forfeit the next (the
    other board journals up to there before its own: the two journals then hold one match;
    None: a claim of a board that did not say)."""

    kind: ClassVar[str] = "forfeit"
    have: int
    silent: int
    at: int | None = None


Body = Hello | Intent | Commit | Reveal | Halt | Claim


@dataclass(frozen=True, slots=True)
class Envelope:
    """An opened message."""

    side: Player
    seq: int
    body: Body


def seal(pairing: Pairing, side: Player, seq: int, body: Body) -> bytes:
    """The message, signed with ``side``'s key."""
    text = json.dumps(
        {"v": VERSION, "side": SIDE_NAMES[side], "seq": seq, "body": _body_json(body)},
        separators=(",", ":"),
        sort_keys=True,
    ).encode()
    return _mac(pairing, side, text).encode() + b"." + text


def open_envelope(pairing: Pairing, expected_side: Player, raw: bytes) -> Envelope:
    """Open a message that must come from ``expected_side``; ``BadMessageError`` saying why not."""
    if len(raw) > MAX_BYTES:
        raise BadMessageError(f"a message of {len(raw)} bytes, more than {MAX_BYTES}")
    mac, text = raw[:_MAC_HEX], raw[_MAC_HEX + 1 :]
    if len(raw) <= _MAC_HEX or raw[_MAC_HEX] != _DOT:
        old = raw.startswith(b'{"body":')  # protocol 1's JSON, its keys sorted
        raise BadMessageError(
            f"a message of protocol 1: the other board needs bgpi's protocol {VERSION}"
            if old
            else "not a bgpi message"
        )
    if not hmac.compare_digest(mac, _mac(pairing, expected_side, text).encode()):
        other = Player(expected_side).other
        if hmac.compare_digest(mac, _mac(pairing, other, text).encode()):
            raise BadMessageError(
                f"signed as {SIDE_NAMES[other]!r} on {SIDE_NAMES[expected_side]}'s topic"
            )
        raise BadMessageError("a bad signature: forged, changed, or another match")
    try:
        data = loads(text)
    except UntrustedJsonError as exc:
        raise BadMessageError(str(exc)) from None
    if not isinstance(data, dict) or set(data) != {"v", "side", "seq", "body"}:
        raise BadMessageError("not a bgpi message")
    if data["v"] != VERSION or data["side"] != SIDE_NAMES[expected_side]:
        raise BadMessageError(f"a signed message not of protocol {VERSION} from {data['side']}")
    seq = data["seq"]
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
        raise BadMessageError("a malformed number")
    return Envelope(expected_side, seq, _body(data["body"]))


def _mac(pairing: Pairing, side: Player, text: bytes) -> str:
    signed = f"bgpi {VERSION}\0{pairing.room}\0{SIDE_NAMES[side]}\0".encode() + text
    return hmac.new(pairing.key(side), signed, hashlib.sha256).hexdigest()


def _body_json(body: Body) -> dict[str, Any]:
    if isinstance(body, Intent):
        return {
            "kind": body.kind,
            "at": body.at,
            "action": body.action.value,
            "moves": [list(m) for m in body.moves],
            "result": body.result,
        }
    if isinstance(body, Hello):
        fields = {"have": body.have, "sent": body.sent, "match": body.match, "answer": body.answer}
        return {"kind": body.kind, **fields, "nonce": body.nonce}
    if isinstance(body, Commit):
        return {"kind": body.kind, "draw": body.draw, "digest": body.digest}
    if isinstance(body, Reveal):
        return {"kind": body.kind, "draw": body.draw, "secret": body.secret}
    if isinstance(body, Claim):
        counted = {} if body.at is None else {"at": body.at}
        return {"kind": body.kind, "have": body.have, "silent": body.silent, **counted}
    return {"kind": body.kind, "reason": body.reason}


def _body(data: Any) -> Body:
    """A signed body read back; ``BadMessageError`` if a field is missing or of a wrong type (a
    board of another version, or a bug: it was signed with the pairing's key)."""
    if not isinstance(data, dict):
        raise BadMessageError("a body that is not an object")
    try:
        return _BUILDERS[data["kind"]](data)
    except (KeyError, TypeError, ValueError) as exc:
        raise BadMessageError(f"a malformed {data.get('kind')!r} body: {exc}") from None


def _int(data: dict[str, Any], key: str) -> int:
    value = data[key]
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{key} is {value!r}, expected a number")
    return value


def _str(data: dict[str, Any], key: str) -> str:
    value = data[key]
    if not isinstance(value, str):
        raise ValueError(f"{key} is {value!r}, expected text")
    return value


def _moves(data: Any) -> tuple[tuple[int, int, int, bool], ...]:
    moves = []
    for move in data:
        src, dst, die, hit = move
        if not all(isinstance(v, int) for v in (src, dst, die)) or not isinstance(hit, bool):
            raise ValueError(f"move {move!r}")
        moves.append((int(src), int(dst), int(die), bool(hit)))
    return tuple(moves)


_BUILDERS: Final[dict[str, Callable[[dict[str, Any]], Body]]] = {
    "hello": lambda d: Hello(
        _int(d, "have"), _int(d, "sent"), _str(d, "match"), d["answer"] is True, _str(d, "nonce")
    ),
    "intent": lambda d: Intent(
        _int(d, "at"), Action(d["action"]), _moves(d["moves"]), _int(d, "result")
    ),
    "commit": lambda d: Commit(_int(d, "draw"), _str(d, "digest")),
    "reveal": lambda d: Reveal(_int(d, "draw"), _str(d, "secret")),
    "halt": lambda d: Halt(printable(_str(d, "reason"))),  # shown on the other board
    "forfeit": lambda d: Claim(
        _int(d, "have"), _int(d, "silent"), _int(d, "at") if "at" in d else None
    ),
}


def match_json(record: MatchStarted) -> str:
    return to_json(record)
