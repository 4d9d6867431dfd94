"""What comes from the broker, in the protocol's pure core: bounded and checked before it is
parsed, a peer's words shown as text, a replay answered once, a flood logged in a few lines."""

from __future__ import annotations

import json
import logging
import os
import random
from functools import cache

import pytest

from bgpi.base.words import BLACK, WHITE
from bgpi.journal.records import MatchStarted, to_json
from bgpi.remote.pairing import Pairing
from bgpi.remote.quiet import QuietLog
from bgpi.remote.resend import ResendBudget
from bgpi.remote.session import EARLY, Session
from bgpi.remote.untrusted import UntrustedJsonError, depth, loads, printable
from bgpi.remote.wire import (
    MAX_BYTES,
    Action,
    BadMessageError,
    Halt,
    Hello,
    Intent,
    _mac,
    open_envelope,
    seal,
)

CODE = "K7QDM-2PXWA"
MATCH = MatchStarted(3)
HOSTILE = "\x1b]0;owned\x07\x1b[2J\x1b[31mgive up\x1b[0m now\x9b6n\x1bP+q\x1b\\\u202e\r\nplease\x00"


@cache
def pairing() -> Pairing:
    return Pairing(CODE)


def signed(raw_json: bytes, side: int = WHITE) -> bytes:
    """Bytes signed with ``side``'s real key: what only a paired (cheating) peer can send."""
    return _mac(pairing(), side, raw_json).encode() + b"." + raw_json


def test_the_nesting_is_counted_without_recursion_and_strings_are_skipped() -> None:
    assert depth(b"[" * 16_000) == 16_000
    assert depth(b'{"a": [1, {"b": "[[[[\\"[[["}]}') == 3
    assert depth(b'"' + b'\\"' * 5_000) == 0  # an unterminated string: still one pass


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        (b"[" * 16_000, "nested 16000 deep, more than 8"),
        (b"[" + b"9" * 5_000 + b"]", "not JSON"),  # more digits than Python reads
        (b'{"a": 1', "not JSON"),
        (b"\xff\xfe", "not JSON"),
    ],
)
def test_json_from_outside_is_refused_saying_why_and_never_raises_anything_else(
    raw: bytes, why: str
) -> None:
    with pytest.raises(UntrustedJsonError, match=why):
        loads(raw)


def test_unsigned_bytes_are_never_parsed_whatever_they_hold() -> None:
    for raw, why in [
        (b"[" * 16_000, "not a bgpi message"),
        (os.urandom(600), "not a bgpi message"),
        (b"0" * 64 + b"." + b"[" * 10_000, "a bad signature"),
        (b'{"body":{},"mac":"00","seq":1,"side":"black","v":1}', "protocol 1"),
        (b"x" * (MAX_BYTES + 1), f"a message of {MAX_BYTES + 1} bytes"),
    ]:
        with pytest.raises(BadMessageError, match=why):
            open_envelope(pairing(), WHITE, raw)


def test_a_signed_message_too_deep_or_malformed_is_refused_not_raised() -> None:
    with pytest.raises(BadMessageError, match="nested 9000 deep"):
        open_envelope(pairing(), WHITE, signed(b"[" * 9_000))
    with pytest.raises(BadMessageError, match="not JSON"):
        open_envelope(pairing(), WHITE, signed(b'{"seq": ' + b"9" * 5_000 + b"}"))
    body = b'{"body":{"kind":"intent","at":1,"action":"roll","moves":5,"result":0},'
    with pytest.raises(BadMessageError, match="a malformed 'intent' body"):
        open_envelope(pairing(), WHITE, signed(body + b'"seq":1,"side":"white","v":2}'))


def test_a_cheating_peers_hello_naming_a_match_nested_too_deep_pauses_without_a_crash() -> None:
    black = Session(pairing(), BLACK, MATCH)
    deep = Hello(0, 0, "[" * 9_000, nonce="n")
    black.take(seal(pairing(), WHITE, 0, deep))
    assert black.paused is not None
    assert black.paused.reason == "white's hello names no match: a hello's match nested 9000 deep"


def test_a_peers_words_are_shown_as_plain_text_on_one_line() -> None:
    assert printable(HOSTILE) == "give up now please"
    assert printable("x" * 500) == "x" * 199 + "…"
    assert printable("Ünïcødé ♥ stays") == "Ünïcødé ♥ stays"


def test_a_halt_is_shown_without_its_escape_sequences() -> None:
    white, black = Session(pairing(), WHITE, MATCH), Session(pairing(), BLACK, MATCH)
    black.take(white.send(Halt(HOSTILE + "x" * 500)))
    assert black.paused is not None
    reason = black.paused.reason
    assert reason.startswith("white paused the match: give up now pleasexxx")
    assert reason.isprintable() and len(reason) < 250


def test_a_replayed_hello_is_answered_once_and_brings_nothing_again() -> None:
    white, black = Session(pairing(), WHITE, MATCH), Session(pairing(), BLACK, MATCH)
    for n in range(5):
        white.send(Intent(n, Action.ROLL))
    hello = black.hello("a nonce")
    first = white.take(hello)
    assert first.resend == (1, 2, 3, 4, 5) and first.hello
    for _ in range(50):
        again = white.take(hello)
        assert again.duplicate and again.resend == () and not again.hello
    assert white.take(black.hello("another")).resend == (1, 2, 3, 4, 5)  # a new hello asks


