"""The protocol's pure core: pairing, signed messages, fair dice, and the cheats it catches."""

from __future__ import annotations

import os
from collections import Counter
from functools import cache

import pytest

from bgpi.base.words import BLACK, WHITE
from bgpi.journal.records import MatchStarted
from bgpi.remote.fairdice import SECRET_BYTES, commitment, dice_of
from bgpi.remote.pairing import Pairing, PairingError, new_code, normalize
from bgpi.remote.session import Session
from bgpi.remote.wire import (
    Action,
    BadMessageError,
    Commit,
    Intent,
    Reveal,
    open_envelope,
    seal,
)

MATCH = MatchStarted(5)
CODE = "K7QDM-2PXWA"


@cache
def pairing(code: str = CODE) -> Pairing:
    return Pairing(code)


def boards() -> tuple[Session, Session]:
    return Session(pairing(), WHITE, MATCH), Session(pairing(), BLACK, MATCH)


def deliver(sender: Session, receiver: Session) -> list[object]:
    """Send everything ``sender`` owes and deliver it to ``receiver``; what was accepted."""
    accepted: list[object] = []
    while owed := sender.due():
        for body in owed:
            accepted += receiver.take(sender.send(body)).accepted
    return accepted


def exchange(white: Session, black: Session, draw: int) -> None:
    white.remember(draw, os.urandom(SECRET_BYTES))
    black.remember(draw, os.urandom(SECRET_BYTES))
    for _ in range(3):
        deliver(white, black)
        deliver(black, white)


def test_a_code_is_read_back_however_it_is_typed() -> None:
    code = new_code()
    assert normalize(code.lower().replace("-", " ")) == code
    assert Pairing(code.lower()).room == Pairing(code).room


@pytest.mark.parametrize(
    ("code", "why"), [("K7QDM-2PXW", "9 letters"), ("K7QDM-2PXW0", "'0' is not in")]
)
def test_a_bad_code_is_refused_saying_why(code: str, why: str) -> None:
    with pytest.raises(PairingError, match=why):
        normalize(code)


def test_two_codes_give_two_rooms_and_each_side_its_own_key() -> None:
    other = pairing("22222-22222")
    assert other.room != pairing().room
    assert pairing().key(WHITE) != pairing().key(BLACK)
    assert CODE.replace("-", "") not in pairing().topic(WHITE)


def test_a_message_opens_only_with_its_pairing_and_sender() -> None:
    raw = seal(pairing(), WHITE, 3, Commit(0, "ab"))
    assert open_envelope(pairing(), WHITE, raw).body == Commit(0, "ab")
    with pytest.raises(BadMessageError, match="signed as 'white' on black's topic"):
        open_envelope(pairing(), BLACK, raw)
    with pytest.raises(BadMessageError, match="bad signature"):
        open_envelope(pairing("22222-22222"), WHITE, raw)
    changed = raw.replace(b'"digest":"ab"', b'"digest":"cd"')
    with pytest.raises(BadMessageError, match="bad signature"):
        open_envelope(pairing(), WHITE, changed)
    with pytest.raises(BadMessageError, match="not a bgpi message"):
        open_envelope(pairing(), WHITE, b"\xff")


def test_both_boards_get_the_same_dice_and_neither_before_both_revealed() -> None:
    white, black = boards()
    white.remember(0, os.urandom(SECRET_BYTES))
    assert [type(b) for b in white.due()] == [Commit]  # no secret before black's commitment
    deliver(white, black)
    assert black.due() == []  # black has no secret of its own yet: it reveals nothing
    black.remember(0, os.urandom(SECRET_BYTES))
    deliver(black, white)  # black's commitment, then its secret (it holds white's commitment)
    assert white.dice(0) is None  # white has not revealed: it must not act on the dice yet
    deliver(white, black)
    assert white.dice(0) == black.dice(0) is not None


def test_the_dice_are_uniform_and_depend_on_both_secrets() -> None:
    counts = Counter(
        die
        for n in range(6000)
        for die in dice_of("room", n, n.to_bytes(32, "big"), b"\x07" * SECRET_BYTES)
    )
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert max(counts.values()) - min(counts.values()) < 400  # 2000 each, give or take
    first = dice_of("room", 0, b"a" * 32, b"b" * 32)
    assert {dice_of("room", 0, b"a" * 32, bytes([n]) * 32) for n in range(40)} - {first}


