"""Two boards play over a real mosquitto on a loopback port, each ``bgpi demo --remote`` in
its own process: a whole match, the broker restarted and a board killed mid-match, a
cheating peer caught, and the club's results listed."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

from bgpi.base.words import BLACK, WHITE
from bgpi.journal.records import MatchStarted, Rolled
from bgpi.remote.fairdice import SECRET_BYTES
from bgpi.remote.pairing import Pairing
from bgpi.remote.wire import Action, Commit, Intent, Reveal, seal
from tests.remote.boards import Board, Peer
from tests.remote.conftest import Mosquitto

FINAL = re.compile(r"final score: White (\d+), Black (\d+)")


def pair(mosquitto: Mosquitto, tmp_path: Path, length: int = 2) -> tuple[Board, Board]:
    return (
        Board(mosquitto.url, "white", tmp_path / "white", length=length),
        Board(mosquitto.url, "black", tmp_path / "black", length=length),
    )


def finish_both(white: Board, black: Board) -> tuple[str, str, tuple[str, str]]:
    (white_rc, white_out, white_err), (black_rc, black_out, black_err) = (
        white.finish(),
        black.finish(),
    )
    assert (white_rc, black_rc) == (0, 0), (white_err, black_err)
    scores = FINAL.findall(white_out), FINAL.findall(black_out)
    assert scores[0] == scores[1] and len(scores[0]) == 1, (white_out, black_out)
    assert max(int(points) for points in scores[0][0]) >= white.length
    assert white.mat() == black.mat()
    return white_err, black_err, scores[0][0]


def test_a_whole_match_between_two_boards_and_the_clubs_results(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    white, black = pair(mosquitto, tmp_path, length=3)
    white.start("--club", "Hinterhof BG")
    black.start("--club", "Hinterhof BG")
    _, _, (won, lost) = finish_both(white, black)
    assert white.mat().count("Game") >= 1
    listed = subprocess.run(
        [sys.executable, "-m", "bgpi", "club", "results", "--broker", mosquitto.url,
         "--club", "Hinterhof BG"],
        capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert len(lines) == 2, lines  # both boards published the same result: listed once
    assert lines[0].split() == [
        "date",
        "time",
        "board",
        "players",
        "score",
        "length",
        "clock",
        "ended",
    ]
    assert re.fullmatch(
        rf"\d{{4}}-\d\d-\d\d  \d\d:\d\d  bgpi-\w+-(white|black)  White - Black  {won}-{lost}"
        r" +3 +off +(played out|resigned)",
        lines[1],
    ), lines[1]
    other = subprocess.run(
        [sys.executable, "-m", "bgpi", "club", "results", "--broker", mosquitto.url,
         "--club", "Elsewhere"],
        capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert other.stdout == "no results in club Elsewhere\n"


def test_the_broker_stopped_and_started_mid_match(mosquitto: Mosquitto, tmp_path: Path) -> None:
    white, black = pair(mosquitto, tmp_path)
    white.start()
    black.start()
    white.wait_for_records(12)
    mosquitto.stop()
    # The boards play on as far as they can and try to reconnect while the broker is away.
    # (Waiting here for Black to catch up with White would wait for a message the stopped
    # broker may still hold.)
    time.sleep(2)
    mosquitto.start()
    finish_both(white, black)


def test_one_board_killed_and_restarted_mid_turn(mosquitto: Mosquitto, tmp_path: Path) -> None:
    white, black = pair(mosquitto, tmp_path)
    white.start()
    black.start()
    # Black has rolled, and White's board waits for Black's play to light and make it.
    white.wait_for(
        lambda records: len(records) > 12 and _rolled_by(records[-1], BLACK),
        "Black's turn",
    )
    white.kill()
    before = white.records()
    white.start()
    finish_both(white, black)
    assert white.records()[: len(before)] == before  # nothing lost, nothing played twice


def _rolled_by(record: object, player: int) -> bool:
    return isinstance(record, Rolled) and record.player == player


def test_a_forged_sender_is_ignored_and_logged_and_the_match_goes_on(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    white, black = pair(mosquitto, tmp_path, length=1)
    white.start()
    white.wait_for_records(2)  # connected, subscribed, set up: waiting for Black
    stranger = Peer(mosquitto.url, BLACK, MatchStarted(1), code="22222-22222")
    black_topic = Pairing(white.code).topic(BLACK)
    try:
        forged = seal(stranger.pairing, BLACK, 1, Intent(2, Action.DOUBLE))
        stranger.transport.publish(black_topic, forged)
        as_white = seal(Pairing(white.code), WHITE, 1, Intent(2, Action.DROP))
        stranger.transport.publish(black_topic, as_white)
        stranger.transport.flush()
    finally:
        stranger.close()
    black.start()
    white_err, _, _ = finish_both(white, black)
    assert "ignored a message on black's topic: a bad signature: forged" in white_err
    assert "ignored a message on black's topic: signed as 'white' on black's topic" in white_err


def cheat_at_the_first_draw(mosquitto: Mosquitto, tmp_path: Path) -> tuple[Board, Peer]:
    """An honest White board, and a Black peer that has White's commitment for draw 0."""
    white = Board(mosquitto.url, "white", tmp_path / "white", length=1).start()
    peer = Peer(mosquitto.url, BLACK, MatchStarted(1))
    peer.until(lambda: any(isinstance(b, Commit) for b in peer.session.theirs))
    return white, peer


def paused(white: Board, peer: Peer, reason: str) -> None:
    """White stops with the reason, and tells the peer why."""
    try:
        peer.until(lambda: peer.session.paused is not None)
        assert peer.session.paused is not None
        assert peer.session.paused.reason == f"white paused the match: {reason}"
    finally:
        peer.close()
    code, _, err = white.finish()
    assert code == 1
    assert err.splitlines()[-1] == f"bgpi demo: {reason}"


def test_a_reveal_not_matching_its_commitment_pauses_the_match(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    white, peer = cheat_at_the_first_draw(mosquitto, tmp_path)
    peer.session.remember(0, os.urandom(SECRET_BYTES))
    peer.send(peer.session.due()[0])  # my commitment
    peer.send(Reveal(0, os.urandom(SECRET_BYTES).hex()))  # and another secret
    paused(white, peer, "black's secret for draw 0 does not match its commitment")


def test_a_replayed_message_pauses_the_match(mosquitto: Mosquitto, tmp_path: Path) -> None:
    white, peer = cheat_at_the_first_draw(mosquitto, tmp_path)
    peer.session.remember(0, os.urandom(SECRET_BYTES))
    while owed := peer.session.due():  # an honest commitment and reveal
        for body in owed:
            peer.send(body)
    peer.until(lambda: len(white.records()) >= 3)  # White's opening die is in
    old = peer.session.mine[0]
    assert isinstance(old, Commit)
    peer.send(old)  # the same commitment again, as a new message
    paused(white, peer, "black repeated an old message: its commitment for draw 0")


def test_boards_that_mean_different_matches_both_stop_saying_how(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    white = Board(mosquitto.url, "white", tmp_path / "white", length=1).start()
    black = Board(mosquitto.url, "black", tmp_path / "black", length=3).start()
    (white_rc, _, white_err), (black_rc, _, black_err) = white.finish(), black.finish()
    assert (white_rc, black_rc) == (1, 1)
    reasons = white_err.splitlines()[-1] + black_err.splitlines()[-1]
    assert "the boards disagree about the match" in reasons
    assert "a 1-point match of White and Black" in reasons
    assert "a 3-point match of White and Black" in reasons
