"""``bgpi sim --remote``: a person plays White with the page's commands against a ``bgpi demo
--remote`` Black in its own process, over a real mosquitto."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from bgpi.base.words import BLACK, WHITE, Player
from bgpi.journal.records import MatchStarted, OpeningRolled, Played
from bgpi.remote.broker import Broker
from bgpi.remote.browser import RemoteSimSession
from bgpi.remote.demo import RemoteGame, remote_board, seats_of
from bgpi.remote.link import Link
from bgpi.remote.pairing import Pairing
from bgpi.rules import BAR, OFF, Move, Play, Position, legal_plays
from bgpi.sensing.board import zone_of
from bgpi.service.config import Config
from bgpi.sim.simtable import SimTable
from bgpi.table import Phase
from bgpi.web.server import PageCommandError
from tests.remote.boards import CODE, Board
from tests.remote.conftest import Mosquitto


def until(session: RemoteSimSession, done: Callable[[], bool], what: str) -> None:
    end = time.monotonic() + 120  # a machine under load starts the other process slowly
    while not done():
        assert time.monotonic() < end, f"never: {what}"
        session.catch_up()
        time.sleep(0.02)


def press(session: RemoteSimSession, player: Player, button: str) -> None:
    for kind in ("press", "release"):
        session.command({"type": kind, "player": player, "button": button})


def hand_move(session: RemoteSimSession, player: Player, move: Move) -> None:
    """One checker moved with the page's hands (a blot hit goes to the bar first)."""
    if move.hit:
        hit = player.other
        session.command({"type": "lift", "zone": zone_of(player, move.dst), "colour": hit})
        session.command({"type": "place", "zone": zone_of(hit, BAR), "colour": hit})
    session.command({"type": "lift", "zone": zone_of(player, move.src), "colour": player})
    if move.dst != OFF:
        session.command({"type": "place", "zone": zone_of(player, move.dst), "colour": player})


def to_my_turn(session: RemoteSimSession) -> None:
    """White's opening die and Black's from the other board until they differ; if Black
    won it, its play made here by the page's hands and White's roll: White is to move."""
    sim = session.sim
    log = sim.driver.log
    while not any(isinstance(r, OpeningRolled) and r.white != r.black for r in log):
        press(session, WHITE, "roll")  # my die; Black's comes from the other board
        count = len(log)
        until(session, lambda c=count: len(log) >= c + 2, "Black's opening die")
    if sim.match.turn == BLACK:  # Black's play comes, lit move by move: I make it
        until(session, lambda: sim.phase is Phase.GUIDED, "Black's play lit")
        for move in sim.table.at.moves:  # type: ignore[union-attr]
            hand_move(session, BLACK, move)
            sim.advance(0.2)  # the board settles: a lit move counts once the board shows it
        until(session, lambda: isinstance(log[-1], Played), "Black's play committed")
        assert log[-1].player == BLACK  # type: ignore[union-attr]
        press(session, WHITE, "roll")  # and roll
        until(session, lambda: sim.phase is Phase.MOVING, "my roll")


@dataclass(frozen=True)
class MyTurn:
    """White's turn at the page, against a ``bgpi demo --remote`` Black: the first legal play
    of White's roll made with the page's hands and settled, not yet ended."""

    sim: SimTable
    link: Link
    session: RemoteSimSession
    black: Board
    play: Play


@contextmanager
def my_play_made(mosquitto: Mosquitto, tmp_path: Path) -> Iterator[MyTurn]:
    black = Board(mosquitto.url, "black", tmp_path / "black", length=1).start()
    game = RemoteGame(Broker.parse(mosquitto.url), Pairing(CODE), WHITE, 1, patience=60)
    match = replace(MatchStarted(1), seats=seats_of(WHITE))
    config = Config()
    try:
        with remote_board(game, match, tmp_path / "white") as (sim, link):
            sim.setup()
            session = RemoteSimSession(sim, config.ledmap, config.style, link)
            to_my_turn(session)
            assert sim.match.dice is not None
            play = legal_plays(sim.table.mover_view, sim.match.dice)[0]
            for move in play.moves:
                hand_move(session, WHITE, move)
            sim.advance(0.2)  # the board settles (the page's clock would let the time pass)
            yield MyTurn(sim, link, session, black, play)
    finally:
        print(black.kill())  # shown when the test fails


