"""``bgpi sim --remote``: a person plays White with the page's commands against a ``bgpi demo
--remote`` Black in its own process, over a real mosquitto."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from bgpi.config import Config
from bgpi.records import MatchStarted, OpeningRolled, Played
from bgpi.remote.broker import Broker
from bgpi.remote.browser import RemoteSimSession
from bgpi.remote.demo import RemoteGame, remote_board, seats_of
from bgpi.remote.pairing import Pairing
from bgpi.rules import BAR, OFF, Move, legal_plays
from bgpi.sensing.board import zone_of
from bgpi.table import Phase
from bgpi.web.server import CommandError
from bgpi.words import BLACK, WHITE
from tests.remote.boards import CODE, Board
from tests.remote.conftest import Mosquitto


def until(session: RemoteSimSession, done: Callable[[], bool], what: str) -> None:
    end = time.monotonic() + 60
    while not done():
        assert time.monotonic() < end, f"never: {what}"
        session.catch_up()
        time.sleep(0.02)


def press(session: RemoteSimSession, player: int, button: str) -> None:
    for kind in ("press", "release"):
        session.command({"type": kind, "player": player, "button": button})


def hand_move(session: RemoteSimSession, player: int, move: Move) -> None:
    """One checker moved with the page's hands (a blot hit goes to the bar first)."""
    if move.hit:
        session.command({"type": "lift", "zone": zone_of(player, move.dst), "colour": 1 - player})
        session.command({"type": "place", "zone": zone_of(1 - player, BAR), "colour": 1 - player})
    session.command({"type": "lift", "zone": zone_of(player, move.src), "colour": player})
    if move.dst != OFF:
        session.command({"type": "place", "zone": zone_of(player, move.dst), "colour": player})


def test_a_person_in_the_browser_plays_a_remote_board(mosquitto: Mosquitto, tmp_path: Path) -> None:
    black = Board(mosquitto.url, "black", tmp_path / "black", length=1).start()
    game = RemoteGame(Broker.parse(mosquitto.url), Pairing(CODE), WHITE, 1, patience=60)
    match = replace(MatchStarted(1), seats=seats_of(WHITE))
    config = Config()
    try:
        with remote_board(game, match, tmp_path / "white") as (sim, link):
            sim.setup()
            session = RemoteSimSession(sim, config.ledmap, config.style, link)
            log = sim.driver.log
            while not any(isinstance(r, OpeningRolled) and r.white != r.black for r in log):
                press(session, WHITE, "roll")  # my die; Black's comes from the other board
                count = len(log)
                until(session, lambda c=count: len(log) >= c + 2, "Black's opening die")
            if sim.match.turn == BLACK:  # Black's play comes, lit move by move: I make it
                until(session, lambda: sim.phase is Phase.GUIDED, "Black's play lit")
                for move in sim.table.at.moves:  # type: ignore[union-attr]
                    hand_move(session, BLACK, move)
                sim.advance(0.2)
                until(session, lambda: isinstance(log[-1], Played), "Black's play committed")
                assert log[-1].player == BLACK  # type: ignore[union-attr]
                press(session, WHITE, "roll")  # and roll
                until(session, lambda: sim.phase is Phase.MOVING, "my roll")
            assert sim.match.dice is not None
            play = legal_plays(sim.table.mover_view, sim.match.dice)[0]
            for move in play.moves:
                hand_move(session, WHITE, move)
            sim.advance(0.2)  # the board settles (the page's clock would let the time pass)
            press(session, WHITE, "roll")  # the end of my turn
            mine = len(log) - 1
            made = log[mine]
            assert isinstance(made, Played) and made.player == WHITE
            assert sorted(made.moves) == sorted(Played.of(WHITE, play.moves).moves)
            until(session, lambda: any(i.at == mine for i in link.session.intents(WHITE)), "sent")
            black.wait_for(lambda records: len(records) > mine, "my play at Black's board")
            assert black.records()[1 : mine + 1] == log[1 : mine + 1]  # alike, but for the seats
    finally:
        black.kill()


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
        except CommandError as exc:
            assert str(exc) == "White rolls the first opening die: wait for it"
        else:
            raise AssertionError("Black rolled first")
        assert sim.table.opening == (None, None)