def test_a_message_far_ahead_is_not_kept() -> None:
    white, black = Session(pairing(), WHITE, MATCH), Session(pairing(), BLACK, MATCH)
    far = black.take(seal(pairing(), WHITE, EARLY + 5, Intent(1, Action.ROLL)))
    assert far.note == f"message {EARLY + 5} came far ahead of 1" and not far.ask
    assert black.paused is None
    assert black.take(white.send(Intent(1, Action.ROLL))).accepted == (Intent(1, Action.ROLL),)


def test_what_hellos_make_a_board_resend_is_bounded() -> None:
    budget = ResendBudget(gap=2.0, most=100, window=10.0)
    everything = range(1, 148)
    assert budget.allow(everything, 0.0) == list(range(1, 101))  # at most 100 per window
    assert budget.allow(everything, 1.0) == []  # ...and the window is spent
    assert budget.allow(everything, 10.0) == list(range(1, 101))  # oldest first: in order
    assert budget.allow([1], 20.0) == [1]
    assert budget.allow([1], 21.0) == []  # went at 20: not again within 2 s
    assert budget.allow([1], 22.0) == [1]
    assert [budget.answer(t) for t in (0.0, 0.5, 1.9, 2.0, 2.1)] == [
        True,
        False,
        False,
        True,
        False,
    ]


def test_a_flood_of_warnings_is_a_few_lines_and_a_count(caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    quiet = QuietLog(logging.getLogger("bgpi"), most=3, period=60.0, clock=lambda: now[0])
    with caplog.at_level(logging.WARNING, logger="bgpi"):
        for n in range(1000):
            now[0] = n * 0.01
            quiet.warning(f"junk {n}")
        now[0] = 61.0
        quiet.warning("later")
    assert [r.getMessage() for r in caplog.records] == [
        "junk 0",
        "junk 1",
        "junk 2",
        "997 more like these in 60 s, not shown",
        "later",
    ]


KEYS = ("kind", "at", "moves", "match", "have", "nonce", "reason", "draw", "secret", "names")
FIELDS = {
    "hello": {"have": 0, "sent": 0, "match": to_json(MATCH), "answer": False, "nonce": "n"},
    "intent": {"at": 1, "action": "roll", "moves": [[8, 5, 3, False]], "result": 0},
    "commit": {"draw": 0, "digest": "ab"},
    "reveal": {"draw": 0, "secret": "ab"},
    "halt": {"reason": "x"},
}


def odd_value(rng: random.Random, level: int = 0) -> object:
    """A JSON value of any type, a few levels deep: what a buggy or cheating peer may sign."""
    pick = rng.randrange(8 if level < 3 else 5)
    if pick == 5:
        return [odd_value(rng, level + 1) for _ in range(rng.randrange(5))]
    if pick in (6, 7):
        return {rng.choice(KEYS): odd_value(rng, level + 1) for _ in range(rng.randrange(5))}
    return rng.choice(
        [
            [None, True, False],
            [-1, 0, 1, 5, 10**30],
            [0.5, 1e308, float("inf")],
            ["", "white", "roll", "zz", "ab" * 32, "\x1b[2J"],
            ["intent", "commit", "reveal", "halt", "opening", "accept"],
        ][pick]
    )


def odd_body(rng: random.Random) -> dict[str, object]:
    """A body of a real kind with a field or two changed (in a hello, maybe its match's)."""
    kind = rng.choice(list(FIELDS))
    body: dict[str, object] = {"kind": kind, **FIELDS[kind]}
    for _ in range(rng.randrange(1, 3)):
        body[rng.choice([*body, "extra"])] = odd_value(rng)
    if kind == "hello" and rng.random() < 0.6:
        match = json.loads(to_json(MATCH))
        match[rng.choice(list(match))] = odd_value(rng)
        body["match"] = json.dumps(match)
    return body


def test_two_thousand_odd_messages_signed_by_the_peer_never_raise() -> None:
    rng = random.Random(25)
    black = Session(pairing(), BLACK, MATCH)
    for n in range(2_000):
        if n % 50 == 0:  # a fresh session now and then: numbered messages get taken too
            black = Session(pairing(), BLACK, MATCH)
        due = len(black.received) + 1
        seq = rng.choice([0, 0, due, due, due + 1, due - 1, odd_value(rng)])
        text = json.dumps({"v": 2, "side": "white", "seq": seq, "body": odd_body(rng)})
        black.take(signed(text.encode()))  # taken, ignored or a pause: never an exception
        if black.paused is not None:
            assert black.paused.reason.isprintable()


def test_a_halt_that_comes_before_the_messages_it_follows_pauses_at_once() -> None:
    # A board that paused at the other's hello resends nothing: what its halt follows may
    # never come, and the other board must not wait for it (nor claim a forfeit).
    white, black = Session(pairing(), WHITE, MATCH), Session(pairing(), BLACK, MATCH)
    white.send(Intent(1, Action.OPENING))  # lost: sent before Black listened
    black.take(white.send(Halt("the boards disagree")))
    assert black.paused is not None
    assert black.paused.reason == "white paused the match: the boards disagree"
