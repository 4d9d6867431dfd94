"""A remote match won by forfeit, in the pure parts: the claim settled by both sessions (and
crossed claims settled the same way on both), the Forfeit record through the table, the
``.mat`` export, the journal (a real SQLite file), the club's result and the LEDs' scene."""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from bgpi.base.geometry import Geometry
from bgpi.base.words import BLACK, ROLL, WHITE, ButtonName
from bgpi.journal.export import MatHeader, export_mat
from bgpi.journal.records import (
    Forfeit,
    GameEnded,
    MatchStarted,
    Played,
    Record,
    Rolled,
    from_json,
)
from bgpi.journal.store import Journal
from bgpi.lights.scene import Meaning
from bgpi.present.gamelog import GameLog
from bgpi.present.leds import scene_of
from bgpi.present.status import status
from bgpi.remote.board import LinkState
from bgpi.remote.broker import Broker
from bgpi.remote.club import ClubResult, Ending
from bgpi.remote.evening import table
from bgpi.remote.fairdice import SECRET_BYTES
from bgpi.remote.log import MessageLog, log_path
from bgpi.remote.pairing import Pairing
from bgpi.remote.session import Session
from bgpi.remote.transport import Message, Transport
from bgpi.remote.wire import Action, Claim, Commit, Intent
from bgpi.rules import legal_plays
from bgpi.sensing.board import capacities
from bgpi.service.app import App
from bgpi.sim.demo import play_match
from bgpi.table import Phase, Table, TableConfig
from bgpi.table.errors import TableError
from bgpi.table.phases import Choosing, Forfeited, MatchOver
from tests.remote.boards import CODE, Board, Peer
from tests.remote.conftest import Mosquitto
from tests.remote.test_run import (
    RunBoard,
    opening_31,
    peer_draws,
    remote_config,
    soon,
    where,
)

MATCH = MatchStarted(3)
CONFIG = TableConfig(capacities(Geometry.default()))


@cache
def pairing() -> Pairing:
    return Pairing(CODE)


PAIRING = pairing()


@cache
def played() -> tuple[Record, ...]:
    return tuple(play_match(MATCH, seed=2, say=lambda _: None).driver.log)  # three games


def cut_in_game_two() -> list[Record]:
    """The match's records up to Black's first roll in its second game."""
    records = list(played())
    second = next(i for i, r in enumerate(records) if isinstance(r, GameEnded))
    roll = next(
        i for i, r in enumerate(records) if i > second and isinstance(r, Rolled) and r.player
    )
    return records[:roll]


def test_a_claim_settles_the_match_for_the_claimant_and_for_the_board_it_reaches() -> None:
    white, black = Session(pairing(), WHITE, MATCH), Session(pairing(), BLACK, MATCH)
    for at in (1, 2):
        white.take(black.send(Intent(at, Action.ROLL)))
    black.send(Intent(3, Action.ROLL))  # sent, but lost: White waits, then claims
    claim = white.send(Claim(len(white.received), 120))
    assert white.forfeit is not None and white.forfeit.winner == WHITE
    assert white.due() == []
    black.take(claim)
    assert black.forfeit is not None and black.forfeit.winner == WHITE
    assert black.forfeit.late == 1  # its third message came too late
    assert black.due() == []


def test_a_claim_to_hold_messages_never_sent_is_a_cheat() -> None:
    white, black = Session(pairing(), WHITE, MATCH), Session(pairing(), BLACK, MATCH)
    black.take(white.send(Claim(5, 120)))
    assert black.forfeit is None and black.paused is not None
    assert black.paused.reason == "white claimed a forfeit having 5 messages of 0"


def test_a_claim_counting_fewer_records_than_its_intents_name_is_a_cheat() -> None:
    # Black's play is record 2 of its journal (sent once journaled): a claim made at record 2
    # would cut that play, and whatever followed, out of White's file of the match.
    white, black = Session(pairing(), WHITE, MATCH), Session(pairing(), BLACK, MATCH)
    white.take(black.send(Intent(1, Action.ROLL)))
    white.take(black.send(Intent(2, Action.PLAY, ((24, 18, 6, False),))))
    white.take(black.send(Claim(0, 120, 2)))
    assert white.forfeit is None and white.paused is not None
    assert white.paused.reason == "black claimed a forfeit at record 2, its intents name record 3"
    fair = Session(pairing(), WHITE, MATCH)
    for raw in black.sent[:2]:
        fair.take(raw)
    fair.take(Session.restore(pairing(), BLACK, MATCH, sent=black.sent[:2], received=[],
                              secrets={}).send(Claim(0, 120, 3)))  # fmt: skip
    assert fair.forfeit is not None and fair.forfeit.claim.at == 3