def test_a_person_in_the_browser_plays_a_remote_board(mosquitto: Mosquitto, tmp_path: Path) -> None:
    with my_play_made(mosquitto, tmp_path) as turn:
        session, log = turn.session, turn.sim.driver.log
        press(session, WHITE, "roll")  # the end of my turn
        mine = len(log) - 1
        made = log[mine]
        assert isinstance(made, Played) and made.player == WHITE
        assert sorted(made.moves) == sorted(Played.of(WHITE, turn.play.moves).moves)
        intents = turn.link.session.intents
        until(session, lambda: any(i.at == mine for i in intents(WHITE)), "sent")
        turn.black.wait_for(lambda records: len(records) > mine, "my play at Black's board")
        assert turn.black.records()[1 : mine + 1] == log[1 : mine + 1]  # alike, but the seats


def test_black_cannot_roll_its_opening_die_before_white(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    game = RemoteGame(Broker.parse(mosquitto.url), Pairing(CODE), BLACK, 1, patience=60)
    match = replace(MatchStarted(1), seats=seats_of(BLACK))
    config = Config()
    with remote_board(game, match, tmp_path / "black") as (sim, link):
        sim.setup()
        session = RemoteSimSession(sim, config.ledmap, config.style, link)
        try:
            press(session, BLACK, "roll")
        except PageCommandError as exc:
            assert str(exc) == "White rolls the first opening die: wait for it"
        else:
            raise AssertionError("Black rolled first")
        assert sim.table.opening == (None, None)


def extra_move(position: Position) -> Move:
    """A White checker one pip on to a point free of Black's, after the play that left
    ``position``: a board no legal play of the roll leaves."""
    for point in range(24, 1, -1):
        if position.player[point] and not position.opponent[25 - (point - 1)]:
            return Move(point, point - 1, 1)
    raise AssertionError("no point to move an extra checker to")


def test_an_illegal_play_against_a_remote_board_is_corrected_never_sent(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    """The other board cannot check a play its rules refuse, so ROLL does not end the turn
    on an illegal board; the status says why, and once corrected the play goes across."""
    with my_play_made(mosquitto, tmp_path) as turn:
        sim, session, log = turn.sim, turn.session, turn.sim.driver.log
        extra = extra_move(turn.play.result)
        hand_move(session, WHITE, extra)  # one checker too many moved: illegal
        sim.advance(0.2)
        before = len(log)
        press(session, WHITE, "roll")
        sim.advance(0.2)
        session.follow()
        assert sim.phase is Phase.MOVING and len(log) == before  # nothing made, nothing sent
        line = session_status(session)
        assert "an illegal play is always corrected" in line, line
        assert "ROLL ends the turn" not in line
        hand_move(session, WHITE, Move(extra.dst, extra.src, 1))  # the correction
        sim.advance(0.2)
        press(session, WHITE, "roll")
        until(session, lambda: len(log) > before, "my play committed")
        made = log[before]
        assert isinstance(made, Played) and made.player == WHITE
        assert sorted(made.moves) == sorted(Played.of(WHITE, turn.play.moves).moves)
        intents = turn.link.session.intents
        until(session, lambda: any(i.at == before for i in intents(WHITE)), "sent")
        turn.black.wait_for(lambda records: len(records) > before, "my play at Black's board")
        assert turn.black.records()[before] == made


def session_status(session: RemoteSimSession) -> str:
    state = session.snapshot().state
    assert state is not None
    return str(state["status"])