def test_a_secret_not_matching_its_commitment_pauses_both_boards() -> None:
    white, black = boards()
    exchange(white, black, 0)
    white.remember(1, os.urandom(SECRET_BYTES))
    black.remember(1, os.urandom(SECRET_BYTES))
    black.take(white.send(white.due()[0]))  # white's commitment
    white.take(black.send(black.due()[0]))  # black's
    lie = Reveal(1, os.urandom(SECRET_BYTES).hex())
    inbound = black.take(white.send(lie))
    assert inbound.accepted == ()
    assert black.paused is not None
    assert black.paused.reason == "white's secret for draw 1 does not match its commitment"
    assert black.dice(1) is None
    deliver(black, white)  # black owes white a halt
    assert white.paused is not None
    assert white.paused.reason == (
        "black paused the match: white's secret for draw 1 does not match its commitment"
    )


def test_an_old_message_sent_again_as_new_pauses_the_match() -> None:
    white, black = boards()
    exchange(white, black, 0)
    old = white.mine[0]
    assert isinstance(old, Commit)
    black.take(white.send(old))
    assert black.paused is not None
    assert black.paused.reason == "white repeated an old message: its commitment for draw 0"


def test_an_old_play_sent_again_pauses_the_match() -> None:
    white, black = boards()
    black.take(white.send(Intent(7, Action.PLAY, ((8, 5, 3, False), (6, 5, 1, False)))))
    black.take(white.send(Intent(12, Action.ROLL)))
    black.take(white.send(Intent(7, Action.PLAY, ((8, 5, 3, False), (6, 5, 1, False)))))
    assert black.paused is not None
    assert black.paused.reason == "white repeated an old message: play at record 7"
    assert len(black.intents(WHITE)) == 2


def test_a_duplicate_delivery_is_ignored_and_two_messages_under_one_number_pause() -> None:
    white, black = boards()
    first = white.send(Intent(3, Action.ROLL))
    assert black.take(first).accepted == (Intent(3, Action.ROLL),)
    again = black.take(first)
    assert again.duplicate and again.accepted == () and black.paused is None
    forged = seal(pairing(), WHITE, 1, Intent(3, Action.DOUBLE))
    black.take(forged)
    assert black.paused is not None
    assert black.paused.reason == "white sent two different messages numbered 1"


def test_a_forged_message_is_ignored_and_counted_and_the_match_goes_on() -> None:
    white, black = boards()
    as_black = seal(pairing(), BLACK, 1, Intent(3, Action.DROP))  # white's topic, black's name
    stranger = seal(pairing("22222-22222"), WHITE, 1, Intent(3, Action.DROP))
    notes = [black.take(as_black).note, black.take(stranger).note]
    assert black.ignored == 2 and black.paused is None and black.theirs == []
    assert "signed as 'black'" in str(notes[0]) and "bad signature" in str(notes[1])
    assert black.take(white.send(Intent(3, Action.ROLL))).accepted == (Intent(3, Action.ROLL),)


def test_messages_out_of_order_are_taken_in_order() -> None:
    white, black = boards()
    one, two, three = (white.send(Intent(n, Action.ROLL)) for n in (1, 2, 3))
    assert black.take(three).ask  # a gap: black asks for it
    assert black.take(two).accepted == ()
    assert [i.at for i in black.take(one).accepted] == [1, 2, 3]  # type: ignore[union-attr]


def test_a_hello_brings_what_the_other_board_lacks() -> None:
    white, black = boards()
    for n in (1, 2, 3):
        white.send(Intent(n, Action.ROLL))  # lost on the way
    inbound = white.take(black.hello("1"))
    assert inbound.resend == (1, 2, 3) and inbound.hello
    for seq in inbound.resend:
        black.take(white.sent[seq - 1])
    assert [i.at for i in black.intents(WHITE)] == [1, 2, 3]
    assert not black.take(white.hello("2", answer=True)).hello  # an answer is not answered


def test_boards_that_mean_different_matches_pause() -> None:
    white = Session(pairing(), WHITE, MatchStarted(5))
    black = Session(pairing(), BLACK, MatchStarted(7))
    white.take(black.hello("1"))
    assert white.paused is not None
    assert "black means a 7-point match of White and Black, white a 5-point match" in (
        white.paused.reason
    )


def test_a_session_restored_from_its_log_reveals_the_secret_it_committed_to() -> None:
    white, black = boards()
    secret = os.urandom(SECRET_BYTES)
    white.remember(0, secret)
    black.take(white.send(white.due()[0]))  # then white's power is cut
    black.remember(0, os.urandom(SECRET_BYTES))
    black_commit = black.send(black.due()[0])
    again = Session.restore(
        pairing(), WHITE, MATCH, sent=white.sent, received=[], secrets={0: secret}
    )
    again.remember(0, os.urandom(SECRET_BYTES))  # a new secret is not taken: the first stands
    again.take(black_commit)
    assert again.due() == [Reveal(0, secret.hex())]
    assert commitment(pairing().room, WHITE, 0, secret) == white.mine[0].digest  # type: ignore[union-attr]