def test_crossed_claims_settle_the_same_way_on_both_boards() -> None:
    # The link broke both ways: White lacks Black's reveal and claims; Black, which sent it
    # and then waited for White, claims too. Black's claim stands: it had every message
    # White sent before White's claim, and White did not have Black's.
    white, black = Session(pairing(), WHITE, MATCH), Session(pairing(), BLACK, MATCH)
    black.take(white.send(Intent(1, Action.ROLL)))
    lost = black.send(Intent(2, Action.ROLL))
    white_claim = white.send(Claim(len(white.received), 120))
    black_claim = black.send(Claim(len(black.received), 120))
    assert white.forfeit is not None and white.forfeit.winner == WHITE  # until it hears
    white.take(lost)
    white.take(black_claim)
    black.take(white_claim)
    assert white.forfeit is not None and black.forfeit is not None
    assert white.forfeit.winner == black.forfeit.winner == BLACK
    assert white.forfeit.claim == black.forfeit.claim == Claim(1, 120)


def test_the_table_ends_the_match_by_forfeit_whatever_the_score() -> None:
    records = [*cut_in_game_two(), Forfeit(BLACK)]
    table = Table.replay(CONFIG, records)
    assert table.phase is Phase.MATCH_OVER and isinstance(table.at, MatchOver)
    assert table.at == Forfeited(BLACK)
    assert not table.match.match_over  # the score is as played
    assert scene_of(table).winner == BLACK
    again = table.apply(Forfeit(WHITE))  # crossed claims settled the other way
    assert again.at == Forfeited(WHITE)
    with pytest.raises(TableError, match="the match was decided"):
        Table.replay(CONFIG, [*played(), Forfeit(BLACK)])
    choosing = Table.replay(CONFIG, list(played()))
    with pytest.raises(TableError, match="the match was decided"):
        replace(choosing, at=Choosing(MATCH.rules())).apply(Forfeit(BLACK))


def test_a_forfeit_is_one_record_read_back_from_its_json() -> None:
    assert from_json('{"kind":"forfeit","winner":1}') == Forfeit(BLACK)
    with pytest.raises(ValueError, match="winner 2 is not 0"):
        from_json('{"kind":"forfeit","winner":2}')


def test_the_mat_holds_the_games_played_and_says_who_won_by_forfeit() -> None:
    records = [*cut_in_game_two(), Forfeit(BLACK)]
    mat = export_mat(records)
    assert mat.startswith(
        "; Black wins the match by forfeit in game 2: White's board fell silent; "
        "the games are as played\n"
    )
    assert mat.count(" Game ") == 2 and "Wins" in mat  # the first game, and the second begun
    # The rest as the games were played, the second ended by White resigning what Black
    # lacks (3 points at a cube of 1): gnubg's score shows Black's match.
    played_lines = export_mat(records[:-1]).rstrip().splitlines()
    lines = mat.rstrip().splitlines()
    assert lines[-len(played_lines) : -1] == played_lines[:-1]
    assert lines[-1].startswith(played_lines[-1])
    assert lines[-1].endswith("  Wins 3 points and the match")


def test_the_journal_counts_a_forfeited_match_finished(tmp_path: Path) -> None:
    records = [*cut_in_game_two(), Forfeit(WHITE)]
    with Journal.open(tmp_path / "journal.sqlite") as journal:
        journal.new_match(MATCH)
        journal.append_all(records[1:])
        info = journal.matches()[-1]
        assert info.finished and info.forfeit == WHITE
        assert max(info.score) < MATCH.length  # as played
        assert journal.records() == records


def test_the_game_log_and_the_clubs_result_say_it() -> None:
    records = [*cut_in_game_two(), Forfeit(WHITE)]
    log = GameLog()
    for record in records:
        log.add(record)
    assert log.lines[-1].text == "White wins the match by forfeit"
    result = ClubResult.of(records, MatHeader("b", None, 1_795_000_000.0))
    assert ClubResult.from_json(result.to_json()) == result
    assert result.forfeit == WHITE and result.ending is Ending.FORFEIT
    assert table([result])[1].endswith("  3       off    forfeit, White wins")


def test_a_board_stopped_while_it_owes_its_reveal_loses_by_forfeit_and_both_agree(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    white = Board(mosquitto.url, "white", tmp_path / "white", length=3).start("--patience", "4")
    black = Board(mosquitto.url, "black", tmp_path / "black", length=3).start()
    spy = Transport(
        Broker.parse(mosquitto.url), topics=(f"bgpi/v1/{PAIRING.room}/#",), persistent=False
    ).open()
    try:
        white.wait_for_records(20)
        spy.poll(0)  # what was said so far
        stop_black_owing_its_reveal(spy, white, black)
        white_code, white_out, white_err = white.finish(60)
    finally:
        spy.close()
        for board in (white, black):  # whatever happened, nobody stays stopped
            assert board.process is not None
            board.process.send_signal(signal.SIGCONT)
    black_code, black_out, black_err = black.finish(60)
    assert (white_code, black_code) == (0, 0), (white_err, black_err)
    for out, err in ((white_out, white_err), (black_out, black_err)):
        assert "White wins the match by forfeit" in out
        assert "white won the match by forfeit: black said nothing for 4 s" in err
    white_records, black_records = white.records(), black.records()
    assert white_records[-1] == black_records[-1] == Forfeit(WHITE)
    # One match (each seats itself: its first records differ), and one file of it.
    assert white_records[1:] == black_records[1:]
    assert white.mat() == black.mat()
    assert white.mat().splitlines()[0].startswith("; White wins the match by forfeit in game")
    for board in (white, black):
        with Journal.open(board.state / "journal.sqlite", read_only=True) as journal:
            assert journal.matches()[-1].forfeit == WHITE
    whites = bodies(white, "sent")
    (draw,) = [b["draw"] for b in whites if b["kind"] == "commit"][-1:]
    (have,) = [b["have"] for b in whites if b["kind"] == "forfeit"]
    blacks = [{"kind": b["kind"], "draw": b.get("draw")} for b in bodies(black, "sent")]
    # Black owed its reveal of White's last draw: White's claim had none (woken, Black's
    # board may send it before it takes the claim: it came too late).
    assert {"kind": "reveal", "draw": draw} not in blacks[:have]
    before = white_records[-2]  # the claim came right after White's play
    assert isinstance(before, Played) and before.player == WHITE, white_records[-4:]
    restarted = Board(mosquitto.url, "white", tmp_path / "white", length=3).start()
    code, _, err = restarted.finish(60)
    assert code == 1 and "was used for a match that is over" in err, err  # it stays over


def bodies(board: Board, direction: str) -> list[dict[str, object]]:
    """The bodies of the messages in ``board``'s message log."""
    side = WHITE if board.side == "white" else BLACK
    with MessageLog(log_path(board.state, PAIRING, side)) as messages:
        return [json.loads(raw[65:])["body"] for raw in messages.messages(direction)]


def stop_black_owing_its_reveal(spy: Transport, white: Board, black: Board) -> None:
    """White's board is stopped (SIGSTOP) as its play goes out; when Black's next decision
    is a roll (not a double), Black's board is stopped as it announces it, and White's goes
    on: Black committed to its secret but cannot have revealed it, for White committed to
    its own only now. Black owes its reveal."""
    assert white.process is not None and black.process is not None
    white_stopped = False
    end = time.monotonic() + 60
    while time.monotonic() < end:
        for arrival in spy.poll(0.05):
            if not isinstance(arrival, Message):
                continue
            side = arrival.topic.rsplit("/", 1)[1]
            action = json.loads(arrival.payload[65:])["body"].get("action")
            if side == "white" and action == "play" and not white_stopped:
                white.process.send_signal(signal.SIGSTOP)
                white_stopped = True
            elif side == "black" and white_stopped and action is not None:
                if action == "roll":
                    black.process.send_signal(signal.SIGSTOP)
                white.process.send_signal(signal.SIGCONT)
                white_stopped = False
                if action == "roll":
                    return
    raise AssertionError("Black did not roll after a play of White's")


def test_bgpi_run_ends_the_match_the_same_way_when_it_takes_a_claim(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    run = RunBoard(remote_config(mosquitto.url, 3), tmp_path / "white")
    with run.running() as app:
        peer = Peer(mosquitto.url, BLACK, MatchStarted(3))
        try:
            # White's hands set up and roll the opening die: White's board owes nothing now;
            # Black's, out of patience (so it says), claims the match.
            peer.until(lambda: any(isinstance(b, Commit) for b in peer.session.theirs), 60)
            peer.send(Claim(len(peer.session.received), 120))
            peer.transport.flush()
        finally:
            peer.close()
        driver, remote = app.driver, app.remote
        assert driver is not None and remote is not None
        end = time.monotonic() + 10
        while remote.status().state is not LinkState.OVER:
            assert time.monotonic() < end, where(app)
            time.sleep(0.05)
        assert driver.table.at == Forfeited(BLACK)
        assert scene_of(driver.table).winner == BLACK
    assert run.records()[-1] == Forfeit(BLACK)
    assert run.mat().startswith("; Black wins the match by forfeit in game 1")


PATIENCE = 5  # seconds: the least [remote] patience (a silence shows as a fault after 4)


@contextmanager
def offered(mosquitto: Mosquitto, tmp_path: Path) -> Iterator[tuple[RunBoard, App, Peer]]:
    """``bgpi run`` as White, with the least patience, against a Black the test drives:
    White's hands set up and roll the opening die, Black never answers (it owes its half of
    the dice), and White is offered the claim."""
    config = remote_config(mosquitto.url, 3)
    run = RunBoard(replace(config, remote=replace(config.remote, patience=PATIENCE)), tmp_path)
    with run.running() as app:
        peer = Peer(mosquitto.url, BLACK, MatchStarted(3))
        try:
            peer.until(lambda: any(isinstance(b, Commit) for b in peer.session.theirs), 60)
            soon(app, lambda: table_now(app).claimant == WHITE, "the claim offered", 60)
            yield run, app, peer
        finally:
            peer.close()


def table_now(app: App) -> Table:
    assert app.driver is not None
    return app.driver.table


def hold(run: RunBoard, button: ButtonName) -> None:
    """White's person holds ``button`` past the long press, then lets go."""
    run.buttons.press(WHITE, button)
    time.sleep(run.config.buttons.long_press_ms / 1000 + 0.3)
    run.buttons.release(WHITE, button)


def test_bgpi_run_offers_the_claim_once_the_other_board_owes_and_is_silent_and_a_held_roll_makes_it(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    with offered(mosquitto, tmp_path) as (run, app, peer):
        table = table_now(app)
        assert table.phase is Phase.ROLLING
        assert scene_of(table).prompt(WHITE, ROLL) == Meaning.CLAIM
        line = status(table, scene_of(table))
        assert "Hold ROLL to claim the match by forfeit." in line, line
        hold(run, ROLL)
        peer.until(lambda: peer.session.forfeit is not None, 30)  # the claim reached it
        forfeit = peer.session.forfeit
        assert forfeit is not None and forfeit.winner == WHITE
        assert forfeit.claim.silent >= PATIENCE
        remote = app.remote
        assert remote is not None
        soon(app, lambda: remote.status().state is LinkState.OVER, "the match over")
        assert table_now(app).at == Forfeited(WHITE)
        assert scene_of(table_now(app)).winner == WHITE
    assert run.records()[-1] == Forfeit(WHITE)
    assert run.mat().startswith("; White wins the match by forfeit in game 1")


def test_the_offer_is_gone_once_the_other_board_speaks_and_a_held_roll_then_claims_nothing(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    with offered(mosquitto, tmp_path) as (run, app, peer):
        peer.session.remember(0, os.urandom(SECRET_BYTES))
        peer.send(peer.session.due()[0])  # Black's commitment: the match moves on
        soon(app, lambda: table_now(app).claimant is None, "the offer taken back")
        assert scene_of(table_now(app)).prompt(WHITE, ROLL) is None
        hold(run, ROLL)
        time.sleep(0.5)  # the loop goes round: nothing is claimed
        peer.until(lambda: True)
        assert app.remote is not None and app.remote.link.session.forfeit is None
        assert peer.session.forfeit is None
        kinds = [json.loads(raw[65:])["body"]["kind"] for raw in app.remote.link.session.sent]
        assert "forfeit" not in kinds and "commit" in kinds
        assert table_now(app).phase is Phase.ROLLING  # Black still owes its secret
    assert not any(isinstance(r, Forfeit) for r in run.records())


def test_a_roll_left_unplayed_by_the_forfeit_is_a_line_of_the_log_like_any() -> None:
    records = [*cut_in_game_two()]
    roll = next(r for r in played()[len(records) :] if isinstance(r, Rolled))
    log = GameLog()
    for record in [*records, roll, Forfeit(WHITE)]:
        log.add(record)
    assert log.complete == len(log.lines)  # nothing waits for a play: all of it is printed
    assert [line.text for line in log.lines[-2:]][1] == "White wins the match by forfeit"


def test_a_board_stopped_before_it_made_the_claimants_play_journals_it_before_the_forfeit(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    # Black's board plays, journals its play and sends it, then waits for White's decision;
    # White's board is stopped before it took the play (the person walked away), so Black
    # claims. White, back, takes the play and the claim together: its journal ends with
    # Black's play as Black's does, then the Forfeit, and the two files are one match.
    white = Board(mosquitto.url, "white", tmp_path / "white", length=3).start()
    black = Board(mosquitto.url, "black", tmp_path / "black", length=3).start("--patience", "4")
    spy = Transport(
        Broker.parse(mosquitto.url), topics=(f"bgpi/v1/{PAIRING.room}/#",), persistent=False
    ).open()
    try:
        white.wait_for_records(12)
        spy.poll(0)
        at = stop_white_before_blacks_play(spy, white)
        black_code, black_out, black_err = black.finish(60)  # it claims, and is done
    finally:
        spy.close()
        assert white.process is not None
        white.process.send_signal(signal.SIGCONT)
    white_code, white_out, white_err = white.finish(60)
    assert (white_code, black_code) == (0, 0), (white_err, black_err)
    for out in (white_out, black_out):
        assert "Black wins the match by forfeit" in out
    white_records, black_records = white.records(), black.records()
    assert isinstance(black_records[at], Played) and black_records[at].player == BLACK
    assert white_records[at] == black_records[at]  # made here though nobody's hands did
    assert white_records[-1] == black_records[-1] == Forfeit(BLACK)
    assert white_records[1:] == black_records[1:]  # each seats itself: the first differs
    assert white.mat() == black.mat()


def stop_white_before_blacks_play(spy: Transport, white: Board) -> int:
    """White's board stopped (SIGSTOP) as it sends its secret for a roll of Black's (Black
    plays once it has it), until Black's play goes out; the play's record number once White
    had not made it by then (else White goes on, and the next roll of Black's is tried)."""
    assert white.process is not None
    last: tuple[str, object] | None = None  # the last intent on the broker: side, action
    stopped = False
    end = time.monotonic() + 90
    while time.monotonic() < end:
        for arrival in spy.poll(0.05):
            if not isinstance(arrival, Message):
                continue
            side = arrival.topic.rsplit("/", 1)[1]
            body = json.loads(arrival.payload[65:])["body"]
            if body["kind"] == "intent":
                last = (side, body["action"])
            if (side, body["kind"], last) == ("white", "reveal", ("black", "roll")):
                white.process.send_signal(signal.SIGSTOP)
                stopped = True
            elif stopped and (side, body.get("action")) == ("black", "play"):
                if len(white.records()) <= body["at"]:
                    return int(body["at"])
                white.process.send_signal(signal.SIGCONT)
                stopped = False
    raise AssertionError("White's board made every play of Black's before it could be stopped")


def test_bgpi_run_makes_the_claimants_play_it_took_with_the_claim_before_the_forfeit(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    run = RunBoard(remote_config(mosquitto.url, 3), tmp_path / "white")
    with run.running() as app:
        driver = app.driver
        assert driver is not None
        peer = Peer(mosquitto.url, BLACK, MatchStarted(3))
        try:
            opening_31(peer, app)
            peer.until(lambda: any(i.at == 5 for i in peer.session.intents(WHITE)), 60)
            peer.send(Intent(6, Action.ROLL))
            peer_draws(peer, app, 2, lambda dice: dice[0] != dice[1])
            soon(app, lambda: len(driver.log) == 7, "Black's roll")
            table = driver.table
            dice = table.match.dice
            assert table.phase is Phase.MOVING and dice is not None
            play = Played.of(BLACK, legal_plays(table.mover_view, dice)[0].moves)
            # Black's board journaled its play and sent it, then claimed (as if White's had
            # said nothing since): both reach White's board together.
            peer.send(Intent(7, Action.PLAY, play.moves))
            peer.send(Claim(len(peer.session.received), 300, 8))
            peer.transport.flush()
        finally:
            peer.close()
        soon(app, lambda: driver.table.at == Forfeited(BLACK), "the forfeit")
    records = run.records()
    assert records[7:] == [play, Forfeit(BLACK)]  # Black's journal: its 8 records, then this


def test_a_play_the_claim_crossed_is_kept_in_the_journal_and_left_out_of_the_match(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    # White's person plays at last, as Black's claim is on its way: White's board journals
    # the play and sends it, but Black's had claimed without it (the claimant's order: it
    # came too late). White's journal keeps it, its Forfeit says so, and its .mat is Black's.
    run = RunBoard(remote_config(mosquitto.url, 3), tmp_path / "white")
    with run.running() as app:
        driver = app.driver
        assert driver is not None
        peer = Peer(mosquitto.url, BLACK, MatchStarted(3))
        try:
            opening_31(peer, app)
            soon(app, lambda: len(driver.log) == 6, "White's play")  # not taken by Black
            peer.send(Claim(len(peer.session.received), 300, 5))
            peer.transport.flush()
        finally:
            peer.close()
        soon(app, lambda: isinstance(driver.table.at, Forfeited), "the forfeit")
    records = run.records()
    assert isinstance(records[5], Played) and records[5].player == WHITE
    assert records[6:] == [Forfeit(BLACK, late=1)]
    blacks = [*records[:5], Forfeit(BLACK)]  # the claimant's journal (but for its seats)
    assert run.mat() == export_mat(blacks)
    assert "31:" not in run.mat()  # White's play is not in it
    result = ClubResult.of(records, MatHeader("b", None, 1_795_000_000.0))
    assert result.score == ClubResult.of(blacks, MatHeader("b", None, 1_795_000_000.0)).score


def test_a_forfeits_late_records_are_a_count_read_back_from_its_json() -> None:
    assert from_json('{"kind":"forfeit","winner":1,"late":2}') == Forfeit(BLACK, 2)
    with pytest.raises(ValueError, match="a forfeit's late records: -1, expected a count"):
        Forfeit(BLACK, -1)
    records = [*cut_in_game_two(), Forfeit(BLACK)]
    late = [*records[:-1], *played()[len(records) - 1 : len(records) + 1], Forfeit(BLACK, 2)]
    assert export_mat(late) == export_mat(records)


def test_a_game_this_board_ended_as_the_claim_crossed_it_counts_nowhere(tmp_path: Path) -> None:
    # White bore off its last checker as Black's claim (made before that play) crossed it:
    # the play and the game's end stay in White's journal, and count neither in the match
    # list's score nor in the .mat, as in Black's journal, which never had them.
    records = list(played())
    end = next(i for i, r in enumerate(records) if isinstance(r, GameEnded))
    assert isinstance(records[end - 1], Played)
    blacks = [*records[: end - 1], Forfeit(BLACK)]
    whites = [*records[: end + 1], Forfeit(BLACK, late=2)]
    with Journal.open(tmp_path / "journal.sqlite") as journal:
        journal.new_match(MATCH)
        journal.append_all(whites[1:])
        info = journal.matches()[-1]
        assert info.finished and info.forfeit == BLACK
        assert (info.games, info.score) == (0, (0, 0))
        assert journal.records() == whites  # kept, as the board journaled them
    assert export_mat(whites) == export_mat(blacks)
    assert Table.replay(CONFIG, whites).at == Forfeited(BLACK)
